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

describe("schema/projector.schema.json", () => {
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
  ])("rejects %s", (_, annotation) => {
    expect(validate(annotation)).toBe(false);
  });
});
