// `as`: a kept field under another name.
import { describe, expect, it } from "vitest";
import { parseKept } from "../../src/rules/field-rules.js";
import { fieldProblems } from "./field-problems.js";
import { place } from "./rule-checks.js";

describe("the as rule", () => {
  it("reads the output name", () => {
    expect(parseKept({ as: "status" }, () => undefined)).toEqual({ kind: "keep", as: "status" });
  });

  it("refuses an empty name at the key's value", () => {
    const problems = fieldProblems('      status_code: { as: "" }\n');
    expect(problems.map((d) => [d.code, d.message, d.help])).toEqual([
      ["PRJ002", "`as` must be a non-empty name", "write the output name, e.g. `as: status`"],
    ]);
    expect(place(problems[0]!)).toEqual([6, 26]);
  });
});
