// A response's page fields and records: an absent path is absent, one blocked by a non-object is marked.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { at, pageValue, present, rows } from "../../templates/runtime/pages.js";

describe("pages", () => {
  it.each([
    ["https://api/next", true],
    ["", false],
    [null, false],
    [undefined, false],
    [0, true],
  ])("present(%j) is %s", (value, expected) => {
    expect(present(value)).toBe(expected);
  });

  it("reads a dotted path, own keys only", () => {
    expect(at({ meta: { page: { total: 3 } } }, ["meta", "page", "total"])).toBe(3);
    expect(at({ meta: "x" }, ["meta", "page"])).toBeUndefined();
    expect(at({}, ["constructor"])).toBeUndefined();
  });

  it("marks a page value whose path is blocked by something that is not an object", () => {
    const ctx = context("search_tickets", {});
    expect(pageValue({ meta: { total: 3 } }, ["meta", "total"], ctx, "total", (v) => v)).toBe(3);
    expect(pageValue({ meta: "x" }, ["meta", "total"], ctx, "total", (v) => v)).toEqual({
      unusable: "expected an object at meta, got string",
    });
    expect(pageValue({}, ["meta", "total"], ctx, "total", (v) => v ?? null)).toBeNull();
  });

  it("finds the records, reporting a list that is something else", () => {
    const issues: ProjectionIssue[] = [];
    const onIssue = (issue: ProjectionIssue) => issues.push(issue);
    expect(rows({ data: [1, 2] }, ["data"], "search_tickets", onIssue)).toEqual([1, 2]);
    expect(rows({ data: { id: 1 } }, ["data"], "search_tickets", onIssue)).toEqual([]);
    expect(rows({ data: null }, ["data"], "search_tickets", onIssue)).toEqual([]);
    expect(rows("x", ["data"], "search_tickets", onIssue)).toEqual([]);
    expect(issues.map((i) => i.message)).toEqual([
      "search_tickets: expected a list at data, got object",
      "search_tickets: expected an object at the top, got string",
    ]);
  });
});
