// The field rules' registry is what the annotation's JSON Schema, the docs and the parser know of
// field rules: a rule added to it, and only then, is written down everywhere.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ARGUMENT } from "../../src/rules/argument.js";
import { DROP } from "../../src/rules/drop.js";
import { KEEP_KEYS, RULE_KEYS, RULES, VALUE_RULES, valueReading } from "../../src/rules/field-rules.js";
import { FORMAT, FORMAT_KEYS } from "../../src/rules/format.js";
import { KEEP } from "../../src/rules/keep.js";
import { LEGEND } from "../../src/rules/legend.js";
import { ROOT } from "../helpers/pipeline.js";
import { fieldProblems } from "./field-problems.js";
import { valueField } from "./rule-checks.js";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The rows of the Markdown table whose header's first cell is `first`, as their cells with the padding trimmed. */
function table(text: string, first: string): string[][] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^\\| ${first} +\\|`).test(line));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("| ")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const docsRows = RULES.flatMap((rule) => rule.docsRows.map((row) => [...row]));

describe("the field rules' registry", () => {
  it("gives exactly the rows of the field rules' table in docs/annotation.md", () => {
    expect(table(read("docs/annotation.md"), "rule")).toEqual(expect.arrayContaining(docsRows));
    expect(table(read("docs/annotation.md"), "rule")).toHaveLength(docsRows.length);
  });

  it("gives every rule the README's table shows", () => {
    const written = docsRows.map(([rule]) => rule);
    for (const [rule] of table(read("README.md"), "rule")) expect(written).toContain(rule);
  });

  it("reads exactly the keys the annotation's JSON Schema takes in a field's rule", () => {
    const branches = JSON.parse(read("schema/projector.schema.json")).$defs.field.oneOf as { properties?: object; required?: string[] }[];
    const kept = branches.find((branch) => branch.properties && "as" in branch.properties)!;
    expect(Object.keys(kept.properties!).sort()).toEqual([...KEEP_KEYS, ...FORMAT_KEYS].sort());
    const drop = branches.find((branch) => branch.required?.includes("drop"))!;
    expect(Object.keys(drop.properties!)).toEqual([...DROP.keys]);
    expect(RULE_KEYS).toEqual([...KEEP_KEYS, "drop", ...FORMAT_KEYS]);
  });

  it("lists every key of a kept field's rule when a key is none of them", () => {
    const [unknown] = fieldProblems("      a: { legned: spec }\n");
    expect(unknown!.help).toBe(`allowed here: ${RULE_KEYS.join(", ")}`);
    expect(fieldProblems("      a: 7\n")[0]!.help).toBe(
      'a field is `keep`, `{ drop: "reason" }`, or an object with as, format, legend, join, argument, shorten, fact, id_as, detail, max_chars',
    );
  });
});

describe("the rules that read a kept value", () => {
  it("are asked in turn, an argument id read as one whatever its format or legend", () => {
    const date = { name: "date", options: undefined };
    const words = { kind: "resolver" as const, resolver: "statuses" };
    expect(valueReading(valueField({ argumentOf: ["get_a"], format: date, legend: words }))).toBe(ARGUMENT.value);
    expect(valueReading(valueField({ format: date }))).toBe(FORMAT.value);
    expect(valueReading(valueField({ legend: words }))).toBe(LEGEND.value);
    expect(VALUE_RULES.at(-1)).toBe(KEEP);
  });
});
