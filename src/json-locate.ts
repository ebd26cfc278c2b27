import type { SourceLocation } from "./diagnostics.js";
import { listIndex, type NodePath } from "./yaml-source.js";

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Where a path points in a JSON text, found by scanning the text once up to it: no tree is built,
 * so locating in a spec of tens of megabytes costs milliseconds where a YAML parse with positions
 * costs seconds and gigabytes. The text must be valid JSON. A path that does not exist resolves
 * to its deepest existing ancestor, as in parseYamlSource.
 */
export function locateInJson(text: string, file: string, path: NodePath, part: "key" | "value" = "value"): SourceLocation {
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t")) i++;
  };
  const skipString = () => {
    i++;
    while (i < text.length && text.charCodeAt(i) !== QUOTE) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
    i++;
  };
  const skipValue = () => {
    skipSpace();
    if (text.charCodeAt(i) === QUOTE) return skipString();
    if (text[i] !== "{" && text[i] !== "[") {
      while (i < text.length && !",}] \n\r\t".includes(text[i]!)) i++;
      return;
    }
    let depth = 0;
    do {
      const c = text[i];
      if (c === '"') {
        skipString();
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") depth--;
      i++;
    } while (depth > 0 && i < text.length);
  };
  /** After `{` or `[` or a member: past the comma, or false at the closing bracket. */
  const nextMember = (first: boolean): boolean => {
    skipSpace();
    if (!first) {
      if (text[i] !== ",") return false;
      i++;
      skipSpace();
    }
    return text[i] !== "}" && text[i] !== "]";
  };

  if (text.charCodeAt(0) === 0xfeff) i = 1;
  skipSpace();
  let value = i;
  let key: number | undefined;
  for (const segment of path) {
    i = value;
    let found = false;
    if (text[i] === "{") {
      i++;
      for (let first = true; nextMember(first); first = false) {
        const keyStart = i;
        skipString();
        const raw = text.slice(keyStart + 1, i - 1);
        const name = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
        skipSpace();
        i++; // the colon
        skipSpace();
        if (name === String(segment)) {
          key = keyStart;
          value = i;
          found = true;
          break;
        }
        skipValue();
      }
    } else if (text[i] === "[" && listIndex(segment) !== undefined) {
      // As parseYamlSource: an index past the end leaves no key, and the list itself is the answer.
      const wanted = listIndex(segment);
      key = undefined;
      i++;
      for (let index = 0, first = true; nextMember(first); index++, first = false) {
        if (index === wanted) {
          key = value = i;
          found = true;
          break;
        }
        skipValue();
      }
    }
    if (!found) break;
  }
  const offset = part === "key" && key !== undefined ? key : value;
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { file, line, column: offset - lineStart + 1 };
}
