// A record and its parts: what is not an object is reported or marked, absent parts are null.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { lifted, nested, objects, recordObject, section } from "../../templates/runtime/records.js";

function recorder() {
  const issues: ProjectionIssue[] = [];
  return { issues, ctx: context("ticket", { onIssue: (issue) => issues.push(issue) }) };
}

describe("records", () => {
  it("reports a record that is not an object", () => {
    const { issues, ctx } = recorder();
    expect(recordObject({ id: "t1" }, ctx)).toEqual({ id: "t1" });
    expect(recordObject([1], ctx)).toBeUndefined();
    expect(issues.map((i) => i.message)).toEqual(["ticket: the record is array, not an object"]);
  });

  it("reports a JSON:API section that is there but not an object, null too; an absent one is no issue", () => {
    const { issues, ctx } = recorder();
    expect(section("x", "attributes", ctx)?.["subject"]).toBeUndefined();
    expect(section(null, "relationships", ctx)).toBeUndefined();
    expect(section(undefined, "relationships", ctx)).toBeUndefined();
    expect(issues.map((i) => i.message)).toEqual([
      "ticket.attributes: expected an object, got string",
      "ticket.relationships: expected an object, got null",
    ]);
  });

  it("builds a nested object, and marks one that is not", () => {
    const { issues, ctx } = recorder();
    expect(nested({ city: "Porto" }, { field: "address", required: false, ctx }, (o) => o["city"])).toBe("Porto");
    expect(nested(null, { field: "address", required: true, ctx }, () => 1)).toBeNull();
    expect(nested(5, { field: "address", required: false, ctx }, () => 1)).toEqual({ unusable: "expected an object, got number" });
    expect(issues.map((i) => i.kind)).toEqual(["missing", "unusable"]);
  });

  it("builds each object of a list: null stays null, anything else is marked at its index", () => {
    const { issues, ctx } = recorder();
    expect(objects([{ n: 1 }, null, "x"], { field: "lines", required: false, ctx }, (o) => o["n"])).toEqual([
      1,
      null,
      { unusable: "expected an object, got string" },
    ]);
    expect(objects({}, { field: "lines", required: false, ctx }, () => 1)).toEqual({ unusable: "expected a list of objects, got object" });
    expect(issues.map((i) => i.field)).toEqual(["lines[2]", "lines"]);
  });

  it("lifts a part through objects on its way: absent on the way is null, anything else is marked", () => {
    const { ctx } = recorder();
    const name = (root: Record<string, unknown>) => lifted(root, { path: ["source", "author", "name"], field: "author", ctx }, (v) => v);
    expect(name({ source: { author: { name: "Ana" } } })).toBe("Ana");
    expect(name({ source: { author: null } })).toBeNull();
    expect(name({ source: { author: "Ana" } })).toEqual({ unusable: "source.author is string, not an object" });
  });
});
