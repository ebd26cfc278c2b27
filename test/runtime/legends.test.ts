// Coded values: a known code becomes its word, an unknown one a marker keeping the code, a non-code unusable.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
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
    ["2", { unusable: "expected an integer code, got string" }],
    [true, { unusable: "expected an integer code, got boolean" }],
    [{ code: 1 }, { unusable: "expected an integer code, got object" }],
    [Number.POSITIVE_INFINITY, { unusable: "expected a code, got Infinity" }],
    [null, null],
  ])("legend reads %j as %j", (value, expected) => {
    expect(legend(value, { words: PRIORITY, field: "priority", required: false, ctx })).toEqual(expected);
  });

  it("reports an unknown code with the code quoted", () => {
    issues.length = 0;
    legend(9, { words: PRIORITY, field: "priority", required: true, ctx });
    expect(issues).toEqual([
      { kind: "unknown_code", resource: "ticket", field: "priority", value: 9, message: "ticket.priority: no word for code 9" },
    ]);
  });

  it("keeps an enum's own values and marks others", () => {
    const allowed = new Set<unknown>(["open", "closed"]);
    expect(member("open", { allowed, field: "status", required: false, ctx })).toBe("open");
    expect(member("lost", { allowed, field: "status", required: false, ctx })).toEqual({ unknown_code: "lost" });
  });

  it("looks a code up in the resolver's labels, naming the resolver when it has none", () => {
    issues.length = 0;
    const labels = new Map([["7", "Europe"]]);
    expect(legendLookup(7, { labels, resolver: "regions", key: "region", field: "region", required: false, ctx })).toBe("Europe");
    expect(legendLookup(8, { labels, resolver: "regions", key: "region", field: "region", required: false, ctx })).toEqual({
      unknown_code: 8,
    });
    expect(issues[0]?.resolver).toBe("regions");
  });
});
