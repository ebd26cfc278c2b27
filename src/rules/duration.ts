// `format: duration` with `unit:`: a length of time in seconds or milliseconds, as the model reads it
// (`3725` as `"1h 2m 5s"`). The runtime reader is templates/runtime/duration.ts.

import { didYouMean } from "../suggest.js";
import type { Format } from "./types.js";

const UNITS = ["seconds", "milliseconds"] as const;
type Unit = (typeof UNITS)[number];

const isUnit = (unit: unknown): unit is Unit => UNITS.includes(unit as Unit);

export const DURATION: Format<Unit> = {
  name: "duration",
  keys: ["unit"],
  example: "`duration` with `unit:` (3725 seconds: 1h 2m 5s)",
  docsRow: [
    "`{ format: duration }` / `{ format: duration, unit: milliseconds }`",
    "`3725` as `1h 2m 5s`, `90061` as `1d 1h 1m 1s`, `0` as `0s`: a number of seconds (`unit: seconds`, the default) or milliseconds (Spotify's `duration_ms: 215000` as `3m 35s`) in days, hours, minutes and seconds, a part that is zero left out; what is left below a second is dropped. A value that is negative, above 2^53 − 1, or no finite number is marked unusable",
  ],
  parse(rule, problem) {
    const unit = rule["unit"] ?? "seconds";
    if (isUnit(unit)) return unit;
    problem(
      "unit",
      `unknown unit ${JSON.stringify(unit)}${didYouMean(String(unit), UNITS)}`,
      "write `unit: seconds` or `unit: milliseconds`",
    );
    return undefined;
  },
  check: ({ kind }) =>
    kind === "integer" || kind === "number"
      ? undefined
      : {
          key: "format",
          message: `format duration applies to numbers of seconds or milliseconds, not ${kind ?? "this schema"}`,
          help: "remove `format`",
        },
  description: () => "Duration in days, hours, minutes and seconds, e.g. 1h 2m 5s.",
  read: (unit) => ({ reader: "duration", options: [["unit", JSON.stringify(unit)]] }),
  schema: () => ({ type: "string", pattern: "^\\d+[dhms]( \\d+[hms])*$" }),
};
