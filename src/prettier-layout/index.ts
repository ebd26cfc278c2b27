import { printer } from "prettier/doc";
import "./calls.js";
import "./expressions.js";
import "./types.js";
import { printDoc } from "./doc-printer.js";
import { parse } from "./parse.js";
import { Printer } from "./printer.js";
import { Source, Unsure } from "./source.js";
import { STRETCH_CHARACTERS, stretchesOf } from "./stretches.js";

const OPTIONS = { printWidth: 80, tabWidth: 2, useTabs: false };

/** A text of printable ASCII and line breaks: each character of its docs is one column wide. */
const PRINTABLE_ASCII = /^[\x20-\x7e\n]*$/;

/**
 * Generated TypeScript laid out exactly as prettier lays it out with its default options, without
 * running prettier: the syntax the emitters write is printed here with prettier's own rules and
 * doc printer. Returns undefined for a file holding anything else, which then goes to prettier.
 * A large file is laid out a stretch at a time ({@link stretchesOf}), and whole when a stretch
 * does not parse on its own.
 */
export function printLikePrettier(text: string): string | undefined {
  if (text.length < 2 * STRETCH_CHARACTERS) return printWhole(text);
  const printed: string[] = [];
  for (const stretch of stretchesOf(text)) {
    const part = printWhole(stretch);
    if (part === undefined) return printWhole(text);
    printed.push(part);
  }
  return printed.join("\n");
}

function printWhole(text: string): string | undefined {
  try {
    const file = parse(text);
    const printableAscii = PRINTABLE_ASCII.test(text);
    return new Printer(new Source(text), file).printFile(
      (doc) => printDoc(doc, OPTIONS.printWidth, printableAscii) ?? printer.printDocToString(doc, OPTIONS).formatted,
    );
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}
