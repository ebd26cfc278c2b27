// What a relationship and a join key refuse of the rules that rewrite a value: they are ids, read
// as names or as arguments.

import type { FieldRole, RuleProblem } from "./types.js";

/** `key` written on a relationship or a join key, which it does not apply to. */
export function refusedOnIds(role: FieldRole, key: string, problem: RuleProblem): void {
  if (role === "relationship")
    problem("PRJ029", `\`${key}\` does not apply to a relationship`, "a relationship is joined to a name or kept as an argument id", key);
  else if (role === "join key")
    problem(
      "PRJ029",
      `\`${key}\` does not apply to a join key`,
      "a join key becomes the resolver's label; with `argument: [tool]` its id is kept beside it too",
      key,
    );
}
