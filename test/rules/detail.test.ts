// `detail: full`: a field sent only when the tool is called with detail: "full".
import { describe, expect, it } from "vitest";
import { fieldSchema, objectSchema } from "../../src/emit/json-schema.js";
import { DETAIL, detailOnPart } from "../../src/rules/detail.js";
import { valueField } from "./rule-checks.js";
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

describe("a field sent only in full detail", () => {
  it("says so in its description, after the spec's, whatever the field is", () => {
    expect(DETAIL.note!(valueField())).toBeUndefined();
    expect(fieldSchema(valueField({ description: "The body.", detail: "full" })).description).toBe(
      'The body. Sent only when the tool is called with detail: "full".',
    );
    const join = {
      kind: "join" as const,
      out: "assignee",
      name: "assignee",
      source: { base: "relationships" as const, path: ["assignee"] },
      detail: "full" as const,
      resolver: "users",
      many: false,
      via: "relationship" as const,
      keys: { id: "id" },
      textIds: true,
    };
    expect(fieldSchema(join).description).toBe('Sent only when the tool is called with detail: "full".');
  });

  it("is optional in the result's schema and tested once by the projection, as the rule gives it", () => {
    const schema = objectSchema([valueField({ out: "title" }), valueField({ out: "body", name: "body", detail: "full" })]);
    expect(schema["required"]).toEqual(["title"]);
    const condition = DETAIL.sentWhen!;
    expect(condition.applies(valueField({ detail: "full" }))).toBe(true);
    expect(condition.applies(valueField())).toBe(false);
    expect([condition.local, condition.test]).toEqual(["full", 'options.detail === "full"']);
  });
});
