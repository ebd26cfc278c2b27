// `max_chars`: a kept text cut to at most so many characters, the cut marked as the runtime marks
// the texts it cuts at its general bound (`… (N characters)`).

import type { Rule } from "./types.js";

/** The most characters `max_chars` may keep. */
export const MAX_CHARS_LIMIT = 10_000;

/** The keys that read the value as something other than text kept as it is. */
const OTHERWISE = ["format", "legend", "join", "argument", "shorten", "fact"] as const;

export const MAX_CHARS: Rule = {
  keys: ["max_chars"],
  docsRows: [
    [
      "`{ max_chars: 280 }`",
      "a text kept as it is, cut to at most that many characters (1 to 10000), the cut marked as the runtime marks the texts it cuts: `first 280 characters… (1532 characters)`, never inside a surrogate pair; the result schema stays a string with no `maxLength`, since the marked text is longer, and its description says so. Only on a spec `type: string` without an enum; never with `format`, `legend`, `join`, `argument` or `fact`",
    ],
  ],
  parse(written, problem) {
    const value = written["max_chars"];
    if (value === undefined) return {};
    if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_CHARS_LIMIT) return { max_chars: value };
    problem(
      ["max_chars"],
      `\`max_chars\` is a whole number of characters from 1 to ${MAX_CHARS_LIMIT}, not ${JSON.stringify(value)}`,
      "write `max_chars: 280`",
    );
    return {};
  },
  check(rule, field, problem) {
    if (rule.max_chars === undefined) return;
    const other = OTHERWISE.find((key) => rule[key] !== undefined);
    if (other !== undefined)
      problem(
        "PRJ029",
        `\`max_chars\` cuts a text kept as it is; \`${other}\` says otherwise`,
        `remove \`max_chars\`, or \`${other}\``,
        "max_chars",
      );
    else if (field.role === "value" && field.kind !== "string")
      problem("PRJ029", `\`max_chars\` applies to text, not ${field.kind ?? "this schema"}`, "remove `max_chars`", "max_chars");
    else if (field.role === "value" && field.enumerated())
      problem(
        "PRJ029",
        "`max_chars` applies to free text, and the spec lists this text's values (an enum)",
        "remove `max_chars`",
        "max_chars",
      );
  },
  value: {
    reads: (field) => field.maxChars !== undefined,
    read: (field, value) => ({ reader: "clippedString", value, options: [["most", String(field.maxChars)]] }),
  },
  // The result schema keeps no `maxLength`, since the marked text is longer than the most it keeps.
  note: (field) =>
    field.kind === "value" && field.maxChars !== undefined
      ? `Longer text is cut to its first ${field.maxChars} characters, followed by "… (N characters)" with its whole length.`
      : undefined,
};
