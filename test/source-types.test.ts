// openapi-typescript's types of the spec, as generate writes them: property names an object inherits
// (`valueOf`, `constructor`) travel through openapi-typescript under a placeholder and come back in
// the printed types; a spec without such names is printed as openapi-typescript printed it.
import { describe, expect, it } from "vitest";
import { forSourceTypes, sourceTypes } from "../src/emit/source-types.js";
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

describe("forSourceTypes", () => {
  const example = { summary: "one", value: { id: "1" } };
  const mediaType = (extra: JsonObject = {}) => ({ schema: { $ref: "#/components/schemas/Thing" }, examples: { one: example }, ...extra });
  const withPaths = (content: JsonObject, components: JsonObject = {}): JsonObject => ({
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: { "/things": { get: { responses: { "200": { description: "ok", content: { "application/json": content } } } } } },
    components: { schemas: { Thing: { type: "object", properties: { examples: { type: "string" } } } }, ...components },
  });
  const content = (document: unknown) =>
    (document as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, JsonObject> }> } }> }).paths[
      "/things"
    ]!.get.responses["200"]!.content["application/json"]!;

  it("leaves maps of examples out, and a property named examples in", () => {
    const { document } = forSourceTypes(withPaths(mediaType(), { examples: { shared: example } }));
    expect(content(document)).toEqual({ schema: { $ref: "#/components/schemas/Thing" } });
    expect((document as { components: JsonObject }).components).toEqual({
      schemas: { Thing: { type: "object", properties: { examples: { type: "string" } } } },
    });
  });

  it.each([
    [
      "a $ref elsewhere leads into them",
      withPaths(mediaType({ example: { $ref: "#/components/examples/shared" } }), { examples: { shared: example } }),
    ],
    [
      "a percent-encoded $ref leads into them",
      withPaths(mediaType({ example: { $ref: "#/components/%65xamples/shared" } }), { examples: { shared: example } }),
    ],
    ["they are not Example Objects", withPaths({ schema: { type: "string" }, examples: { one: { schema: { type: "string" } } } })],
  ])("keeps them when %s", (_name, spec) => {
    const { document } = forSourceTypes(spec);
    expect(JSON.stringify(document)).toContain('"examples":');
  });

  it("leaves an operation's code samples out, and keeps them where a $ref leads into them", () => {
    const sample = { lang: "curl", source: "curl https://example.com/things" };
    const spec = (extra: JsonObject): JsonObject => {
      const document = withPaths({ schema: { type: "string" } });
      const get = (document["paths"] as Record<string, { get: JsonObject }>)["/things"]!.get;
      Object.assign(get, { "x-codeSamples": [sample] }, extra);
      return document;
    };
    expect(JSON.stringify(forSourceTypes(spec({})).document)).not.toContain("x-codeSamples");
    const kept = (document: unknown) => (document as { paths: Record<string, { get: JsonObject }> }).paths["/things"]!.get;
    // A $ref inside what is left out goes with it; one elsewhere keeps it in.
    const within = spec({ "x-code-samples": [{ $ref: "#/paths/~1things/get/x-codeSamples/0" }] });
    expect(Object.keys(kept(forSourceTypes(within).document))).not.toContain("x-codeSamples");
    const elsewhere = spec({ "x-first-sample": { $ref: "#/paths/~1things/get/x-codeSamples/0" } });
    expect(Object.keys(kept(forSourceTypes(elsewhere).document))).toContain("x-codeSamples");
  });

  it("tells examples and operations by where they stand, not by their keys", () => {
    const spec = withPaths(mediaType(), {
      schemas: {
        // A schema named `examples` that looks like a map of examples, beside one named `content`.
        content: { type: "string" },
        examples: { properties: { value: { type: "string" }, summary: { type: "string" } } },
        // A schema with the keys of an operation.
        get: { type: "object", responses: {}, "x-codeSamples": [] },
      },
      parameters: { limit: { name: "limit", in: "query", schema: { type: "integer" }, examples: { ten: { value: 10 } } } },
    });
    const { components } = forSourceTypes(spec).document as { components: Record<string, JsonObject> };
    expect(Object.keys(components["schemas"]!)).toEqual(["content", "examples", "get"]);
    expect(components["schemas"]!["get"]).toHaveProperty("x-codeSamples");
    expect(components["parameters"]!["limit"]).not.toHaveProperty("examples");
  });

  it("types a spec with examples as the same spec without them", async () => {
    const spec = withPaths(mediaType({ example: { id: "2" } }), { examples: { shared: example } });
    const bare = structuredClone(spec);
    delete content(bare)["examples"];
    delete (bare["components"] as JsonObject)["examples"];
    expect(await sourceTypes(spec, "spec.yaml")).toBe(await sourceTypes(bare, "spec.yaml"));
  });
});
