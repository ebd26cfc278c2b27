// Path parameters as openapi-fetch writes them into the URL, and the values that would change which path is requested.

import { described } from "./quoting.js";

/** Segments that change which path is requested: `..` climbs, `.` and the empty one drop a segment. */
const SEGMENT_CHANGERS = new Set(["", ".", ".."]);

const WRITABLE = "a string, a number or a boolean";

/** A value as a message names it: a scalar as JSON writes it, an array or object by its kind alone. */
const shown = (value: unknown): string =>
  typeof value === "object" && value !== null
    ? Array.isArray(value)
      ? "an array"
      : "an object"
    : described(value);

/** A value openapi-fetch writes as its escaped text. */
const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === "string" ||
  typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value));

/** The text `encodeURIComponent` writes, or undefined for a string holding a lone surrogate, which it cannot. */
function escaped(value: string | number | boolean): string | undefined {
  try {
    return encodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** Why text holding a lone surrogate cannot be part of a URL: `encodeURIComponent` throws on it. */
export const UNWRITABLE_SURROGATE =
  "cannot be written into the URL: it holds a lone surrogate (half of a UTF-16 pair)";

/**
 * The text openapi-fetch 0.17 writes for a path parameter in its default style (`simple`, not
 * exploded): a scalar escaped; an array's items escaped, joined with commas; an object's member
 * names as they are and its values escaped, all joined with commas. Or why the value cannot be
 * written so: null leaves the `{name}` of the template in the path, and anything else would be
 * written as text nobody meant (`[object Object]`, `null`, `NaN`) or, for a member name needing
 * escapes, unescaped.
 */
function writtenText(value: unknown): { text: string } | { problem: string } {
  if (value === null || value === undefined)
    return {
      problem: `cannot be ${shown(value)}: it is part of the path; pass its value`,
    };
  if (isScalar(value)) {
    const text = escaped(value);
    return text === undefined ? { problem: UNWRITABLE_SURROGATE } : { text };
  }
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isScalar(item))
        return {
          problem: `cannot be an array holding ${shown(item)}: each item is written into the path, so each must be ${WRITABLE}`,
        };
      const text = escaped(item);
      if (text === undefined) return { problem: UNWRITABLE_SURROGATE };
      parts.push(text);
    }
    return { text: parts.join(",") };
  }
  if (typeof value !== "object")
    return {
      problem: `cannot be ${shown(value)}: a path parameter takes ${WRITABLE}`,
    };
  // openapi-fetch walks an object with for...in, inherited members included.
  for (const member in value) {
    const inner: unknown = (value as Record<string, unknown>)[member];
    if (escaped(member) !== member)
      return {
        problem: `cannot have a member named ${described(member)}: member names are written into the path unescaped, so each must be letters, digits or - _ . ! ~ * ' ( )`,
      };
    if (!isScalar(inner))
      return {
        problem: `cannot be an object whose member ${described(member)} is ${shown(inner)}: each member is written into the path, so each must be ${WRITABLE}`,
      };
    const text = escaped(inner);
    if (text === undefined) return { problem: UNWRITABLE_SURROGATE };
    parts.push(member, text);
  }
  return { text: parts.join(",") };
}

/**
 * Why `value` cannot be a path parameter, or undefined when openapi-fetch writes it as one segment
 * that leaves the path as the template has it. Everything but an object's member names is escaped,
 * so a `/`, `?` or `#` in a value never reaches the path as such; what remains to refuse is a
 * segment of `""`, `.` or `..`, whatever its type, and a value that has no text of its own.
 */
export function pathSegmentProblem(value: unknown): string | undefined {
  const written = writtenText(value);
  if ("problem" in written) return written.problem;
  if (!SEGMENT_CHANGERS.has(written.text)) return undefined;
  return typeof value === "string"
    ? `cannot be ${described(value)}: it would change which path is requested`
    : `cannot be ${shown(value)} written into the path as ${JSON.stringify(written.text)}: it would change which path is requested`;
}
