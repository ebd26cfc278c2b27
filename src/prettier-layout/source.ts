import * as ts from "./ast.js";

/** Thrown where the printer meets syntax or a layout it does not reproduce; the file then goes to prettier. */
export class Unsure extends Error {
  constructor(what: string) {
    super(`not laid out here: ${what}`);
  }
}

/** The text being printed, with the questions prettier's printer asks of the original source. */
export class Source {
  constructor(readonly text: string) {}

  /** Whether an empty line follows `end`, after the rest of its line (prettier's `isNextLineEmpty`). */
  nextLineEmpty(end: number): boolean {
    const text = this.text;
    let i = end;
    let previous = -1;
    while (i !== previous) {
      previous = i;
      while (i < text.length && (text[i] === "," || text[i] === ";" || text[i] === " " || text[i] === "\t")) i++;
      if (text.startsWith("/*", i)) {
        const close = text.indexOf("*/", i + 2);
        if (close !== -1 && !/[\r\n]/.test(text.slice(i, close))) i = close + 2;
      }
    }
    if (text.startsWith("//", i)) {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline;
    }
    i = this.skipNewline(i);
    if (i === -1) return false;
    return this.hasNewline(i);
  }

  /** Whether a line ends after `index`, past spaces and tabs. */
  hasNewline(index: number): boolean {
    let i = index;
    while (i < this.text.length && (this.text[i] === " " || this.text[i] === "\t")) i++;
    return this.text[i] === "\n" || this.text[i] === "\r";
  }

  hasNewlineBefore(index: number): boolean {
    let i = index - 1;
    while (i >= 0 && (this.text[i] === " " || this.text[i] === "\t")) i--;
    return i >= 0 && (this.text[i] === "\n" || this.text[i] === "\r");
  }

  hasNewlineInRange(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this.text[i] === "\n") return true;
    return false;
  }

  private skipNewline(index: number): number {
    if (this.text.startsWith("\r\n", index)) return index + 2;
    if (this.text[index] === "\n" || this.text[index] === "\r") return index + 1;
    return index;
  }

  /** The comments before a node, as prettier attaches them to it when they stand before it. */
  leadingComments(node: ts.Node): ts.CommentRange[] {
    return ts.getLeadingCommentRanges(this.text, node.pos) ?? [];
  }

  trailingComments(node: ts.Node): ts.CommentRange[] {
    return ts.getTrailingCommentRanges(this.text, node.end) ?? [];
  }
}
