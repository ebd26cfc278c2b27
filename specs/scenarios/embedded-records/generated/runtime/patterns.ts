// Reading parsed JSON without trusting its shape or its prototype.

// A spec's `pattern` tested in time linear in the string, however the pattern is written: a
// backtracking RegExp takes exponential time on some patterns, and the model chooses the string.

/**
 * How many steps the pattern tests of one tool call's arguments may take together; past them, the
 * patterns not yet tested are left to the API. Each step follows one state of one pattern at one
 * character, so a call's checks cost at most this much whatever the patterns and strings.
 */
export const PATTERN_STEPS = 10_000_000;

/** The most states a pattern may compile to; counted repeats (`{1,255}`) copy their part. */
const MAX_STATES = 10_000;

/** Steps still to take, shared by every pattern tested for one call. */
export interface StepBudget {
  left: number;
}

type Node =
  | { readonly kind: "atom"; readonly source: string }
  | { readonly kind: "assert"; readonly at: "^" | "$" | "\\b" | "\\B" }
  | { readonly kind: "sequence"; readonly parts: readonly Node[] }
  | { readonly kind: "either"; readonly options: readonly Node[] }
  | {
      readonly kind: "repeat";
      readonly part: Node;
      readonly min: number;
      readonly max: number;
    };

/** A feature with no linear-time test (a backreference, a lookaround), or a pattern too large. */
class Unsupported extends Error {}

/** One character class, escape, `.` or literal: tested by the RegExp engine on one character at a time. */
class Atom {
  private readonly regex: RegExp;
  private readonly ascii = new Int8Array(128);
  constructor(source: string) {
    this.regex = new RegExp(`^(?:${source})$`, "u");
  }
  matches(code: number): boolean {
    if (code >= 128) return this.regex.test(String.fromCodePoint(code));
    // 1 for a match, 2 for none, 0 not yet tested.
    if (this.ascii[code] === 0)
      this.ascii[code] = this.regex.test(String.fromCharCode(code)) ? 1 : 2;
    return this.ascii[code] === 1;
  }
}

type State =
  | { readonly op: "char"; readonly atom: Atom }
  | { readonly op: "assert"; readonly at: "^" | "$" | "\\b" | "\\B" }
  | { op: "split"; next: number; other: number }
  | { op: "jump"; next: number }
  | { readonly op: "match" };

/** A pattern JavaScript compiles with the `u` flag, read into {@link Node}s. */
class Parser {
  private readonly chars: string[];
  private at = 0;
  constructor(pattern: string) {
    this.chars = [...pattern];
  }

  parse(): Node {
    const node = this.either();
    if (this.at < this.chars.length) throw new Unsupported();
    return node;
  }

  private either(): Node {
    const options = [this.sequence()];
    while (this.chars[this.at] === "|") {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "either", options };
  }

  private sequence(): Node {
    const parts: Node[] = [];
    while (
      this.at < this.chars.length &&
      this.chars[this.at] !== "|" &&
      this.chars[this.at] !== ")"
    )
      parts.push(this.term());
    return { kind: "sequence", parts };
  }

  private term(): Node {
    const c = this.chars[this.at]!;
    if (c === "^" || c === "$") {
      this.at++;
      return { kind: "assert", at: c };
    }
    const next = this.chars[this.at + 1];
    if (c === "\\" && (next === "b" || next === "B")) {
      this.at += 2;
      return { kind: "assert", at: next === "b" ? "\\b" : "\\B" };
    }
    return this.quantified(c === "(" ? this.group() : this.atom());
  }

  private group(): Node {
    this.at++;
    if (this.chars[this.at] === "?") {
      const kind = this.chars[this.at + 1];
      const after = this.chars[this.at + 2];
      if (kind === ":") this.at += 2;
      else if (kind === "<" && after !== "=" && after !== "!") {
        // A named group: the name matters only to backreferences, which are not followed.
        while (this.at < this.chars.length && this.chars[this.at] !== ">")
          this.at++;
        this.at++;
      } else throw new Unsupported();
    }
    const inner = this.either();
    if (this.chars[this.at] !== ")") throw new Unsupported();
    this.at++;
    return inner;
  }

