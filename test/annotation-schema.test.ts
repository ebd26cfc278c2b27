// The JSON Schema shipped for editors must accept every annotation the generator accepts, and
// reject the shapes it rejects.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/pipeline.js";

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(join(ROOT, "schema/projector.schema.json"), "utf8")),
);
const scenarios = readdirSync(join(ROOT, "specs/scenarios"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `specs/scenarios/${e.name}/projector.yaml`);

const withInput = (input: unknown) => ({
  spec: "a.yaml",
  output: "out",
  tools: { t: { operation: "o", inputs: { "page[size]": input } } },
});

/** The YAML blocks of a doc that are whole annotations, or `tools:` sections of one. */
const yamlBlocks = (doc: string) =>
  [...readFileSync(join(ROOT, doc), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => {
    const value = parse(m[1]!) as Record<string, unknown>;
    return "spec" in value ? value : { spec: "a.yaml", output: "out", ...value };
  });

describe("schema/projector.schema.json", () => {
  it.each(yamlBlocks("docs/annotation.md").map((block, i) => [i + 1, block] as const))(
    "accepts the annotation in docs/annotation.md's YAML block %i",
    (_, block) => {
      validate(block);
      expect(validate.errors ?? []).toEqual([]);
    },
  );

  it("accepts every kind of input entry", () => {
    for (const input of [
      { as: "size" },
      { drop: "never needed" },
      { fixed: 25 },
      { fixed: [1, 2] },
      { description: "d" },
      { legend: { 1: "open" } },
      {},
    ])
      expect(validate(withInput(input)), JSON.stringify(input)).toBe(true);
  });

  it.each(["projector.yaml", ...scenarios])("accepts %s", (file) => {
    const ok = validate(parse(readFileSync(join(ROOT, file), "utf8")));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each([
    ["an unknown top-level key", { spec: "a.yaml", output: "out", outptu: "x" }],
    ["a drop without a reason", { spec: "a.yaml", output: "out", resources: { t: { fields: { a: "drop" } } } }],
    ["an unknown format", { spec: "a.yaml", output: "out", resources: { t: { fields: { a: { format: "timestamp" } } } } }],
    ["a drop mixed with options", { spec: "a.yaml", output: "out", resources: { t: { fields: { a: { drop: "x", as: "b" } } } } }],
    ["a tool without an operation", { spec: "a.yaml", output: "out", tools: { t: { list: "rows" } } }],
    ["a resolver with a type but no label", { spec: "a.yaml", output: "out", resolvers: { users: { type: "user" } } }],
    ["a resolver with ids but no operation", { spec: "a.yaml", output: "out", resolvers: { users: { label: "name", ids: "filter[id]" } } }],
    [
      "a resolver with a max of 0",
      { spec: "a.yaml", output: "out", resolvers: { users: { label: "name", operation: "listUsers", ids: "ids", max: 0 } } },
    ],
    ["an input renamed to no argument name", withInput({ as: "page size" })],
    ["an input dropped without a reason", withInput({ drop: " " })],
    ["an input dropped and renamed", withInput({ drop: "x", as: "y" })],
    ["a fixed input with a description", withInput({ fixed: 25, description: "y" })],
    ["an input with an unknown option", withInput({ hide: true })],
    ["an input with an empty legend", withInput({ legend: {} })],
    ["an input that is not an object", withInput("status")],
  ])("rejects %s", (_, annotation) => {
    expect(validate(annotation)).toBe(false);
  });
});
