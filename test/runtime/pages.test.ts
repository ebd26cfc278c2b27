// A response's page fields: an absent path is absent, one blocked by a non-object is marked.
import { describe, expect, it } from "vitest";
import { context } from "../../templates/runtime/context.js";
import { at, pageValue, present } from "../../templates/runtime/pages.js";

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
    expect(pageValue({ meta: { total: 3 } }, { path: ["meta", "total"], field: "total", ctx }, (v) => v)).toBe(3);
    expect(pageValue({ meta: "x" }, { path: ["meta", "total"], field: "total", ctx }, (v) => v)).toEqual({
      unusable: "expected an object at meta, got string",
    });
    expect(pageValue({}, { path: ["meta", "total"], field: "total", ctx }, (v) => v ?? null)).toBeNull();
  });
});
