import { describe, expect, it } from "vitest";
import { MAX_NESTING, refSites } from "../src/openapi/refs.js";

describe("refSites", () => {
  it("lists every $ref in document order, array places as numbers, an object reached twice once", () => {
    const shared = { $ref: "#/components/schemas/Shared" };
    const document = {
      paths: { "/a": { get: { parameters: [{ name: "x" }, { $ref: "#/components/parameters/P" }, shared] } } },
      components: { schemas: { A: { allOf: [shared, { $ref: "other.yaml#/B" }] }, Shared: { type: "object" } } },
    };
    const { sites, tooDeep } = refSites({ "/specs/api.yaml": document });
    expect(tooDeep).toBeUndefined();
    expect(sites.map((site) => [site.ref, site.target.href, site.path()])).toEqual([
      ["#/components/parameters/P", "file:///specs/api.yaml#/components/parameters/P", ["paths", "/a", "get", "parameters", 1]],
      ["#/components/schemas/Shared", "file:///specs/api.yaml#/components/schemas/Shared", ["paths", "/a", "get", "parameters", 2]],
      ["other.yaml#/B", "file:///specs/other.yaml#/B", ["components", "schemas", "A", "allOf", 1]],
    ]);
  });

  it("says where a document first nests deeper than MAX_NESTING, and goes no deeper", () => {
    let deep: object = { type: "string" };
    for (let i = 0; i < 5000; i++) deep = { properties: { d: deep } };
    const { tooDeep } = refSites({ "/specs/api.json": { components: { schemas: { Deep: deep } } } });
    expect(tooDeep?.document).toBe("/specs/api.json");
    expect(tooDeep?.path).toHaveLength(MAX_NESTING + 1);
    expect(tooDeep?.path.slice(0, 5)).toEqual(["components", "schemas", "Deep", "properties", "d"]);
  });
});
