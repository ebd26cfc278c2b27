// Lengths of time, sent as a number of seconds or milliseconds, written in days, hours, minutes and seconds.

import type { ValueRead } from "./context.js";
import { absent, unusable } from "./issues.js";
import type { Unusable } from "./markers.js";
import { typeName } from "./quoting.js";
import { PAST_2_53 } from "./values.js";

/** Each part of a duration, largest first: its letter and its length in seconds. */
const PARTS: readonly (readonly [letter: string, seconds: number])[] = [
  ["d", 86_400],
  ["h", 3_600],
  ["m", 60],
  ["s", 1],
];

/**
 * `3725` seconds as `"1h 2m 5s"`, `215000` milliseconds as `"3m 35s"`, `0` as `"0s"`: a part that
 * is zero is left out, and what is left below a second is dropped. A value that is negative, above
 * 2^53 − 1 (where a number no longer counts every second), or no finite number is marked unusable.
 */
export function duration(
  value: unknown,
  {
    unit,
    ctx,
    field,
    required,
  }: ValueRead & { readonly unit: "seconds" | "milliseconds" },
): string | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  if (Number.isInteger(value) && !Number.isSafeInteger(value))
    return unusable(ctx, field, value, PAST_2_53);
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < 0 ||
    value > Number.MAX_SAFE_INTEGER
  )
    return unusable(
      ctx,
      field,
      value,
      `expected a number of ${unit} from 0 to 2^53 - 1, got ${typeof value === "number" ? String(value) : typeName(value)}`,
    );
  let left = Math.floor(unit === "milliseconds" ? value / 1000 : value);
  const written: string[] = [];
  for (const [letter, seconds] of PARTS) {
    const count = Math.floor(left / seconds);
    left -= count * seconds;
    if (count > 0) written.push(`${count}${letter}`);
  }
  return written.length === 0 ? "0s" : written.join(" ");
}
