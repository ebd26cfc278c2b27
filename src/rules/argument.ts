// `argument: [tools]` with `shorten`: an id the model can pass to those tools, whole or in short form.

import { refusedOnIds } from "./ids.js";
import type { Rule } from "./types.js";

export const ARGUMENT: Rule = {
  keys: ["argument", "shorten"],
  docsRows: [
    [
      "`{ argument: [tools], shorten: true }`",
      "an id the model can pass to those tools; `shorten` cuts a long opaque id (`tkt_9f3a71c4-2d18-…` to `tkt_9f3a71c4`, `ch_3KpXb2Lkd9cQ2Tfa1B5e7LmN` to `ch_3KpXb2Lk`; the rule is below), longer where two ids in one result would collide",
    ],
  ],
  parse(written, problem) {
    const parsed: { argument?: string[]; shorten?: boolean } = {};
    const argument = written["argument"];
    if (argument !== undefined) {
      const tools = typeof argument === "string" ? [argument] : argument;
      if (Array.isArray(tools) && tools.every((tool) => typeof tool === "string" && tool !== "")) parsed.argument = tools as string[];
      else problem(["argument"], "`argument` must list the tools that take this id", "write `argument: [get_ticket, add_comment]`");
    }
    const shorten = written["shorten"];
    if (shorten !== undefined) {
      if (typeof shorten === "boolean") parsed.shorten = shorten;
      else problem(["shorten"], "`shorten` must be true or false", "write `shorten: true`");
    }
    return parsed;
  },
  check(rule, field, problem) {
    if (field.role === "relationship" || field.role === "join key") {
      // Beside `argument`, a relationship's or a join key's id is kept, and may be shortened.
      if (rule.shorten !== undefined && !rule.argument) refusedOnIds(field.role, "shorten", problem);
      if (field.role === "join key" && rule.shorten && rule.argument && field.joinedIdKind() === "integer")
        problem("PRJ029", "`shorten` applies to string ids only, and this join key's ids are integers", "remove `shorten`", "shorten");
      return;
    }
    if (field.role !== "value") return;
    if (rule.shorten && !rule.argument)
      problem("PRJ029", "`shorten` applies to argument ids only", "add `argument: [tool]` or remove `shorten`", "shorten");
    if (rule.shorten && field.kind !== "string") problem("PRJ029", "`shorten` applies to string ids only", "remove `shorten`", "shorten");
  },
};
