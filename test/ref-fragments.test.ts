// A `$ref` is a URI fragment, percent-encoded: the bundler writes one into a templated path as
// `#/paths/~1v2~1droplets~1%7Bdroplet_id%7D/...` (DigitalOcean's 2,900 files). Read undecoded, it named
// nothing and the record it led to had no fields at all.
import { describe, expect, it } from "vitest";
import { SchemaReader } from "../src/openapi/schema.js";

const droplet = { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } };
const document = {
  paths: {
    "/v2/droplets/{droplet_id}": {
      get: { responses: { "200": { content: { "application/json": { schema: { properties: { droplet } } } } } } },
    },
    "/v2/droplets": {
      get: {
        responses: {
          "200": {
            content: {
              "application/json": {
                schema: {
                  properties: {
                    droplets: {
                      type: "array",
                      items: {
                        $ref: "#/paths/~1v2~1droplets~1%7Bdroplet_id%7D/get/responses/200/content/application~1json/schema/properties/droplet",
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

describe("a $ref into a templated path", () => {
  it("is percent-decoded before it is read as a JSON pointer", () => {
    const reader = new SchemaReader(document);
    const list = reader.pointer("/paths/~1v2~1droplets/get/responses/200/content/application~1json/schema")!;
    const items = reader.items(reader.property(list, "droplets")!.at)!;
    expect(reader.properties(items).map((p) => p.name)).toEqual(["id", "name"]);
    expect(reader.kind(reader.property(items, "id")!.at)).toBe("integer");
  });

  it("keeps a fragment that is not valid percent-encoding as written", () => {
    const reader = new SchemaReader({ components: { schemas: { "100%": droplet } }, ref: { $ref: "#/components/schemas/100%" } });
    expect(reader.properties({ schema: { $ref: "#/components/schemas/100%" }, pointer: "/ref" }).map((p) => p.name)).toEqual([
      "id",
      "name",
    ]);
  });
});
