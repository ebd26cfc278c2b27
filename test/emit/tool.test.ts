// A tool's projection reads as the article's hand-written one: the runtime calls that wrap it name
// what they are given, so a generated diff shows which setting changed (`expectedIds: 0` becoming
// `expectedIds: records.length` when a field starts to be shortened), not a bare number.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/pipeline.js";

const SCENARIOS = readdirSync(join(ROOT, "specs/scenarios"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
const FOLDERS = [
  join(ROOT, "generated/support/tools"),
  ...SCENARIOS.map((entry) => join(ROOT, "specs/scenarios", entry.name, "generated/tools")),
];

describe("a generated tool's projection", () => {
  const files = FOLDERS.filter((folder) => existsSync(folder)).flatMap((folder) => readdirSync(folder).map((file) => join(folder, file)));

  it("is found in the example and in every scenario", () => {
    expect(FOLDERS.filter((folder) => existsSync(folder) && readdirSync(folder).length > 0)).toEqual(FOLDERS);
  });

  it.each(files.map((file) => [file.slice(ROOT.length + 1), file]))("%s names what its runtime calls are given", (_name, file) => {
    const text = readFileSync(file, "utf8");
    const calls = [...text.matchAll(/\b(withDistinctShortIds|projectInOneWalk)\(\s*(\S)/g)];
    expect(calls.length).toBe(1);
    expect(calls[0]![2], "settings given as an object literal").toBe("{");
    expect(text).toMatch(/\bexpectedIds: (0|records\.length( \* \d+)?)[,\s]/);
  });
});