  private atom(): Node {
    const start = this.at;
    const c = this.chars[this.at++]!;
    if (c === "[") {
      while (this.at < this.chars.length && this.chars[this.at] !== "]")
        this.at += this.chars[this.at] === "\\" ? 2 : 1;
      this.at++;
    } else if (c === "\\") this.escape();
    return {
      kind: "atom",
      source: this.chars.slice(start, this.at).join(""),
    };
  }

  /** The rest of an escape after its `\`. */
  private escape(): void {
    const c = this.chars[this.at++];
    if (c === undefined || c === "k" || (c >= "1" && c <= "9"))
      throw new Unsupported();
    if (c === "p" || c === "P" || (c === "u" && this.chars[this.at] === "{"))
      this.skipPast("}");
    else if (c === "x") this.at += 2;
    else if (c === "c") this.at += 1;
    else if (c === "u") {
      const lead = parseInt(
        this.chars.slice(this.at, this.at + 4).join(""),
        16,
      );
      this.at += 4;
      // `\uD83D\uDE00` is one character under the `u` flag.
      if (
        lead >= 0xd800 &&
        lead <= 0xdbff &&
        this.chars[this.at] === "\\" &&
        this.chars[this.at + 1] === "u"
      ) {
        const trail = parseInt(
          this.chars.slice(this.at + 2, this.at + 6).join(""),
          16,
        );
        if (trail >= 0xdc00 && trail <= 0xdfff) this.at += 6;
      }
    }
  }

  private skipPast(end: string): void {
    while (this.at < this.chars.length && this.chars[this.at] !== end)
      this.at++;
    this.at++;
  }

  private quantified(part: Node): Node {
    const c = this.chars[this.at];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      this.at++;
      [min, max] =
        c === "*" ? [0, Infinity] : c === "+" ? [1, Infinity] : [0, 1];
    } else if (c === "{") {
      const close = this.chars.indexOf("}", this.at);
      const [low, high] = this.chars
        .slice(this.at + 1, close)
        .join("")
        .split(",");
      min = Number(low);
      max = high === undefined ? min : high === "" ? Infinity : Number(high);
      this.at = close + 1;
    } else return part;
    // Lazy or greedy: whether a string matches at all is the same.
    if (this.chars[this.at] === "?") this.at++;
    return { kind: "repeat", part, min, max };
  }
}

/** Whether a part compiles to no state at all, so each copy of it would add none. */
const matchesOnlyEmpty = (node: Node): boolean =>
  node.kind === "sequence"
    ? node.parts.every(matchesOnlyEmpty)
    : node.kind === "repeat" && (node.max === 0 || matchesOnlyEmpty(node.part));

/** The states of a Thompson automaton for `node`: each state is followed at most once per character. */
function compile(node: Node): State[] {
  const states: State[] = [];
  // A counted repeat copies its states, not its atoms: `[a-z]{1,255}` compiles one RegExp.
  const atoms = new Map<string, Atom>();
  const add = <S extends State>(state: S): S => {
    if (states.length >= MAX_STATES) throw new Unsupported();
    states.push(state);
    return state;
  };
  const emit = (node: Node): void => {
    switch (node.kind) {
      case "atom":
        if (!atoms.has(node.source))
          atoms.set(node.source, new Atom(node.source));
        add({ op: "char", atom: atoms.get(node.source)! });
        return;
      case "assert":
        add({ op: "assert", at: node.at });
        return;
      case "sequence":
        for (const part of node.parts) emit(part);
        return;
      case "either": {
        const jumps: { op: "jump"; next: number }[] = [];
        const last = node.options.length - 1;
        for (const option of node.options.slice(0, last)) {
          const split = add({ op: "split", next: states.length + 1, other: 0 });
          emit(option);
          jumps.push(add({ op: "jump", next: 0 }));
          split.other = states.length;
        }
        emit(node.options[last]!);
        for (const jump of jumps) jump.next = states.length;
        return;
      }
      case "repeat": {
        // Repeating what matches only the empty string adds nothing, however many times: `(?:){1000000000}`.
        if (matchesOnlyEmpty(node.part)) return;
        for (let i = 0; i < node.min; i++) emit(node.part);
        if (node.max === Infinity) {
          const loop = states.length;
          const split = add({ op: "split", next: loop + 1, other: 0 });
          emit(node.part);
          add({ op: "jump", next: loop });
          split.other = states.length;
          return;
        }
        const splits: { op: "split"; next: number; other: number }[] = [];
        for (let i = node.min; i < node.max; i++) {
          splits.push(add({ op: "split", next: states.length + 1, other: 0 }));
          emit(node.part);
        }
        for (const split of splits) split.other = states.length;
        return;
      }
    }
  };
  emit(node);
  add({ op: "match" });
  return states;
}

