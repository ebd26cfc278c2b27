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
    for (let i = 0; i < doc.length; i++) if (propagateBreaks(doc[i]!)) breaks = true;
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

/**
 * The stacks every doc is printed with: the commands waiting (indentation, mode, doc) and the parts
 * `fits` has still to measure, each a set of parallel arrays with its own top. A file's docs push
 * millions of commands; as an object each, or arrays grown anew for each doc, they were a third of
 * the layout's allocations, and the collections they cause take time from openapi-typescript's
 * thread too. A slot is cleared when popped, so that no doc outlives its statement here.
 */
const indents: number[] = [];
/** A line break and the indentation after it, by its width: made once each. */
const LINE_BREAKS: string[] = [];
function lineBreak(indent: number): string {
  const known = LINE_BREAKS[indent];
  if (known !== undefined) return known;
  const made = `\n${" ".repeat(indent)}`;
  LINE_BREAKS[indent] = made;
  return made;
}
const modes: Mode[] = [];
const docs: (Doc | undefined)[] = [];
const fitModes: Mode[] = [];
const fitDocs: (Doc | undefined)[] = [];

class DocPrinter {
  private readonly groupModes = new Map<symbol, Mode>();
  private readonly out: string[] = [];
  private position = 0;
  private remeasure = false;
  /** How many commands wait: the top of {@link indents}, {@link modes} and {@link docs}. */
  private top = 0;

  constructor(
    private readonly width: number,
    private readonly textWidth: (text: string) => number,
  ) {}

  private push(indent: number, mode: Mode, doc: Doc): void {
    const top = this.top++;
    indents[top] = indent;
    modes[top] = mode;
    docs[top] = doc;
  }

  print(doc: Doc): string {
    this.push(0, BREAK, doc);
    try {
      while (this.top > 0) {
        const top = --this.top;
        const indent = indents[top]!;
        const mode = modes[top]!;
        const current = docs[top]!;
        docs[top] = undefined;
        this.command(indent, mode, current);
      }
    } finally {
      // A doc given up on (an unexpected part) leaves commands behind.
      for (let i = 0; i < this.top; i++) docs[i] = undefined;
      this.top = 0;
    }
    // What follows a statement is a line break, before which prettier drops trailing spaces.
    this.trim();
    return this.out.join("");
  }

  private command(indent: number, mode: Mode, current: Doc): void {
    if (typeof current === "string") {
      if (current === "") return;
      this.out.push(current);
      this.position += this.textWidth(current);
      return;
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) this.push(indent, mode, current[i]!);
      return;
    }
    const node = current as Node;
    switch (node.type) {
      case "indent":
        this.push(indent + 2, mode, node.contents!);
        break;
      case "align":
        if (typeof node.n !== "number") throw UNEXPECTED;
        this.push(indent + node.n, mode, node.contents!);
        break;
      case "label":
        this.push(indent, mode, node.contents!);
        break;
      case "group":
        this.group(node, indent, mode);
        if (node.id) this.groupModes.set(node.id, modes[this.top - 1]!);
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
        if (contents) this.push(indent, mode, contents);
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
        this.out.push(lineBreak(indent));
        this.position = indent;
        break;
      case "break-parent":
      case "line-suffix-boundary":
        break;
      default:
        throw UNEXPECTED;
    }
  }

  private group(node: Node, indent: number, mode: Mode): void {
    if (mode === FLAT && !this.remeasure) {
      this.push(indent, node.break ? BREAK : FLAT, node.contents!);
      return;
    }
    this.remeasure = false;
    const room = this.width - this.position;
    if (!node.break && this.fits(FLAT, node.contents!, room)) {
      this.push(indent, FLAT, node.contents!);
      return;
    }
    const states = node.expandedStates;
    if (!states) {
      this.push(indent, BREAK, node.contents!);
      return;
    }
    const mostExpanded = states.at(-1)!;
    if (node.break) {
      this.push(indent, BREAK, mostExpanded);
      return;
    }
    // The last state is not tried flat: it is the one printed broken.
    for (let i = 1; i < states.length - 1; i++) {
      if (this.fits(FLAT, states[i]!, room)) {
        this.push(indent, FLAT, states[i]!);
        return;
      }
    }
    this.push(indent, BREAK, mostExpanded);
  }

  /** Whether `next` in `nextMode`, then the commands waiting after it up to the first line break, fit in `room` columns. */
  private fits(nextMode: Mode, next: Doc, room: number): boolean {
    let width = room;
    let rest = this.top;
    // A flat line's space counts only once text follows it on the line.
    let pendingSpace = false;
    let top = 0;
    fitModes[top] = nextMode;
    fitDocs[top++] = next;
    try {
      while (width >= 0) {
        if (top === 0) {
          if (rest === 0) return true;
          rest--;
          fitModes[top] = modes[rest]!;
          fitDocs[top++] = docs[rest]!;
          continue;
        }
        const mode = fitModes[--top]!;
        const doc = fitDocs[top]!;
        fitDocs[top] = undefined;
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
          for (let i = doc.length - 1; i >= 0; i--) {
            fitModes[top] = mode;
            fitDocs[top++] = doc[i]!;
          }
          continue;
        }
        const node = doc as Node;
        switch (node.type) {
          case "indent":
          case "align":
          case "indent-if-break":
          case "label":
            fitModes[top] = mode;
            fitDocs[top++] = node.contents!;
            break;
          case "group": {
            const groupMode = node.break ? BREAK : mode;
            fitModes[top] = groupMode;
            fitDocs[top++] = node.expandedStates && groupMode === BREAK ? node.expandedStates.at(-1)! : node.contents!;
            break;
          }
          case "if-break": {
            const groupMode = node.groupId ? (this.groupModes.get(node.groupId) ?? FLAT) : mode;
            const contents = groupMode === BREAK ? node.breakContents : node.flatContents;
            if (contents) {
              fitModes[top] = mode;
              fitDocs[top++] = contents;
            }
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
    } finally {
      for (let i = 0; i < top; i++) fitDocs[i] = undefined;
    }
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
