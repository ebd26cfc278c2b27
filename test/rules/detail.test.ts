// `detail: full`: a field sent only when the tool is called with detail: "full".
import { describe, expect, it } from "vitest";
import { DETAIL, detailOnPart } from "../../src/rules/detail.js";
import { fieldProblems } from "./field-problems.js";

describe("the detail rule", () => {
  it("reads `full`, and nothing else", () => {
    expect(DETAIL.parse!({ detail: "full" }, () => undefined)).toEqual({ detail: "full" });
    expect(fieldProblems("      body: { detail: summary }\n").map((d) => [d.message, d.location.column])).toEqual([
      ['`detail` is `full`, not "summary"', 23],
    ]);
  });

  it("says why a part inside an object cannot be sent only in full", () => {
    expect(detailOnPart("author")).toEqual({
      message: "`detail` applies to a field at the top of the result, and this one is a part of `author`",
      help: "lift the part to the top with `as`, or remove `detail`",
    });
  });
});
