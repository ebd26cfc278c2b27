// Every field rule, each one module holding all of it (the keys it reads, their parse, its checks,
// its docs rows, what it gives the emitters; what it adds to the model's field beside it). Parse, the
// model's checks and the emitters iterate these lists instead of naming each rule.

import { ARGUMENT } from "./argument.js";
import { AS } from "./as.js";
import { DETAIL } from "./detail.js";
import { DROP } from "./drop.js";
import { FACT } from "./fact.js";
import { FORMAT, FORMAT_KEYS } from "./format.js";
import { HANDLE } from "./handle.js";
import { JOIN } from "./join.js";
import { KEEP } from "./keep.js";
import { LEGEND } from "./legend.js";
import { MAX_CHARS } from "./max-chars.js";
import type { Field, ValueField } from "./field.js";
import type { KeepRule, ParseProblem, Rule, RuleProblem, SendCondition, SpecFacts, ValueReading } from "./types.js";

/** Every field rule: a field's rule is checked in this order, and its keys listed in it. */
export const RULES: readonly Rule[] = [KEEP, AS, FORMAT, LEGEND, JOIN, ARGUMENT, FACT, HANDLE, DETAIL, MAX_CHARS, DROP];

/** The keys of a kept field's rule. */
export const KEEP_KEYS: readonly string[] = RULES.filter((rule) => rule !== DROP).flatMap((rule) => rule.keys);

/** Every key a field's rule may have, a format's own keys (money's `currency`) last. */
export const RULE_KEYS: readonly string[] = [...KEEP_KEYS, ...DROP.keys, ...FORMAT_KEYS];

/** A kept field's rule as written, each rule reading its keys. */
export function parseKept(written: Readonly<Record<string, unknown>>, problem: ParseProblem): KeepRule {
  const rule: KeepRule = { kind: "keep" };
  for (const each of RULES) Object.assign(rule, each.parse?.(written, problem));
  return rule;
}

/** What each rule finds wrong with a kept field's rule on this field of the spec. */
export function checkKept(rule: KeepRule, field: SpecFacts, problem: RuleProblem): void {
  for (const each of RULES) each.check?.(rule, field, problem);
}

/** The rules that read a kept value, in the order they are asked: `argument` first, `keep` by the value's shape last. */
export const VALUE_RULES: readonly Rule[] = [ARGUMENT, FORMAT, LEGEND, MAX_CHARS, KEEP];

/** How a kept value is read: by the first rule of {@link VALUE_RULES} that reads it. */
export const valueReading = (field: ValueField): ValueReading => VALUE_RULES.find((rule) => rule.value!.reads(field))!.value!;

/** The condition of the call a field is sent on, from the rule that sends it only then; undefined for a field always sent. */
export const sendCondition = (field: Field): SendCondition | undefined => RULES.find((rule) => rule.sentWhen?.applies(field))?.sentWhen;
