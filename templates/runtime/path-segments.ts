// Path parameters as openapi-fetch writes them into the URL, and the values that would change which path is requested.

import { described } from "./quoting.js";

/** Segments that change which path is requested: `..` climbs, `.` and the empty one drop a segment. */
const SEGMENT_CHANGERS = new Set(["", ".", ".."]);

/** What a server may read as the end of a segment: `/` (once `%2F` is decoded), `\` (IIS, Windows) and NUL (where C and PHP stop). */
const SEGMENT_BREAKS = /[/\\\u0000]/;

/**
 * The characters a server may trim from a value, as a regular expression's class: whitespace as
 * JavaScript and Unicode count it (U+0085 is only Unicode's, U+FEFF only JavaScript's) and as
 * servers besides do: .NET's `Trim`, Python's `strip` (U+001C to U+001F too), Java's `trim` (every
 * control below the space), and U+180E, whitespace before Unicode 6.3.
 */
export const TRIMMED_BY_SERVERS = "\\s\\p{White_Space}\\p{Cc}\\u180E";

/** Anything but a dot or what a server trims: a piece with a dot and none of these is `..`, `.` or nothing once IIS and Windows trim it. */
const NOT_DOT_OR_SPACE = new RegExp(`[^${TRIMMED_BY_SERVERS}.]`, "u");

/** Text of nothing but what a server trims, `/` and `\`: a segment that the servers above read as empty, or as no segment at all. */
const NOTHING = new RegExp(`^[${TRIMMED_BY_SERVERS}/\\\\]*$`, "u");

/**
 * Characters Windows' best-fit conversion to a legacy code page writes as `/` or `\` that Unicode
 * compatibility folding (NFKC) leaves alone: the division, fraction and big solidus, the set minus
 * and reverse solidus operators, and the yen and won signs that code pages 932 and 949 put where
 * ASCII has its backslash.
 */
const BEST_FIT_BREAKS = /[\u2215\u2044\u29F8\u2216\u29F5\u29F9\u00A5\u20A9]/g;

/**
 * `received` as the most lenient server reads it: compatibility forms folded (`．．`, `﹒`, `․`, `‥`
 * and `／`, `＼` become ASCII dots and slashes, as an NFKC-normalizing framework or Windows' best-fit
 * conversion makes them), and the best-fit slashes NFKC keeps as `/`.
 */
const folded = (received: string): string =>
  received.normalize("NFKC").replace(BEST_FIT_BREAKS, "/");

/**
 * Whether the most lenient of the servers behind an API could read `arrived` (a segment as it
 * arrives, its escapes decoded) as a change of path: C and PHP back ends stop at its first NUL, IIS
 * and Windows read `\` as `/` and drop a segment's trailing spaces and dots, some servers decode
 * `%2F` into `/` before routing, and frameworks that normalize text to NFKC, or Windows' best-fit
 * conversion, read `．．` as `..` and `¥` as `\`. So `..\u0000`, `..\`, `.. `, `...`, `a/../..`,
 * `\u0000x`, `．．` and `..¥x` change the path; `v1.2`, `.env`, `...x`, `x..` and `a/b` stay where
 * the template puts them (a server decoding `%2F` reads `a/b` as two segments, but neither climbs
 * nor drops one).
 */
function changesPathWhenFolded(arrived: string): boolean {
  const received = folded(arrived);
  const uptoNul = received.split("\u0000", 1)[0]!;
  return (
    NOTHING.test(uptoNul) ||
    received
      .split(SEGMENT_BREAKS)
      .some((piece) => piece.includes(".") && !NOT_DOT_OR_SPACE.test(piece))
  );
}

const CHANGES_PATH = "it would change which path is requested";

const CHANGES_PATH_WHEN_FOLDED =
  'servers may read it as a "..", "." or empty segment, which would change which path is requested';

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
 * that leaves the path as the template has it, however the server folds it. Everything but an
 * object's member names is escaped, so a `/`, `?` or `#` in a value never reaches the path as such;
 * what remains to refuse is a value that has no text of its own, and text a server may read as a
 * segment of `""`, `.` or `..`. That is judged on the written text with its escapes decoded, what
 * the server has once it decodes the segment: for a scalar the value itself, for an array or an
 * object its items (and member names) joined with commas, so `["a", ".."]` (read `a,..`) stays one
 * segment and `["a\\.."]` (read `a\..`) does not.
 */
export function pathSegmentProblem(value: unknown): string | undefined {
  const written = writtenText(value);
  if ("problem" in written) return written.problem;
  const reason = SEGMENT_CHANGERS.has(written.text)
    ? CHANGES_PATH
    : changesPathWhenFolded(decodeURIComponent(written.text))
      ? CHANGES_PATH_WHEN_FOLDED
      : undefined;
  if (reason === undefined) return undefined;
  return typeof value === "string"
    ? `cannot be ${described(value)}: ${reason}`
    : `cannot be ${shown(value)} written into the path as ${described(written.text)}: ${reason}`;
}
