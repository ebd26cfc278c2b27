import { describe, expect, it } from "vitest";
import { refSites } from "../src/openapi/refs.js";

describe("refSites", () => {
  it("lists every $ref in document order, array places as numbers, an object reached twice once", () => {
    const shared = { $ref: "#/components/schemas/Shared" };
    const document = {
      paths: { "/a": { get: { parameters: [{ name: "x" }, { $ref: "#/components/parameters/P" }, shared] } } },
      components: { schemas: { A: { allOf: [shared, { $ref: "other.yaml#/B" }] }, Shared: { type: "object" } } },
    };
    const sites = refSites({ "/specs/api.yaml": document });
    expect(sites.map((site) => [site.ref, site.target.href, site.path()])).toEqual([
      ["#/components/parameters/P", "file:///specs/api.yaml#/components/parameters/P", ["paths", "/a", "get", "parameters", 1]],
      ["#/components/schemas/Shared", "file:///specs/api.yaml#/components/schemas/Shared", ["paths", "/a", "get", "parameters", 2]],
      ["other.yaml#/B", "file:///specs/other.yaml#/B", ["components", "schemas", "A", "allOf", 1]],
    ]);
  });
});
