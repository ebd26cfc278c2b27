// `fact`: a value named like an id that people read and say (an inbox's `ticket_id`), or like a
// credential that holds no secret, kept as it is.

import { textAt } from "./written.js";
import type { Rule } from "./types.js";

/** The keys that would make a fact something other than the value as it is. */
const OTHERWISE = ["join", "argument", "shorten", "legend"] as const;

export const FACT: Rule = {
  keys: ["fact"],
  docsRows: [
    [
      '`{ fact: "people quote ticket numbers" }`',
      "a value named like an id that people read and say (an inbox's `ticket_id`), or like a credential that holds no secret, kept as it is; takes `as`, never `join`, `argument` or `legend`",
    ],
  ],
  parse(written, problem) {
    const fact = textAt(written, "fact", problem, ["`fact` needs its reason", 'write `{ fact: "people quote ticket numbers" }`'], true);
    return fact === undefined ? {} : { fact };
  },
  check(rule, _field, problem) {
    if (rule.fact === undefined) return;
    for (const key of OTHERWISE)
      if (rule[key] !== undefined)
        problem("PRJ029", `a fact is kept as it is; \`${key}\` says otherwise`, `remove \`${key}\`, or the \`fact\``, key);
  },
};
