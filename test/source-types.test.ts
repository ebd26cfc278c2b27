// openapi-typescript's types of the spec, as generate writes them: property names an object inherits
// (`valueOf`, `constructor`) travel through openapi-typescript under a placeholder and come back in
// the printed types; a spec without such names is printed as openapi-typescript printed it.
import { describe, expect, it } from "vitest";
import { sourceTypes } from "../src/emit/source-types.js";
import type { JsonObject } from "../src/openapi/schema.js";

const spec = (properties: JsonObject, required: string[]): JsonObject => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {},
  components: { schemas: { Thing: { type: "object", properties, required } } },
});

describe("sourceTypes", () => {
  it.each([
    { names: ["valueOf", "name"], required: ["valueOf"], expected: ["valueOf: string;", "name?: string;"] },
    { names: ["constructor", "toString"], required: [], expected: ["constructor?: string;", "toString?: string;"] },
    { names: ["id", "name"], required: ["id"], expected: ["id: string;", "name?: string;"] },
  ])("types $names with their own names", async ({ names, required, expected }) => {
    const properties = Object.fromEntries(names.map((name) => [name, { type: "string" }]));
    const types = await sourceTypes(spec(properties, required), "spec.yaml");
    for (const line of expected) expect(types).toContain(line);
    expect(types).not.toContain("__projector_inherited_");
  });
});
