// Reading a key of a field's rule as written.

import type { ParseProblem } from "./types.js";

/**
 * The text at `key` of a rule as written, undefined where it is absent; text that is empty (or, with
 * `trimmed`, blank) or no text is refused at the key's value with `message` and `help`.
 */
export function textAt(
  written: Readonly<Record<string, unknown>>,
  key: string,
  problem: ParseProblem,
  [message, help]: readonly [message: string, help: string],
  trimmed = false,
): string | undefined {
  const value = written[key];
  if (value === undefined) return undefined;
  if (typeof value === "string" && (trimmed ? value.trim() : value) !== "") return value;
  problem([key], message, help);
  return undefined;
}
