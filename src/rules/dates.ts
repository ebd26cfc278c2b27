// `format: date` and `format: datetime`: a point in time as the model reads it, in UTC. The runtime
// readers are templates/runtime/dates.ts.

import type { Format } from "./types.js";

/**
 * A date as projections write it. A pattern rather than `format: "date"`: a validator in strict
 * mode (ajv's) refuses to compile a format it was not given, and every consumer compiles a pattern.
 */
const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

const READS =
  "read from ISO 8601 text or from unix epoch seconds or milliseconds (integers where the spec declares an integer, or text of nine digits or more and nothing else): below 100,000,000,000 an epoch is seconds (up to the year 5138), from there on milliseconds (any time after March 1973); a value outside the years 0 to 9999 is marked unusable";

function dateFormat(
  name: "date" | "datetime",
  example: string,
  description: string,
  schema: Format["schema"],
  docsRow?: Format["docsRow"],
): Format<undefined> {
  return {
    name,
    keys: [],
    example: `\`${name}\` (${example})`,
    docsRow,
    parse: () => undefined,
    check: ({ kind }) =>
      kind === "string" || kind === "integer"
        ? undefined
        : {
            key: "format",
            message: `format ${name} applies to date-time strings or integer epoch timestamps, not ${kind ?? "this schema"}`,
            help: "remove `format`",
          },
    description: () => description,
    // Where the spec declares text, a number is a value it does not allow, never an epoch.
    read: (_options, _sibling, declared) => ({ reader: name, options: declared === "string" ? [["epochNumbers", "false"]] : [] }),
    schema,
  };
}

export const DATE_FORMATS = [
  dateFormat("date", "2026-02-11", "Date, YYYY-MM-DD, in UTC.", () => ({ type: "string", pattern: DATE_PATTERN }), [
    "`{ format: date }` / `{ format: datetime }`",
    `\`2026-02-11\` / \`2026-02-14T16:02Z\`, in UTC, ${READS}`,
  ]),
  dateFormat("datetime", "2026-02-14T16:02Z", "Date and time to the minute, YYYY-MM-DDTHH:MMZ, in UTC.", () => ({ type: "string" })),
];
