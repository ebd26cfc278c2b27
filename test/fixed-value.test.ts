// A tool input's `fixed:` value against the parameter's schema (PRJ070): what fits, and the one reason what does not.
import { describe, expect, it } from "vitest";
import { fixedValueProblem } from "../src/model/fixed-value.js";

describe("fixedValueProblem", () => {
  it.each([
    [{ type: "integer", minimum: 1, maximum: 100 }, 50],
    [{ type: "string", enum: ["open", "closed"] }, "open"],
    [{ type: ["string", "null"] }, null],
    [{ type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 2 }, ["a", "b"]],
    [{ type: "string", pattern: "^[a-z]+$" }, "abc"],
    [{ type: "string", pattern: "(?<unreadable" }, "anything"],
    [{ anyOf: [{ type: "integer" }, { type: "string", const: "all" }] }, "all"],
    [{ type: "object" }, { a: 1 }],
    [{}, "no schema, no complaint"],
  ])("accepts what %j allows: %j", (schema, value) => {
    expect(fixedValueProblem(value, schema)).toBeUndefined();
  });

  it.each([
    [{ type: "integer" }, 2.5, "it must be a whole number, not 2.5"],
    [{ type: "string" }, 20, 'it must be text, not 20 (quote it: "20")'],
    [{ type: "integer", enum: [1, 2, 3] }, 4, "it is 4, not one of the spec's values (1, 2, 3)"],
    [{ type: "integer", minimum: 1 }, 0, "it is 0, below the minimum 1"],
    [{ type: "integer", maximum: 100 }, 500, "it is 500, above the maximum 100"],
    [{ type: "number", exclusiveMinimum: 0 }, 0, "it must be above 0"],
    [{ type: "string", const: "v2" }, "v1", 'it must be "v2"'],
    [{ type: "string", minLength: 3 }, "ab", "it is shorter than 3 characters"],
    [{ type: "string", maxLength: 2 }, "abc", "it is longer than 2 characters"],
    [{ type: "string", pattern: "^[a-z]+$" }, "ABC", "it does not match the pattern ^[a-z]+$"],
    [{ type: "array", items: { type: "string", enum: ["a", "b"] } }, ["a", "c"], 'item 2 is "c", not one of the spec\'s values ("a", "b")'],
    [{ type: "array", minItems: 1 }, [], "it has fewer than 1 items"],
    [{ anyOf: [{ type: "integer" }, { type: "boolean" }] }, "x", "it fits none of the spec's alternatives"],
  ])("refuses for %j the value %j: %s", (schema, value, problem) => {
    expect(fixedValueProblem(value, schema)).toBe(problem);
  });
});
