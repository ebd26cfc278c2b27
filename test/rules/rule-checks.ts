import { literal, typeOfShape } from "../../src/emit/ts.js";
import type { ValueField } from "../../src/rules/field.js";
import type { KeepRule, Rule, SpecFacts, ValueScope } from "../../src/rules/types.js";

/** A field as the rules' checks see it: a string value named `a`, unless told otherwise. */
export function facts(over: Partial<SpecFacts> = {}): SpecFacts {
  return {
    name: "a",
    role: "value",
    kind: "string",
    sibling: () => "absent",
    resolvers: ["users"],
    joinedIdKind: () => "string",
    enumerated: () => false,
    credential: () => undefined,
    secretExample: () => undefined,
    carriedCredential: () => undefined,
    ...over,
  };
}

/** What `rule` finds wrong with a kept field's rule written `written`, as [code, message, key]. */
export function checkProblems(rule: Rule, written: Omit<KeepRule, "kind">, field: SpecFacts = facts()): [string, string, string?][] {
  const found: [string, string, string?][] = [];
  rule.check?.({ kind: "keep", ...written }, field, (code, message, _help, key) =>
    found.push(key === undefined ? [code, message] : [code, message, key]),
  );
  return found;
}

/** Where a problem is, as [line, column] of the annotation written by fieldProblems (its first field on line 6). */
export const place = (d: { location: { line?: number; column?: number } }) => [d.location.line, d.location.column];

/** A kept value as the model holds it: a required string named `a`, unless told otherwise. */
export const valueField = (over: Partial<ValueField> = {}): ValueField => ({
  kind: "value",
  out: "a",
  name: "a",
  source: { base: "record", path: ["a"] },
  shape: { type: "string" },
  shorten: false,
  required: true,
  ...over,
});

/** A reading's scope as the resource emitter gives it, the runtime's names as they are and the field's constant `A`. */
export const valueScope: ValueScope = {
  runtime: (name) => name,
  literal,
  constant: "A",
  type: typeOfShape,
  sibling: (path) => `root?.${path.join("?.")}`,
};
