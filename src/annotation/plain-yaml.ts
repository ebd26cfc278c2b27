import { FAILSAFE_SCHEMA, load, Type } from "js-yaml";

/**
 * The scalars of the `yaml` library's core schema (YAML 1.2), the schema the annotation has always
 * been read with, tried in its order and resolved as it resolves them: a plain `017` is 17, `0o17`
 * is 15, `yes` and `2026-01-01` stay text. js-yaml's own core schema differs (`0b1`, `1_000`). One
 * type per tag: js-yaml keeps only the last of several types that share one.
 */
const firstOf =
  (forms: readonly (readonly [RegExp, (text: string) => unknown])[]) =>
  (text: string): unknown =>
    forms.find(([test]) => test.test(text))?.[1](text);

const scalar = (tag: string, forms: readonly (readonly [RegExp, (text: string) => unknown])[]) =>
  new Type(`tag:yaml.org,2002:${tag}`, {
    kind: "scalar",
    resolve: (text: string) => forms.some(([test]) => test.test(text)),
    construct: firstOf(forms),
  });

const CORE_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar("null", [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]),
    scalar("bool", [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === "t" || text[0] === "T"]]),
    scalar("int", [
      [/^0o[0-7]+$/, (text) => parseInt(text.substring(2), 8)],
      [/^[-+]?[0-9]+$/, (text) => parseInt(text, 10)],
      [/^0x[0-9a-fA-F]+$/, (text) => parseInt(text.substring(2), 16)],
    ]),
    scalar("float", [
      [
        /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
        (text) => (text.slice(-3).toLowerCase() === "nan" ? NaN : text[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY),
      ],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, parseFloat],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, parseFloat],
    ]),
  ],
});

/**
 * The annotation's value, read about ten times as fast as the full YAML parser reads it, where the
 * text keeps to lines both parsers read alike ({@link oneLineYaml}); `undefined` otherwise, or where
 * js-yaml refuses it (a syntax error, a key written twice): the full parser then reads the text and
 * says what is wrong, with its line. A key js-yaml reads as `"null"` (the full parser reads `~:` as
 * `""`) sends the text there too.
 */
export function readPlainYaml(text: string): unknown {
  if (!oneLineYaml(text)) return undefined;
  let value: unknown;
  try {
    value = load(text, { schema: CORE_SCHEMA });
  } catch {
    return undefined;
  }
  return hasNullKey(value) ? undefined : value;
}

function hasNullKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNullKey);
  if (typeof value !== "object" || value === null) return false;
  for (const [key, inner] of Object.entries(value)) if (key === "null" || hasNullKey(inner)) return true;
  return false;
}

/**
 * What the subset leaves out anywhere: anchors, aliases, tags, tabs, a carriage return not ending a
 * line, and `\U` (js-yaml reads an escape past U+10FFFF as broken text; the `yaml` library refuses it).
 */
const LEFT_OUT = /[&*!\t]|\r(?!\n)|\\U/;
/** Where a line's node starts: its indentation and any `- ` of sequence entries. */
const LINE_START = /^ *(?:- +)*/;
/** What a plain scalar may not start with: an indicator, or a space. */
const NOT_PLAIN_FIRST = /[\s\-?:,[\]{}#&*!|>'"%@`]/;
/** The `yaml` library refuses an implicit key whose colon is further than this from its start; js-yaml does not. */
const LONGEST_KEY = 1024;

/**
 * Whether every line of the text is a `key: value` pair or a sequence entry (`- value`, `- key:
 * value`) whose value ends on that line: a plain or quoted scalar, a flow collection closed on the
 * line, or nothing (a block below). That is every line `projector init` writes. Multi-line
 * scalars, block scalars, explicit keys, document markers and directives are where the parsers'
 * indentation rules part (the `yaml` library refuses some that js-yaml reads), so a text with any
 * is read by the full parser. So is an empty sequence entry: after one, js-yaml goes on with the
 * sequence at a `- ` further left, which ends it.
 */
export function oneLineYaml(text: string): boolean {
  if (LEFT_OUT.test(text)) return false;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (/^(?:---|\.\.\.|%)/.test(line)) return false;
    const start = LINE_START.exec(line)![0];
    let rest = line.slice(start.length);
    if (rest === "" || rest.startsWith("#")) {
      if (start.includes("-")) return false;
      continue;
    }
    const key = quotedScalar(rest) ?? plainKey(rest);
    if (key !== undefined && /^:(?: |$)/.test(rest.slice(key.length))) {
      if (key.length > LONGEST_KEY) return false;
      rest = rest.slice(key.length + 1).trimStart();
    } else if (!start.includes("-")) return false; // a bare value: the next line of a scalar begun above
    if (!oneLineValue(rest)) return false;
  }
  return true;
}

