// `join: resolver`: a relationship or a foreign key (an id, an embedded record, or a list of either)
// named through a resolver.

import { didYouMean } from "../suggest.js";
import type { Rule, RuleProblem, SpecFacts } from "./types.js";

export const JOIN: Rule = {
  keys: ["join"],
  docsRows: [
    [
      "`{ join: resolver }`",
      'a relationship or foreign key (an id, an embedded record such as `{ "gid": "12345", "name": "Greg Sanchez" }`, or a list of either) resolved to a name: the one the embedded record carries under the resolver\'s `label`, else the resolver\'s; to-many gives an array',
    ],
  ],
  parse(written, problem) {
    const join = written["join"];
    if (join === undefined) return {};
    if (typeof join === "string" && join !== "") return { join };
    problem(["join"], "`join` must name a resolver", "write `join: users` with a resolver declared under resolvers");
    return {};
  },
  check(rule, field, problem) {
    if (rule.join !== undefined && (field.role === "relationship" || field.role === "join key"))
      undeclaredResolver(rule.join, "join", field, problem);
  },
};

/** A resolver named at `key` (`join`, `legend`) that the annotation does not declare. */
export function undeclaredResolver(resolver: string, key: "join" | "legend", field: SpecFacts, problem: RuleProblem): void {
  if (field.resolvers.includes(resolver)) return;
  const example =
    key === "legend"
      ? `\`${resolver}: {}\``
      : `\`${resolver}: { type: user, label: name }\` (or \`${resolver}: { label: name, id: gid }\` for plain REST)`;
  problem(
    "PRJ026",
    `resolver "${resolver}" is not declared${didYouMean(resolver, field.resolvers)}`,
    `declare it under \`resolvers:\`, e.g. ${example}`,
    key,
  );
}
