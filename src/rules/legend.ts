// `legend`: a coded value expanded to words, from the spec, written inline, or looked up through a
// resolver at run time.

import type { LegendModel, Shape } from "./field.js";
import { refusedOnIds } from "./ids.js";
import { labelsOptions, undeclaredResolver } from "./join.js";
import type { Legend, ParseProblem, Rule, RuleProblem } from "./types.js";

export const LEGEND: Rule = {
  keys: ["legend"],
  docsRows: [
    ["`{ legend: spec }`", "code expanded with the spec's `x-enum-varnames`, `x-enumNames`, `x-enum-descriptions` or `oneOf` const/title"],
    ["`{ legend: { 1: low, 2: high } }`", "code expanded with words written here; every code of the spec's enum needs one"],
    ["`{ legend: { resolver: name } }`", "code expanded through a resolver at run time, batched like a join"],
  ],
  parse(written, problem) {
    if (written["legend"] === undefined) return {};
    const legend = parseLegend(written["legend"], ["legend"], problem);
    return legend ? { legend } : {};
  },
  check(rule, field, problem) {
    if (rule.legend === undefined) return;
    if (field.role === "relationship" || field.role === "join key") return refusedOnIds(field.role, "legend", problem);
    if (field.role !== "value") return;
    const { kind } = field;
    if (kind !== "integer" && kind !== "number" && kind !== "string")
      problem("PRJ029", `a legend applies to coded integers or strings, not ${kind ?? "this schema"}`, "remove `legend`", "legend");
    else if (rule.legend.source === "resolver") undeclaredResolver(rule.legend.resolver, "legend", field, problem);
  },
  value: {
    reads: (field) => field.legend !== undefined,
    // The words in the module constant, or the resolver's labels looked up.
    read(field, value, scope) {
      const legend = field.legend!;
      if (legend.kind === "static") return { reader: "legend", value, options: [["words", scope.constant]] };
      const codes: [string, string][] = legend.codes ? [["codes", scope.literal(legend.codes)]] : [];
      return { reader: "legendLookup", value, options: [...labelsOptions(scope, legend.resolver, field.out), ...codes] };
    },
    markers: () => ["unknown_code"],
    constant(field, scope) {
      if (field.legend?.kind !== "static") return undefined;
      const entries = field.legend.entries.map(([code, word]) => `[${scope.literal(code)}, ${scope.literal(word)}]`);
      return `const ${scope.constant} = new Map<unknown, ${scope.type(field.shape)}>([${entries.join(", ")}]);`;
    },
  },
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A legend as written at `at` (a field's or a tool input's `legend`). */
export function parseLegend(value: unknown, at: readonly (string | number)[], problem: ParseProblem): Legend | undefined {
  if (value === "spec") return { source: "spec" };
  if (isObject(value)) {
    if ("resolver" in value) {
      const resolver = value["resolver"];
      if (typeof resolver === "string" && resolver !== "" && Object.keys(value).length === 1) return { source: "resolver", resolver };
      problem(at, "a resolver legend is `{ resolver: NAME }` and nothing else", "write `legend: { resolver: statuses }`");
      return undefined;
    }
    const words: [string, string][] = [];
    for (const [code, word] of Object.entries(value)) {
      if (typeof word !== "string" || word === "") {
        problem([...at, code], `legend word for ${code} must be non-empty text`, "write `legend: { 1: low, 2: high }`");
        continue;
      }
      words.push([code, word]);
    }
    if (words.length === 0) problem(at, "an inline legend needs at least one code", "write `legend: { 1: low, 2: high }`");
    return { source: "inline", words };
  }
  problem(at, `cannot read ${JSON.stringify(value)} as a legend`, "a legend is `spec`, `{ 1: low, 2: high }`, or `{ resolver: NAME }`");
  return undefined;
}

export type Entries = [code: string | number, word: string][];

/** What a legend is checked against: the spec's enum, and the words the spec gives its codes. */
export interface Coded {
  /** The codes the spec's enum lists; none where it lists none. */
  codes: readonly unknown[];
  /** The type the spec declares for the codes, where it declares one. */
  kind?: string | undefined;
  /** Whether the codes are numbers. */
  numeric: boolean;
  /** The words the spec gives the codes, or undefined when it gives none. */
  specWords(): Entries | undefined;
  /** Why the spec's words fall short, where an extension names fewer codes than the enum has. */
  specWordsShort(): string | undefined;
}

/**
 * The legend checked against the field's enum: its model, or none where it is wrong (PRJ025 for a
 * spec legend the spec gives no words for, PRJ024 for a code missing or not a number); a code the
 * enum does not list is kept, with a warning at that code.
 */
export function legendModel(
  legend: Legend,
  coded: Coded,
  problem: RuleProblem,
  extraCode: (code: string) => void,
): LegendModel | undefined {
  if (legend.source === "resolver") {
    const { kind } = coded;
    return kind === "integer" || kind === "number" || kind === "string"
      ? { kind: "resolver", resolver: legend.resolver, codes: kind }
      : { kind: "resolver", resolver: legend.resolver };
  }
  let entries: Entries;
  if (legend.source === "spec") {
    const found = coded.specWords();
    if (!found) {
      problem(
        "PRJ025",
        `\`legend: spec\`, but ${coded.specWordsShort() ?? "the spec gives no words for this enum"}`,
        "the spec needs x-enum-varnames, x-enumNames, x-enum-descriptions or oneOf const/title; or write the legend inline: `legend: { 1: low, 2: high }`",
        "legend",
      );
      return undefined;
    }
    entries = found;
  } else {
    entries = [];
    for (const [code, word] of legend.words) {
      if (coded.numeric) {
        const value = Number(code);
        if (code.trim() === "" || !Number.isFinite(value))
          problem(
            "PRJ024",
            `legend code ${JSON.stringify(code)} is not a number, but the field is numeric`,
            "legend codes of a numeric field are numbers: `{ 1: low }`",
            "legend",
          );
        else entries.push([value, word]);
      } else entries.push([code, word]);
    }
  }
  const known = new Set(entries.map(([code]) => code));
  const missing = coded.codes.filter((value) => typeof value !== "boolean" && !known.has(value as string | number)) as (string | number)[];
  if (missing.length > 0)
    problem(
      "PRJ024",
      `the legend has no word for ${missing.map((c) => JSON.stringify(c)).join(", ")}, which the spec's enum lists`,
      `add ${missing.map((c) => `${c}: WORD`).join(", ")} to the legend`,
      "legend",
    );
  const declared = new Set<unknown>(coded.codes);
  if (coded.codes.length > 0) for (const [code] of entries) if (!declared.has(code)) extraCode(String(code));
  return { kind: "static", entries };
}

/** What a legend's reader gives: one of its words, or a resolver's label. */
export function legendShape(legend: LegendModel | undefined): Shape {
  return legend?.kind === "static" ? { type: "literal", values: [...new Set(legend.entries.map(([, word]) => word))] } : { type: "string" };
}
