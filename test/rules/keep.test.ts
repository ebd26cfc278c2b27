// `keep`: a value kept as it is, and what it must not carry.
import { describe, expect, it } from "vitest";
import { fieldSchema } from "../../src/emit/json-schema.js";
import { valueReading } from "../../src/rules/field-rules.js";
import { checkKeptWhole, KEEP } from "../../src/rules/keep.js";
import type { ValueField } from "../../src/rules/field.js";
import type { RuleProblem } from "../../src/rules/types.js";
import { checkProblems, facts, valueField, valueScope } from "./rule-checks.js";

const wholeProblems = (over: Partial<Parameters<typeof checkKeptWhole>[0]>) => {
  const found: [string, string, string][] = [];
  const problem: RuleProblem = (code, message, help) => found.push([code, message, help]);
  checkKeptWhole(
    { name: "a", list: false, carried: { ids: [], urls: [] }, numericCodes: undefined, specNamesCodes: () => false, ...over },
    problem,
  );
  return found;
};

describe("the keep rule", () => {
  it("refuses a relationship or an id kept as a plain value", () => {
    expect(checkProblems(KEEP, {}, facts({ name: "owner", role: "relationship" })).map(([code]) => code)).toEqual(["PRJ022"]);
    expect(checkProblems(KEEP, { join: "users" }, facts({ role: "relationship" }))).toEqual([]);
    expect(checkProblems(KEEP, {}, facts({ name: "owner_id", role: "id" }))).toEqual([
      ["PRJ022", "an id is kept only as an argument to a tool or as a join key"],
    ]);
  });

  it("refuses a credential kept, or a value kept whole that carries one, unless a fact says why it is no secret", () => {
    const own = facts({ name: "auth_token", credential: () => "auth_token" });
    expect(checkProblems(KEEP, {}, own)).toEqual([["PRJ034", "a credential, kept, would be shown to the model"]]);
    expect(checkProblems(KEEP, { as: "token" }, own).map(([code]) => code)).toEqual(["PRJ034"]);
    expect(checkProblems(KEEP, { fact: "the public embed token, printed on every page" }, own)).toEqual([]);
    const carried = facts({ name: "api_keys", credential: () => "api_keys[].value" });
    const found: string[] = [];
    KEEP.check!({ kind: "keep" }, carried, (code, message, help) => found.push(code, message, help));
    expect(found).toEqual([
      "PRJ034",
      "kept whole, this value would carry `api_keys[].value`, a credential, to the model",
      'classify its parts (`api_keys.value: { drop: "a credential, never shown to the model" }`, ...)',
    ]);
    expect(checkProblems(KEEP, {}, facts({ name: "token_type" }))).toEqual([]);
    // A fact vouches for the value it names, never for the parts of one kept whole.
    expect(checkProblems(KEEP, { fact: "labels only" }, carried).map(([code]) => code)).toEqual(["PRJ034"]);
  });

  it("refuses a credential joined to a name, whose id an unresolved marker would show", () => {
    expect(
      checkProblems(KEEP, { join: "keys" }, facts({ name: "secret_token", role: "join key", credential: () => "secret_token" })),
    ).toEqual([["PRJ034", "a credential, kept, would be shown to the model"]]);
  });

  it("lets embedded records that hold a credential be joined, since a join shows their name or id only", () => {
    const embedded = facts({ name: "integrations", role: "join key", credential: () => "integrations[].parameters.routing_key" });
    expect(checkProblems(KEEP, { join: "integrations" }, embedded)).toEqual([]);
    const keyRecord = facts({ name: "openai_api_key", role: "join key", kind: "object", credential: () => "openai_api_key" });
    expect(checkProblems(KEEP, { join: "openai_api_keys" }, keyRecord)).toEqual([]);
  });

  it("refuses the credential a part holds of a value named like one, though a fact vouches for the value", () => {
    const credentials = facts({ name: "credentials", credential: () => "credentials", carriedCredential: () => "credentials.password" });
    expect(checkProblems(KEEP, { fact: "names only" }, credentials)).toEqual([
      ["PRJ034", "kept whole, this value would carry `credentials.password`, a credential, to the model"],
    ]);
  });

  it("refuses a map whose values hold a credential, the map whole, since no name classifies its values", () => {
    const found: string[] = [];
    KEEP.check!({ kind: "keep" }, facts({ name: "settings", credential: () => "settings{}.api_key" }), (code, _message, help) =>
      found.push(code, help),
    );
    expect(found).toEqual(["PRJ034", 'write `settings: { drop: "holds credentials" }`']);
  });

  it("refuses a value kept whole that carries an id or a URL, naming the part to classify", () => {
    expect(wholeProblems({ name: "items", list: true, carried: { ids: ["items[].owner_id"], urls: ["items[].href"] } })).toEqual([
      [
        "PRJ022",
        "kept whole, this list would carry `items[].owner_id`, an opaque id",
        'join it to a name (`items: { join: RESOLVER }`), or classify its parts (`items.owner_id: { drop: "reason" }`, ...)',
      ],
      [
        "PRJ033",
        "kept whole, this list would carry `items[].href`, a URL the model cannot open",
        'classify its parts (`items.href: { drop: "a link the model cannot open" }`, ...)',
      ],
    ]);
  });

  it("refuses integer codes without words, pointing at the spec's where it has them", () => {
    expect(wholeProblems({ numericCodes: [1, 2] })[0]![2]).toBe("write the words: `a: { legend: { 1: WORD, 2: WORD } }`");
    expect(wholeProblems({ numericCodes: [1, 2], specNamesCodes: () => true })[0]![2]).toBe(
      "the spec names the codes: write `a: { legend: spec }`",
    );
  });
});

describe("a value kept as it is", () => {
  const reading = KEEP.value!;
  const read = (shape: ValueField["shape"]) => reading.read(valueField({ shape }), "v", valueScope);

  it("is read by the reader of its type, an enum's member against the constant of its members", () => {
    expect(read({ type: "boolean" })).toEqual({ reader: "boolean", value: "v", options: [] });
    const status = valueField({ shape: { type: "literal", values: ["open", "closed"] } });
    expect(reading.read(status, "v", valueScope)).toEqual({
      reader: "member",
      typeArgument: '"open" | "closed"',
      value: "v",
      options: [["allowed", "A"]],
    });
    expect(reading.constant!(status, valueScope)).toBe('const A = new Set<unknown>(["open", "closed"]);');
    expect(fieldSchema(status).anyOf).toEqual([
      { enum: ["open", "closed"] },
      { type: "null" },
      { $ref: "#/$defs/unknown_code" },
      { $ref: "#/$defs/unusable" },
    ]);
  });

  it("is checked whole against its result schema, which one module constant holds for both", () => {
    const tags = valueField({ shape: { type: "array", items: { type: "string" } } });
    expect(reading.read(tags, "v", valueScope)).toEqual({
      reader: "whole",
      typeArgument: "Array<string>",
      value: "v",
      options: [["schema", "A"]],
    });
    expect(reading.sharesSchema!(tags)).toBe(true);
    expect(reading.sharesSchema!(valueField())).toBe(false);
    expect(reading.constant!(tags, valueScope)).toBeUndefined();
  });

  it("is read by keep only where no other rule reads it", () => {
    expect(valueReading(valueField())).toBe(reading);
    expect(valueReading(valueField({ argumentOf: ["get_a"], format: { name: "date", options: undefined } }))).not.toBe(reading);
  });
});
