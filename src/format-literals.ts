import { escapeControlCharacters } from "./control-characters.js";
import { printJsonLiteral } from "./json-literal-print.js";

/**
 * The JSON literals of a generated file (`export const xInputSchema = {...} satisfies ToolInputSchema;`, `const xCall: ToolCall = {...};`) and
 * its named imports and exports are a quarter of what a large spec makes prettier read, and their
 * layout needs none of its rules but a few: they are printed here as prettier would print them, and
 * prettier formats the file with each one replaced by a placeholder, a literal by a small object
 * where the literal would sit, a whole import or export by `import "projector_literal_N";`. Output
 * is byte for byte what prettier makes of the whole file (test/format-literals.test.ts).
 */
export interface SetAside {
  /** The file with each part printed here replaced by its placeholder; what prettier formats. */
  skeleton: string;
  /** By placeholder number, the part as prettier prints it, and the column it starts at. */
  literals: { text: string; column: number }[];
}

/**
 * `export const x = {...} satisfies T;`, `const xCall: ToolCall = {...};`: a one-line JSON object bound
 * to a name, as the emitter writes it. Here and below a line ends at a line feed only: a lone
 * carriage return or U+2028 inside a comment starts no statement.
 */
const STATEMENT =
  /((?:export )?const [A-Za-z_$][\w$]*(?:: [A-Za-z_$][\w$]*)? = )(\{.*\})((?: as const)?(?: satisfies [A-Za-z_$][\w$]*)?;)(?=\n|$)/y;
const PLACEHOLDER_NAME = "projector_literal_";
/** Where a placeholder starts, by how it stands: flat, broken over lines by prettier, or a whole statement. */
const PLACEHOLDER = /\{ projector_literal_(\d+): 0 \}|\{\n *projector_literal_(\d+): 0,\n *\}|import "projector_literal_(\d+)";(?=\n|$)/y;
/** `import { a, type B } from "./x.js";`, `export { a } from "./x.js";`: named specifiers only, as the emitter writes them. */
const MODULE_STATEMENT =
  /((?:import|export)(?: type)? )\{ ((?:type )?[A-Za-z_$][\w$]*(?: as [A-Za-z_$][\w$]*)?(?:, (?:type )?[A-Za-z_$][\w$]*(?: as [A-Za-z_$][\w$]*)?)*) \}( from "[^"\\\n]*";)(?=\n|$)/y;

/**
 * `text` with each match of `sticky` that starts a line (after a line feed, or at the start) and
 * begins with one of `starts` replaced. The lines are found with `indexOf`, which skips a file's
 * megabytes far faster than a regex asked to try every position.
 */
function replaceAtLineStarts(text: string, starts: readonly string[], sticky: RegExp, replace: (match: RegExpExecArray) => string): string {
  let result = "";
  let copied = 0;
  for (let line = 0; line < text.length;) {
    if (starts.some((start) => text.startsWith(start, line))) {
      sticky.lastIndex = line;
      const match = sticky.exec(text);
      if (match) {
        result += text.slice(copied, line) + replace(match);
        copied = line + match[0].length;
      }
    }
    const next = text.indexOf("\n", line);
    if (next === -1) break;
    line = next + 1;
  }
  return copied === 0 ? text : result + text.slice(copied);
}
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
  const withLiterals = replaceAtLineStarts(text, ["export const ", "const "], STATEMENT, ([statement, head, json, tail]) => {
    const place = opening(head!);
    // An empty object cannot break, so prettier moves it under a head too long for it, as `opening` does not.
    if (place === undefined || json === "{}") return statement;
    let value: unknown;
    try {
      value = JSON.parse(json!);
    } catch {
      return statement;
    }
    // Only text the emitter wrote as plain JSON (no computed `__proto__` key, keys in their own order) is set aside.
    if (escapeControlCharacters(JSON.stringify(value)) !== json) return statement;
    const printed = printJsonLiteral(value, { ...place, after: width(tail!) }, width);
    if (printed === undefined) return statement;
    literals.push({ text: printed, column: place.column });
    return `${head}{ ${PLACEHOLDER_NAME}${literals.length - 1}: 0 }${tail}`;
  });
  const skeleton = replaceAtLineStarts(withLiterals, ["import ", "export "], MODULE_STATEMENT, ([statement, head, names, tail]) => {
    literals.push({ text: printModuleStatement(statement, head!, names!.split(", "), tail!, width), column: 0 });
    return `import "${PLACEHOLDER_NAME}${literals.length - 1}";`;
  });
  return literals.length > 0 ? { skeleton, literals } : undefined;
}

/** Puts the literals back into the formatted skeleton; undefined when a placeholder is not where its literal belongs. */
export function putLiteralsBack(formatted: string, aside: SetAside): string | undefined {
  const placed = new Set<number>();
  const result: string[] = [];
  let copied = 0;
  for (let at = formatted.indexOf(PLACEHOLDER_NAME); at !== -1; at = formatted.indexOf(PLACEHOLDER_NAME, at + 1)) {
    const start = placeholderStart(formatted, at);
    if (start === undefined || start < copied) continue;
    PLACEHOLDER.lastIndex = start;
    const match = PLACEHOLDER.exec(formatted);
    if (!match) continue;
    const index = Number(match[1] ?? match[2] ?? match[3]);
    const literal = aside.literals[index];
    const column = start - (formatted.lastIndexOf("\n", start - 1) + 1);
    if (literal === undefined || placed.has(index) || column !== literal.column) return undefined;
    placed.add(index);
    result.push(formatted.slice(copied, start), literal.text);
    copied = start + match[0].length;
  }
  if (placed.size !== aside.literals.length) return undefined;
  result.push(formatted.slice(copied));
  return result.join("");
}

/**
 * Where the placeholder whose name is at `name` starts: its `{` (on the line, or the line above
 * once prettier broke it), or the `import "` of a statement that starts a line.
 */
function placeholderStart(text: string, name: number): number | undefined {
  if (text.startsWith("{ ", name - 2)) return name - 2;
  if (text.startsWith('import "', name - 8)) return name === 8 || text[name - 9] === "\n" ? name - 8 : undefined;
  let brace = name - 1;
  while (brace >= 0 && text[brace] === " ") brace--;
  return text[brace] === "\n" && text[brace - 1] === "{" ? brace - 1 : undefined;
}

/** Prettier keeps the specifiers on the statement's line where it fits, and where there is only one; else one per line. */
function printModuleStatement(statement: string, head: string, names: string[], tail: string, width: (text: string) => number): string {
  if (width(statement) <= PRINT_WIDTH || names.length === 1) return statement;
  return `${head}{\n${names.map((name) => `  ${name},\n`).join("")}}${tail}`;
}
