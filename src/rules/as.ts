// `as`: a kept field under another name; on a dotted path, the part lifted to the top of the result.

import { textAt } from "./written.js";
import type { Rule } from "./types.js";

export const AS: Rule = {
  keys: ["as"],
  docsRows: [
    ["`{ as: name }`", "kept under another name"],
    [
      "`source.author.name: { as: author }`",
      '`as` on a dotted path lifts the part to the top of the result (`"author": "…"`); inside the items of a list it renames the part within each item; two fields lifted to one name are refused',
    ],
  ],
  parse(written, problem) {
    const as = textAt(written, "as", problem, ["`as` must be a non-empty name", "write the output name, e.g. `as: status`"]);
    return as === undefined ? {} : { as };
  },
};
