import { escapeControlCharacters } from "./control-characters.js";
import { printJsonLiteral } from "./json-literal-print.js";

/**
 * The JSON Schema literals of a generated file (`export const xInputSchema = {...} as const;`) are a
 * quarter of what a large spec makes prettier read, and their layout needs none of its rules but a
 * few: they are printed here as prettier would print them, and prettier formats the file with each
 * one replaced by a placeholder object, which sits where the literal would. Output is byte for byte
 * what prettier makes of the whole file (test/format-literals.test.ts).
 */
export interface SetAside {
  /** The file with each literal printed here replaced by its placeholder; what prettier formats. */
  skeleton: string;
  /** Each placeholder's number to the literal as prettier prints it, and the column it starts at. */
  literals: { text: string; column: number }[];
}

const STATEMENT = /^(export const [A-Za-z_$][\w$]* = )(\{.*\})( as const(?: satisfies [A-Za-z_$][\w$]*)?;)$/gm;
const PLACEHOLDER_NAME = "projector_literal_";
const PLACEHOLDER = /\{ projector_literal_(\d+): 0 \}|\{\n *projector_literal_(\d+): 0,\n *\}/g;
/**
 * Where prettier puts the `{` of a literal after `head`: beside the `=` while `head {` fits in the
 * line, on the next line, indented, once it cannot. Near the edge it is not guessed.
 */
function opening(head: string): { indent: number; column: number } | undefined {
  if (head.length + 1 <= PRINT_WIDTH - 2) return { indent: 0, column: head.length };
  if (head.length > PRINT_WIDTH) return { indent: 2, column: 2 };
  return undefined;
}

const PRINT_WIDTH = 80;

/** Sets the file's JSON literals aside where it can print them as prettier would; undefined when the file has none. */
export function setLiteralsAside(text: string, width: (text: string) => number): SetAside | undefined {
  if (text.includes(PLACEHOLDER_NAME)) return undefined;
  const literals: SetAside["literals"] = [];
  const skeleton = text.replace(STATEMENT, (statement, head: string, json: string, tail: string) => {
    const place = opening(head);
    if (place === undefined) return statement;
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return statement;
    }
    // Only text the emitter wrote as plain JSON (no computed `__proto__` key, keys in their own order) is set aside.
    if (escapeControlCharacters(JSON.stringify(value)) !== json) return statement;
    const printed = printJsonLiteral(value, { ...place, after: width(tail) }, width);
    if (printed === undefined) return statement;
    literals.push({ text: printed, column: place.column });
    return `${head}{ ${PLACEHOLDER_NAME}${literals.length - 1}: 0 }${tail}`;
  });
  return literals.length > 0 ? { skeleton, literals } : undefined;
}

/** Puts the literals back into the formatted skeleton; undefined when a placeholder is not where its literal belongs. */
export function putLiteralsBack(formatted: string, aside: SetAside): string | undefined {
  const placed = new Set<number>();
  let misplaced = false;
  const text = formatted.replace(PLACEHOLDER, (match, flat: string | undefined, broken: string | undefined, offset: number) => {
    const index = Number(flat ?? broken);
    const literal = aside.literals[index];
    const column = offset - (formatted.lastIndexOf("\n", offset - 1) + 1);
    if (literal === undefined || placed.has(index) || column !== literal.column) {
      misplaced = true;
      return match;
    }
    placed.add(index);
    return literal.text;
  });
  return misplaced || placed.size !== aside.literals.length ? undefined : text;
}
