import type { builders } from "prettier/doc";
import { textWidth as measuredWidth } from "./literals.js";
import { Unsure } from "./source.js";

type Doc = builders.Doc;

/**
 * Prints a doc as prettier's doc printer does (prettier/doc's printDocToString: groups flat where
 * they fit, else broken; conditional groups tried state by state; breaks propagated to the groups
 * around them), for the docs src/prettier-layout builds, with spaces for indentation. It walks the
 * doc once to propagate breaks and once to print, without prettier's generic traversal: a doc it
 * does not expect (fill, line suffixes, text with line breaks or wide characters, whose width it
 * does not measure) returns undefined, and the caller uses prettier's printer.
 */
export function printDoc(doc: Doc, width: number, printableAscii = false): string | undefined {
  try {
    pass++;
    propagateBreaks(doc);
    return new DocPrinter(width, printableAscii ? plainWidth : textWidth).print(doc);
  } catch (error) {
    if (error === UNEXPECTED) return undefined;
    throw error;
  }
}

const UNEXPECTED = Symbol("unexpected doc");
const BREAK = 0;
const FLAT = 1;
type Mode = typeof BREAK | typeof FLAT;

interface Node {
  type: string;
  contents?: Doc;
  break?: boolean | "propagated";
  id?: symbol;
  expandedStates?: Doc[];
  breakContents?: Doc;
  flatContents?: Doc;
  groupId?: symbol;
  negate?: boolean;
  hard?: boolean;
  soft?: boolean;
  literal?: boolean;
  n?: number | string;
  /** The printDoc pass that last walked this group to propagate breaks: a group shared by a conditional group's states is walked once. */
  propagatedIn?: number;
}

/** Counts printDoc's calls, so that a group marks which one walked it without a set of the groups seen. */
let pass = 0;

/** Marks every group holding a hard break as broken; says whether `doc` breaks the group around it. */
function propagateBreaks(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (Array.isArray(doc)) {
    let breaks = false;
    for (const part of doc) if (propagateBreaks(part)) breaks = true;
    return breaks;
  }
  const node = doc as Node;
  switch (node.type) {
    case "group": {
      if (node.propagatedIn === pass) return Boolean(node.break);
      node.propagatedIn = pass;
      let inner = false;
      if (node.expandedStates) {
        for (const state of node.expandedStates) if (propagateBreaks(state)) inner = true;
      } else inner = propagateBreaks(node.contents!);
      if (inner && !node.expandedStates && !node.break) node.break = "propagated";
      return Boolean(node.break);
    }
    case "break-parent":
      return true;
    case "line":
    case "line-suffix-boundary":
      return false;
    case "if-break": {
      const inBreak = node.breakContents ? propagateBreaks(node.breakContents) : false;
      const inFlat = node.flatContents ? propagateBreaks(node.flatContents) : false;
      return inBreak || inFlat;
    }
    case "indent":
    case "align":
    case "indent-if-break":
    case "label":
      return propagateBreaks(node.contents!);
    default:
      throw UNEXPECTED;
  }
}

/**
 * Width of printed text, as prettier measures it: a column a character for printable ASCII and the
 * narrow scripts, none for combining marks. Line breaks, tabs and wide characters are left to prettier.
 */
function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  if (CONTROL.test(text)) throw UNEXPECTED;
  try {
    return measuredWidth(text);
  } catch (error) {
    if (error instanceof Unsure) throw UNEXPECTED;
    throw error;
  }
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const CONTROL = /[\x00-\x1f]/;

/**
 * The same, for the docs of a text of printable ASCII and line breaks only, whose strings, cut from
 * that text or written by the printer, hold nothing else: only a line break is left to look for.
 */
function plainWidth(text: string): number {
  if (text.includes("\n")) throw UNEXPECTED;
  return text.length;
}

interface Command {
  indent: number;
  mode: Mode;
  doc: Doc;
}

class DocPrinter {
  private readonly groupModes = new Map<symbol, Mode>();
  private readonly out: string[] = [];
  private position = 0;
  private remeasure = false;

  constructor(
    private readonly width: number,
    private readonly textWidth: (text: string) => number,
  ) {}

