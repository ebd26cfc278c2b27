// `legend`: coded values expanded to words.
import { describe, expect, it } from "vitest";
import { fieldSchema } from "../../src/emit/json-schema.js";
import { LEGEND, legendModel, type Coded } from "../../src/rules/legend.js";
import type { LegendModel } from "../../src/rules/field.js";
import type { Legend } from "../../src/rules/types.js";
import { fieldProblems } from "./field-problems.js";
import { checkProblems, facts, valueField, valueScope } from "./rule-checks.js";

const model = (legend: Legend, coded: Partial<Coded>) => {
  const problems: [string, string][] = [];
  const extra: string[] = [];
  const built = legendModel(
    legend,
    { codes: [1, 2], numeric: true, specWords: () => undefined, specWordsShort: () => undefined, ...coded },
    (code, message) => problems.push([code, message]),
    (code) => extra.push(code),
  );
  return { built, problems, extra };
};

describe("the legend rule", () => {
  it("reads spec, inline words, or a resolver; a bad word is refused at its code", () => {
    expect(LEGEND.parse!({ legend: { 1: "low" } }, () => undefined)).toEqual({ legend: { source: "inline", words: [["1", "low"]] } });
    expect(LEGEND.parse!({ legend: { resolver: "statuses" } }, () => undefined)).toEqual({
      legend: { source: "resolver", resolver: "statuses" },
    });
    const [bad] = fieldProblems('      a: { legend: { 1: "" } }\n');
    expect(bad!.message).toBe("legend word for 1 must be non-empty text");
    expect(bad!.location.column).toBe(25);
  });

  it("applies to coded integers and strings, through a declared resolver, never to ids", () => {
    expect(checkProblems(LEGEND, { legend: { source: "spec" } }, facts({ kind: "boolean" }))).toEqual([
      ["PRJ029", "a legend applies to coded integers or strings, not boolean", "legend"],
    ]);
    expect(
      checkProblems(LEGEND, { legend: { source: "resolver", resolver: "user" } }, facts()).map(([code, message]) => [code, message]),
    ).toEqual([["PRJ026", 'resolver "user" is not declared (did you mean "users"?)']]);
    expect(checkProblems(LEGEND, { legend: { source: "spec" } }, facts({ role: "join key" }))).toEqual([
      ["PRJ029", "`legend` does not apply to a join key", "legend"],
    ]);
  });

  it("needs a word for every code the enum lists, and warns of a code it does not", () => {
    const words: Legend = {
      source: "inline",
      words: [
        ["1", "low"],
        ["3", "high"],
        ["x", "odd"],
      ],
    };
    const { built, problems, extra } = model(words, {});
    expect(problems).toEqual([
      ["PRJ024", 'legend code "x" is not a number, but the field is numeric'],
      ["PRJ024", "the legend has no word for 2, which the spec's enum lists"],
    ]);
    expect(extra).toEqual(["3"]);
    expect(built).toEqual({
      kind: "static",
      entries: [
        [1, "low"],
        [3, "high"],
      ],
    });
    expect(model({ source: "spec" }, { specWordsShort: () => "x-enumNames names 1 of the enum's 2 codes" }).problems).toEqual([
      ["PRJ025", "`legend: spec`, but x-enumNames names 1 of the enum's 2 codes"],
    ]);
  });

  it("reads a static legend through its words' constant, and a resolver's through the lookups", () => {
    const field = {
      kind: "value" as const,
      out: "status",
      name: "status_code",
      source: { base: "record" as const, path: ["status_code"] },
    };
    const read = (legend: LegendModel) =>
      LEGEND.value!.read({ ...field, shape: { type: "string" }, shorten: false, required: true, legend }, "v", {
        ...valueScope,
        constant: "TICKET_STATUS",
      });
    expect(read({ kind: "static", entries: [[1, "open"]] })).toEqual({
      reader: "legend",
      value: "v",
      options: [["words", "TICKET_STATUS"]],
    });
    expect(read({ kind: "resolver", resolver: "statuses" }).options).toEqual([
      ["labels", "lookups.statuses"],
      ["resolver", '"statuses"'],
      ["key", '"status"'],
    ]);
  });
});

describe("a value expanded by its legend", () => {
  const coded = valueField({
    shape: { type: "literal", values: ["low", "high"] },
    legend: {
      kind: "static",
      entries: [
        [1, "low"],
        [2, "high"],
      ],
    },
  });

  it("declares its words, by code, in the module constant its reader reads", () => {
    expect(LEGEND.value!.constant!(coded, valueScope)).toBe('const A = new Map<unknown, "low" | "high">([[1, "low"], [2, "high"]]);');
    expect(LEGEND.value!.constant!({ ...coded, legend: { kind: "resolver", resolver: "statuses" } }, valueScope)).toBeUndefined();
  });

  it("is one of its words in the result, or the marker of a code it has no word for", () => {
    expect(fieldSchema(coded)).toEqual({
      anyOf: [{ enum: ["low", "high"] }, { type: "null" }, { $ref: "#/$defs/unknown_code" }, { $ref: "#/$defs/unusable" }],
    });
    const looked = { ...coded, shape: { type: "string" as const }, legend: { kind: "resolver" as const, resolver: "statuses" } };
    expect(fieldSchema(looked).anyOf).toEqual([
      { type: "string" },
      { type: "null" },
      { $ref: "#/$defs/unknown_code" },
      { $ref: "#/$defs/unusable" },
    ]);
  });
});
