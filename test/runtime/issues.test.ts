// What a projection reports: a missing promised value, an unusable one, with bounded values.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { absent, issueValue, report, unusable } from "../../templates/runtime/issues.js";

function recorder() {
  const issues: ProjectionIssue[] = [];
  return { issues, ctx: context("ticket", { onIssue: (issue) => issues.push(issue) }) };
}

describe("issues", () => {
  it("reports a required value that is missing, and nothing for an optional one", () => {
    const { issues, ctx } = recorder();
    expect(absent(ctx, "subject", null, true)).toBeNull();
    expect(absent(ctx, "sla_due_at", undefined, false)).toBeNull();
    expect(issues).toEqual([
      {
        kind: "missing",
        resource: "ticket",
        field: "subject",
        value: null,
        message: "ticket.subject: the spec promises a value, the record has null",
      },
    ]);
  });

  it("marks an unusable value and reports why", () => {
    const { issues, ctx } = recorder();
    expect(unusable(ctx, "priority", [1], "expected a code, got array")).toEqual({ unusable: "expected a code, got array" });
    expect(issues).toEqual([
      { kind: "unusable", resource: "ticket", field: "priority", value: "array", message: "ticket.priority: expected a code, got array" },
    ]);
  });

  it("names the resolver only when there is one, and reports nothing without onIssue", () => {
    const { issues, ctx } = recorder();
    report(ctx, "unresolved", "assignee", "usr_1", "m", "users");
    report(ctx, "missing", "subject", undefined, "n");
    expect(issues.map((issue) => "resolver" in issue)).toEqual([true, false]);
    expect(() => report(context("ticket", {}), "missing", "subject", undefined, "n")).not.toThrow();
  });

  it.each([
    [{ internal_notes: "secret" }, "object"],
    [["a"], "array"],
    ["z".repeat(201), `${"z".repeat(200)}… (201 characters)`],
    [7, 7],
    [null, null],
    [() => 1, "function"],
  ])("bounds the value %j as %j", (value, shown) => {
    expect(issueValue(value)).toEqual(shown);
  });
});
