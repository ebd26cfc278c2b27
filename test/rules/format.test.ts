// The format rule's registry is what the annotation schema, the docs and the parser know of formats.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fieldSchema } from "../../src/emit/json-schema.js";
import { FORMAT, FORMATS } from "../../src/rules/format.js";
import { summarize } from "../../src/summary.js";
import { generateFrom, ROOT } from "../helpers/pipeline.js";
import { fieldProblems } from "./field-problems.js";
import { valueField, valueScope } from "./rule-checks.js";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The rows of a Markdown table, as their cells with the padding trimmed. */
const tableRows = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("| "))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );

describe("the format rule's registry", () => {
  it("is the list of formats the annotation's JSON Schema takes", () => {
    const schema = read("schema/projector.schema.json");
    const keep = JSON.parse(schema).$defs.field.oneOf.find(
      (rule: { properties?: object }) => rule.properties && "format" in rule.properties,
    );
    expect(keep.properties.format.enum).toEqual(FORMATS.map((format) => format.name));
    for (const key of FORMATS.flatMap((format) => format.keys)) expect(keep.properties).toHaveProperty(key);
  });

  it.each(["docs/annotation.md", "README.md"])("gives each format's row of the field rules' table in %s", (doc) => {
    const rows = tableRows(read(doc));
    for (const format of FORMATS) if (format.docsRow) expect(rows).toContainEqual([...format.docsRow]);
  });

  it("names every format when a field's format is none of them", () => {
    expect(fieldProblems("      a: { format: timestamp }\n").map((d) => d.help)).toEqual([
      `format is ${FORMATS.map((f) => f.example)
        .join(", ")
        .replace(/, ([^,]*)$/, " or $1")}`,
    ]);
  });

  it("names a field's format in generate's summary", async () => {
    const { model } = await generateFrom(join(ROOT, "specs/scenarios/money/projector.yaml"));
    const summary = summarize(model!);
    expect(summary).toMatch(/amount +formatted as money\n/);
    expect(summary).not.toContain("[object Object]");
  });
});

describe("a formatted value", () => {
  const amount = valueField({ description: "Amount.", format: { name: "money", options: { path: ["currency"] } } });

  it("is read by its format's reader, given the value beside it that the format names", () => {
    expect(FORMAT.value!.read(amount, 'root?.["amount"]', valueScope)).toEqual({
      reader: "money",
      value: 'root?.["amount"]',
      options: [["currency", "root?.currency"]],
    });
  });

  it("is text in the result, of its format's schema, with no code marker", () => {
    expect(FORMAT.value!.type!(amount)).toBe("string");
    expect(fieldSchema(amount)).toEqual({
      anyOf: [{ type: "string", pattern: "^-?\\d+(\\.\\d+)? [A-Z]{3}$" }, { type: "null" }, { $ref: "#/$defs/unusable" }],
      description: "Amount.",
    });
  });
});