/** JavaScript's `\w` without the `i` flag: what `\b` and `\B` tell apart. */
const isWordCharacter = (code: number | undefined): boolean =>
  code !== undefined &&
  ((code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95);

/**
 * Whether some part of `text` matches, as `RegExp.test` says, following every state at once so each
 * character costs at most one step per state; undefined when the budget runs out first.
 */
function search(
  states: readonly State[],
  text: string,
  budget: StepBudget,
): boolean | undefined {
  // The character each state was last followed at: a state is followed once per character.
  const seen = new Int32Array(states.length).fill(-1);
  let waiting: number[] = [];
  let previous: number | undefined;
  for (let at = 0; ;) {
    const code = text.codePointAt(at);
    // Every position may start a match: `test` looks for one anywhere in the string.
    const stack = [...waiting, 0];
    const reading: number[] = [];
    while (stack.length > 0) {
      const index = stack.pop()!;
      if (seen[index] === at) continue;
      seen[index] = at;
      if (--budget.left < 0) return undefined;
      const state = states[index]!;
      switch (state.op) {
        case "match":
          return true;
        case "char":
          reading.push(index);
          break;
        case "jump":
          stack.push(state.next);
          break;
        case "split":
          stack.push(state.other, state.next);
          break;
        case "assert": {
          const holds =
            state.at === "^"
              ? at === 0
              : state.at === "$"
                ? code === undefined
                : (isWordCharacter(previous) !== isWordCharacter(code)) ===
                  (state.at === "\\b");
          if (holds) stack.push(index + 1);
          break;
        }
      }
    }
    if (code === undefined) return false;
    waiting = [];
    for (const index of reading) {
      if (--budget.left < 0) return undefined;
      if ((states[index] as { atom: Atom }).atom.matches(code))
        waiting.push(index + 1);
    }
    previous = code;
    at += code > 0xffff ? 2 : 1;
  }
}

/** Compiled patterns by source, or null for one left to the API; cleared when it grows past its size. */
const compiled = new Map<string, State[] | null>();
const COMPILED_KEPT = 256;

function statesOf(pattern: string): State[] | null {
  let states = compiled.get(pattern);
  if (states !== undefined) return states;
  try {
    // A pattern JavaScript cannot compile is left to the API, rather than refusing every value.
    new RegExp(pattern, "u");
    states = compile(new Parser(pattern).parse());
  } catch {
    states = null;
  }
  if (compiled.size >= COMPILED_KEPT) compiled.clear();
  compiled.set(pattern, states);
  return states;
}

/**
 * Whether `pattern` (JSON Schema's, an ECMAScript regular expression with the `u` flag) finds a
 * match in `value`; undefined when the API must judge: the pattern does not compile, uses a
 * backreference or lookaround, compiles to more than {@link MAX_STATES} states, or the budget ran out.
 */
export function patternMatches(
  pattern: string,
  value: string,
  budget: StepBudget,
): boolean | undefined {
  const states = statesOf(pattern);
  return states === null ? undefined : search(states, value, budget);
}
