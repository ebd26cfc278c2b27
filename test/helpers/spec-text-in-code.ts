// Spec and annotation text may reach generated files only inside string literals and comments: a
// name or a description printed as code is code the inputs wrote. A check of a generated folder
// against the inputs it came from.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { parse } from "yaml";

/** Every key and string value of a YAML or JSON file, however deep. */
export function stringsOf(text: string): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value === "string") found.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null)
      for (const [key, inner] of Object.entries(value)) {
        found.add(key);
        visit(inner);
      }
  };
  visit(parse(text, { maxAliasCount: -1 }));
  return found;
}

/** The file with its string, template and regular expression literals and its comments blanked: the text that is code. */
export function codeOnly(text: string): string {
  const file = ts.createSourceFile("generated.ts", text, ts.ScriptTarget.Latest, true);
  const code = text.split("");
  const blank = (start: number, end: number) => {
    for (let i = start; i < end; i++) if (code[i] !== "\n") code[i] = " ";
  };
  const visit = (node: ts.Node) => {
    ts.forEachLeadingCommentRange(text, node.getFullStart(), blank);
    ts.forEachTrailingCommentRange(text, node.getEnd(), blank);
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node))
      blank(node.getStart(file), node.getEnd());
    else for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return code.join("");
}

/** Text that could only be code if printed verbatim: not a bare name or number, which generated code may well share. */
const couldBeCode = (text: string) => text.trim().length >= 3 && /[^\p{ID_Continue}$\s]/u.test(text);

/**
 * The pieces of an input string to look for: the whole of a short one; of a long one, overlapping
 * pieces such that any 24 characters of it in a row hold one whole (generate may print part of a
 * string, as when it strips a prefix).
 */
function pieces(text: string): string[] {
  if (text.length <= 16) return [text];
  const found: string[] = [];
  for (let at = 0; at + 16 <= text.length; at += 8) found.push(text.slice(at, at + 16));
  return found;
}

/** Each piece of an input string found outside the string literals and comments of a generated module, as `file: piece`; the runtime copied in is not the inputs'. */
export function inputTextInCode(generated: Map<string, string>, inputs: readonly string[]): string[] {
  const strings = new Set(inputs.flatMap((text) => [...stringsOf(text)].flatMap(pieces)).filter(couldBeCode));
  const found: string[] = [];
  for (const [path, text] of generated) {
    if (!path.endsWith(".ts") || path.startsWith("runtime/")) continue;
    const code = codeOnly(text);
    for (const piece of strings) if (code.includes(piece)) found.push(`${path}: ${JSON.stringify(piece)}`);
  }
  return found;
}

/** The spec and annotation files of a bad-input case folder. */
export function inputFilesOf(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^(openapi|projector)[\w.-]*\.(ya?ml|json)$/.test(name))
    .map((name) => readFileSync(join(dir, name), "utf8"));
}
