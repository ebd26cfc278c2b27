// The marker cells of table text, as docs/generated-code.md defines them: what a reader does with
// the strings TOON's decoder gives back, to have the JSON result.
import { decode } from "@toon-format/toon";

const KINDS = "unresolved|unknown_code|unusable";
/** `{unresolved: usr_9}`: a marker, its value written as TOON writes a primitive. */
const MARKER_CELL = new RegExp(`^\\{(${KINDS}): ([\\s\\S]*)\\}$`);
/** A string of the API's shaped like a marker cell, written with one more pair of braces. */
const ESCAPED_STRING = new RegExp(`^\\{(\\{+(?:${KINDS}): [\\s\\S]*\\})\\}$`);
/** A string the table writes with one more pair of braces. */
const MARKER_CELL_LIKE = new RegExp(`^\\{+(?:${KINDS}): [\\s\\S]*\\}$`);

/** What TOON's decoder read from a table text, with each marker cell read as its marker and each escaped string as the API's. */
export function readMarkerCells(value: unknown): unknown {
  if (typeof value === "string") {
    if (value.startsWith("{{")) return ESCAPED_STRING.exec(value)?.[1] ?? value;
    const cell = MARKER_CELL.exec(value);
    return cell ? { [cell[1]!]: (decode(`value: ${cell[2]}`) as { value: unknown }).value } : value;
  }
  if (Array.isArray(value)) return value.map(readMarkerCells);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, readMarkerCells(inner)]));
  return value;
}

/** A value with its strings as table text writes them: one shaped like a marker cell with one more pair of braces. */
export function withMarkerCellLikeStringsEscaped(value: unknown): unknown {
  if (typeof value === "string") return MARKER_CELL_LIKE.test(value) ? `{${value}}` : value;
  if (Array.isArray(value)) return value.map(withMarkerCellLikeStringsEscaped);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withMarkerCellLikeStringsEscaped(inner)]));
  return value;
}
