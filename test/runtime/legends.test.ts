// Coded values: a known code becomes its word, an unknown one a marker keeping the code, a non-code unusable.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { OPTIONAL, REQUIRED } from "../../templates/runtime/issues.js";
import { legend, legendLookup, member } from "../../templates/runtime/legends.js";

const issues: ProjectionIssue[] = [];
const ctx = context("ticket", { onIssue: (issue) => issues.push(issue) });
const PRIORITY = new Map<unknown, string>([
  [1, "low"],
  [2, "high"],
]);

describe("legends", () => {
  it.each([
    [1, "low"],
    [9, { unknown_code: 9 }],
    ["2", { unknown_code: "2" }],
    [true, { unknown_code: "true" }],
    [{ code: 1 }, { unusable: "expected a code, got object" }],
    [Number.POSITIVE_INFINITY, { unusable: "expected a code, got Infinity" }],
    ["c".repeat(65), { unusable: "expected a code, got a string of 65 characters" }],
    [null, null],
  ])("legend reads %j as %j", (value, expected) => {
    expect(legend(value, PRIORITY, ctx, "priority", OPTIONAL)).toEqual(expected);
  });

  it("reports an unknown code with the code quoted", () => {
    issues.length = 0;
    legend(9, PRIORITY, ctx, "priority", REQUIRED);
    expect(issues).toEqual([
      { kind: "unknown_code", resource: "ticket", field: "priority", value: 9, message: "ticket.priority: no word for code 9" },
    ]);
  });

  it("keeps an enum's own values and marks others", () => {
    const allowed = new Set<unknown>(["open", "closed"]);
    expect(member("open", allowed, ctx, "status", OPTIONAL)).toBe("open");
    expect(member("lost", allowed, ctx, "status", OPTIONAL)).toEqual({ unknown_code: "lost" });
  });

  it("looks a code up in the resolver's labels, naming the resolver when it has none", () => {
    issues.length = 0;
    const labels = new Map([["7", "Europe"]]);
    expect(legendLookup(7, labels, "regions", ctx, "region", OPTIONAL, "region")).toBe("Europe");
    expect(legendLookup(8, labels, "regions", ctx, "region", OPTIONAL, "region")).toEqual({ unknown_code: 8 });
    expect(issues[0]?.resolver).toBe("regions");
  });
});
