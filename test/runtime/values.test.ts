// Plain values as the spec declares them; anything else is a marker, absence is null.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { boolean, integer, number, string, whole } from "../../templates/runtime/values.js";

const issues: ProjectionIssue[] = [];
const ctx = context("ticket", { onIssue: (issue) => issues.push(issue) });

describe("values", () => {
  it.each([
    [string, "open", "open"],
    [string, 3, { unusable: "expected a string, got number" }],
    [number, 2.5, 2.5],
    [number, Number.POSITIVE_INFINITY, { unusable: "expected a number, got Infinity" }],
    [number, "2", { unusable: "expected a number, got string" }],
    [integer, 2, 2],
    [integer, 2.5, { unusable: "expected an integer, got number" }],
    [integer, Number.NaN, { unusable: "expected an integer, got NaN" }],
    [boolean, false, false],
    [boolean, "false", { unusable: "expected true or false, got string" }],
    [string, null, null],
    [integer, undefined, null],
  ] as const)("%o reads %j as %j", (reader, value, expected) => {
    expect(reader(value, { field: "field", required: false, ctx })).toEqual(expected);
  });

  it("reports a required value that is absent", () => {
    issues.length = 0;
    expect(number(undefined, { field: "count", required: true, ctx })).toBeNull();
    expect(issues.map((i) => i.kind)).toEqual(["missing"]);
  });

  it("keeps a whole value trimmed to its schema, and marks one that does not fit", () => {
    const schema = {
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" } }, note: { anyOf: [{ type: "string" }, { type: "null" }] } },
    } as const;
    expect(whole({ tags: ["a"], note: null, internal: "x" }, { schema, field: "meta", required: false, ctx })).toEqual({
      tags: ["a"],
      note: null,
    });
    expect(whole({ tags: ["a", 2] }, { schema, field: "meta", required: false, ctx })).toEqual({
      unusable: "tags[1]: expected a string, got number",
    });
    expect(whole("x", { schema: { enum: ["y"] }, field: "meta", required: false, ctx })).toEqual({
      unusable: 'expected one of ["y"], got string',
    });
  });
});