/** The plain key the text starts with, up to the `: ` or the `:` ending the line after it; none if a comment comes first. */
function plainKey(text: string): string | undefined {
  if (NOT_PLAIN_FIRST.test(text[0]!)) return undefined;
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === ":") {
      const next = text[i + 1];
      if (next === undefined || next === " ") return text.slice(0, i);
      // Any other space after it (a no-break space): the parsers need not agree whether a key ends.
      if (/\s/.test(next)) return undefined;
    } else if (c === "#" && /\s/.test(text[i - 1]!)) return undefined;
  }
  return undefined;
}

/**
 * A plain value: no indicator first (but `-`, `?` or `:` before a non-space), and before its
 * comment, if any, no `:` before a space or at the end, no `#` after a space. Checked with a regex
 * that cannot backtrack: one that could took quadratic time over a long run of spaces.
 */
function plainValue(value: string): boolean {
  const first = value[0]!;
  if (NOT_PLAIN_FIRST.test(first) && !("-?:".includes(first) && /\S/.test(value[1] ?? " "))) return false;
  const comment = value.indexOf(" #");
  return !/:(?:\s|$)|\s#/.test(comment === -1 ? value : value.slice(0, comment));
}

function oneLineValue(value: string): boolean {
  if (value === "" || value.startsWith("#")) return true;
  const quoted = quotedScalar(value);
  if (quoted !== undefined) return afterNode(value.slice(quoted.length));
  if (value[0] === "{" || value[0] === "[") {
    const end = flowEnd(value);
    return end !== undefined && afterNode(value.slice(end));
  }
  return plainValue(value);
}

/** Nothing after a node but spaces and a comment. */
const afterNode = (rest: string) => /^(?: *| +#.*)$/.test(rest);

/** What may not follow a backslash in a double-quoted scalar on one line. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * The quoted scalar the text starts with, quotes included, when it closes on the line. Scanned, not
 * matched: a regex of alternatives under a star recurses per character, and a scalar of millions
 * of characters overflowed the stack.
 */
function quotedScalar(text: string): string | undefined {
  const quote = text[0];
  if (quote !== "'" && quote !== '"') return undefined;
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote === '"' && c === "\\") {
      if (i + 1 >= text.length || LINE_TERMINATOR.test(text[i + 1]!)) return undefined;
      i++;
    } else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return text.slice(0, i + 1);
    }
  }
  return undefined;
}

/**
 * Where the flow collection the text starts with closes, when it closes on the line and holds only
 * plain words, quoted scalars and collections as values: a quote inside starts a scalar only where
 * an entry or a value does, and a collection as a key (`{ [a]: b }`), or a pair in a sequence, is
 * left to the full parser.
 */
function flowEnd(text: string): number | undefined {
  const open: string[] = [];
  let entryStart = true;
  let isKey = false;
  let justClosed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === " ") {
      // A comment inside a collection would run to the end of the line and leave it open.
      if (text[i + 1] === "#") return undefined;
      continue;
    }
    if (justClosed && c !== "," && c !== "}" && c !== "]") return undefined;
    justClosed = false;
    if (entryStart && (c === "'" || c === '"')) {
      const quoted = quotedScalar(text.slice(i));
      if (quoted === undefined) return undefined;
      i += quoted.length - 1;
      entryStart = false;
    } else if (c === "{" || c === "[") {
      if (!entryStart || isKey) return undefined;
      open.push(c);
      isKey = c === "{";
    } else if (c === "}" || c === "]") {
      if (open.pop() !== (c === "}" ? "{" : "[")) return undefined;
      if (open.length === 0) return i + 1;
      justClosed = true;
      entryStart = false;
    } else if (c === ",") {
      entryStart = true;
      isKey = open.at(-1) === "{";
    } else if (c === ":") {
      // `a:b` in a flow collection is read one way by one parser and another by the other.
      if (text[i + 1] !== " " || open.at(-1) !== "{") return undefined;
      entryStart = true;
      isKey = false;
    } else if (entryStart && "#|>'\"?%@`-".includes(c)) return undefined;
    else entryStart = false;
  }
  return undefined;
}