  print(doc: Doc): string {
    const commands: Command[] = [{ indent: 0, mode: BREAK, doc }];
    while (commands.length > 0) {
      const { indent, mode, doc: current } = commands.pop()!;
      if (typeof current === "string") {
        if (current === "") continue;
        this.out.push(current);
        this.position += this.textWidth(current);
        continue;
      }
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) commands.push({ indent, mode, doc: current[i]! });
        continue;
      }
      const node = current as Node;
      switch (node.type) {
        case "indent":
          commands.push({ indent: indent + 2, mode, doc: node.contents! });
          break;
        case "align":
          if (typeof node.n !== "number") throw UNEXPECTED;
          commands.push({ indent: indent + node.n, mode, doc: node.contents! });
          break;
        case "label":
          commands.push({ indent, mode, doc: node.contents! });
          break;
        case "group":
          this.group(node, indent, mode, commands);
          if (node.id) this.groupModes.set(node.id, commands.at(-1)!.mode);
          break;
        case "if-break":
        case "indent-if-break": {
          // Tied to a group not printed yet, neither branch prints, as in prettier's printer.
          const groupMode = node.groupId ? this.groupModes.get(node.groupId) : mode;
          let contents: Doc | undefined;
          if (groupMode === undefined) contents = undefined;
          else if (node.type === "if-break") contents = groupMode === BREAK ? node.breakContents : node.flatContents;
          else if (node.negate) throw UNEXPECTED;
          else contents = groupMode === BREAK ? { type: "indent", contents: node.contents! } : node.contents;
          if (contents) commands.push({ indent, mode, doc: contents });
          break;
        }
        case "line":
          if (mode === FLAT && !node.hard) {
            if (!node.soft) {
              this.out.push(" ");
              this.position += 1;
            }
            break;
          }
          if (mode === FLAT) this.remeasure = true;
          if (node.literal) throw UNEXPECTED;
          this.trim();
          this.out.push(`\n${" ".repeat(indent)}`);
          this.position = indent;
          break;
        case "break-parent":
        case "line-suffix-boundary":
          break;
        default:
          throw UNEXPECTED;
      }
    }
    // What follows a statement is a line break, before which prettier drops trailing spaces.
    this.trim();
    return this.out.join("");
  }

  private group(node: Node, indent: number, mode: Mode, commands: Command[]): void {
    if (mode === FLAT && !this.remeasure) {
      commands.push({ indent, mode: node.break ? BREAK : FLAT, doc: node.contents! });
      return;
    }
    this.remeasure = false;
    const next: Command = { indent, mode: FLAT, doc: node.contents! };
    const room = this.width - this.position;
    if (!node.break && this.fits(next, commands, room)) {
      commands.push(next);
      return;
    }
    const states = node.expandedStates;
    if (!states) {
      commands.push({ indent, mode: BREAK, doc: node.contents! });
      return;
    }
    const mostExpanded = states.at(-1)!;
    if (node.break) {
      commands.push({ indent, mode: BREAK, doc: mostExpanded });
      return;
    }
    // The last state is not tried flat: it is the one printed broken.
    for (let i = 1; i < states.length - 1; i++) {
      const state: Command = { indent, mode: FLAT, doc: states[i]! };
      if (this.fits(state, commands, room)) {
        commands.push(state);
        return;
      }
    }
    commands.push({ indent, mode: BREAK, doc: mostExpanded });
  }

  /** Whether `next`, then what follows it up to the first line break, fits in `room` columns. */
  private fits(next: Command, rest: Command[], room: number): boolean {
    let width = room;
    let restIndex = rest.length;
    // A flat line's space counts only once text follows it on the line.
    let pendingSpace = false;
    const stack: { mode: Mode; doc: Doc }[] = [{ mode: next.mode, doc: next.doc }];
    while (width >= 0) {
      if (stack.length === 0) {
        if (restIndex === 0) return true;
        const command = rest[--restIndex]!;
        stack.push({ mode: command.mode, doc: command.doc });
        continue;
      }
      const { mode, doc } = stack.pop()!;
      if (typeof doc === "string") {
        if (doc === "") continue;
        if (pendingSpace) {
          width -= 1;
          pendingSpace = false;
        }
        width -= this.textWidth(doc);
        continue;
      }
      if (Array.isArray(doc)) {
        for (let i = doc.length - 1; i >= 0; i--) stack.push({ mode, doc: doc[i]! });
        continue;
      }
      const node = doc as Node;
      switch (node.type) {
        case "indent":
        case "align":
        case "indent-if-break":
        case "label":
          stack.push({ mode, doc: node.contents! });
          break;
        case "group": {
          const groupMode = node.break ? BREAK : mode;
          const contents = node.expandedStates && groupMode === BREAK ? node.expandedStates.at(-1)! : node.contents!;
          stack.push({ mode: groupMode, doc: contents });
          break;
        }
        case "if-break": {
          const groupMode = node.groupId ? (this.groupModes.get(node.groupId) ?? FLAT) : mode;
          const contents = groupMode === BREAK ? node.breakContents : node.flatContents;
          if (contents) stack.push({ mode, doc: contents });
          break;
        }
        case "line":
          if (mode === BREAK || node.hard) return true;
          if (!node.soft) pendingSpace = true;
          break;
        case "break-parent":
        case "line-suffix-boundary":
          break;
        default:
          throw UNEXPECTED;
      }
    }
    return false;
  }

  /** Drops the spaces and tabs at the end of the output, as prettier does before a line break. */
  private trim(): void {
    while (this.out.length > 0) {
      const last = this.out.at(-1)!;
      const end = last.charCodeAt(last.length - 1);
      if (last.length > 0 && end !== 32 && end !== 9) return;
      const trimmed = last.replace(/[ \t]+$/, "");
      if (trimmed.length === last.length) return;
      this.out[this.out.length - 1] = trimmed;
      if (trimmed.length > 0) return;
      this.out.pop();
    }
  }
}
