// What the rules reading ids share: what a relationship and a join key refuse of the rules that
// rewrite a value (they are ids, read as names or as arguments), and how their ids are read.

import type { JoinField, RelatedIdField } from "./field.js";
import type { CallScope, FieldRole, RuleProblem } from "./types.js";

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

/** A reader's `ids` option: the id type the spec declares for the ids it reads, text only, integers, or text or numbers. */
export const idsOption = (scope: CallScope, field: { textIds: boolean; integerIds?: true }): [string, string] => [
  "ids",
  scope.runtime(field.textIds ? "TEXT_IDS" : field.integerIds ? "INTEGER_IDS" : "TEXT_OR_NUMBER_IDS"),
];

/** The ids a relationship holds, read as the spec declares them: their id type, and the types their records may have. */
export function relationshipIds(scope: CallScope, field: JoinField | RelatedIdField, value: string): string {
  const types: [string, string][] = field.linkageTypes === undefined ? [] : [["types", scope.literal(field.linkageTypes)]];
  const options = [idsOption(scope, field), ...types].map(([name, code]) => `${name}: ${code}`);
  return `${scope.runtime("relationshipIds")}(${value}, { ${options.join(", ")} })`;
}
