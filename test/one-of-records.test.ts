// Plain-REST records declared as a `oneOf` (found on real specs): PagerDuty's "a reference, or the full
// record with include[]", and Box's folder entries that are files, folders or web links.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../src/annotation/parse.js";
import { buildModel } from "../src/model/build.js";
import type { ValueField } from "../src/model/types.js";
import type { LoadedSpec } from "../src/openapi/load.js";
import type { JsonObject } from "../src/openapi/schema.js";
import { cli, tempDir } from "./helpers/pipeline.js";

const reference = {
  type: "object",
  properties: { id: { type: "string" }, type: { type: "string" }, summary: { type: "string" }, self: { type: "string", format: "uri" } },
};
const service = {
  type: "object",
  properties: { id: { type: "string" }, name: { type: "string" }, html_url: { type: "string", format: "uri" } },
};
const entry = (kind: string, extra: JsonObject = {}) => ({
  type: "object",
  properties: { id: { type: "string" }, type: { type: "string", enum: [kind] }, name: { type: "string" }, ...extra },
});

const document: JsonObject = {
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/incidents": {
      get: {
        operationId: "listIncidents",
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: { type: "object", properties: { incidents: { type: "array", items: { $ref: "#/components/schemas/Incident" } } } },
              },
            },
          },
        },
      },
    },
    "/folders/{id}/items": {
      get: {
        operationId: "listItems",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    entries: {
                      type: "array",
                      items: { oneOf: [{ $ref: "#/components/schemas/File" }, { $ref: "#/components/schemas/Folder" }] },
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
  components: {
    schemas: {
      Reference: reference,
      Service: service,
      Incident: {
        type: "object",
        properties: {
          id: { type: "string" },
          title: { type: "string" },
          service: { oneOf: [{ $ref: "#/components/schemas/Reference" }, { $ref: "#/components/schemas/Service" }] },
        },
      },
      File: entry("file", { size: { type: "integer" } }),
      Folder: entry("folder"),
    },
  },
};
const spec: LoadedSpec = { file: "spec.json", document, locate: (pointer) => ({ file: "spec.json", pointer }) };

function build(annotation: string) {
  const { model, diagnostics } = buildModel(parseAnnotation(annotation, "projector.yaml"), spec);
  return { model, errors: diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`) };
}

const incidents = (fields: string) =>
  `spec: spec.json\noutput: out\nresolvers:\n  services: { label: summary }\nresources:\n  incident:\n    schema: Incident\n    fields:\n      id: { drop: "x" }\n      title: keep\n${fields}tools:\n  list_incidents:\n    operation: listIncidents\n    list: incidents\n`;

describe("a oneOf of a reference and the full record", () => {
  it("is refused kept whole, since either branch carries ids and URLs", () => {
    expect(build(incidents("      service: keep\n")).errors).toEqual([
      "PRJ022 incident.service: kept whole, this object would carry `service.id`, an opaque id",
      "PRJ033 incident.service: kept whole, this object would carry `service.self`, `service.html_url`, a URL the model cannot open",
    ]);
  });

  it("has parts to classify, every branch's parts", () => {
    const parts = ["id: { drop: x }", "summary: { as: service }", "type: { drop: x }", "self: { drop: x }", "html_url: { drop: x }"];
    expect(build(incidents(parts.map((p) => `      service.${p}\n`).join(""))).errors).toEqual([
      "PRJ020 incident.service.name is declared by the spec but not classified",
    ]);
    expect(build(incidents([...parts, "name: { drop: x }"].map((p) => `      service.${p}\n`).join(""))).errors).toEqual([]);
  });

  it("is drafted by init as a join, not kept whole", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "spec.yaml"), stringify(document));
    expect((await cli(["init", "spec.yaml", "--operations", "listIncidents", "--accept-guesses"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, "projector.yaml"), "utf8")).toMatch(/^ {6}service: \{ join: services \}/m);
  });
});

describe("a list whose items are a oneOf of records", () => {
  it("takes every branch's `type` values, so a folder among files is not an unknown code", () => {
    const { model, errors } = build(
      "spec: spec.json\noutput: out\nresources:\n  item:\n    fields:\n      id: { drop: x }\n      type: keep\n      name: keep\n      size: keep\ntools:\n  list_items:\n    operation: listItems\n    rows: entries\n    resource: item\n    list: items\n",
    );
    expect(errors).toEqual([]);
    const type = model!.resources.find((r) => r.name === "item")!.fields.find((f) => f.name === "type") as ValueField;
    expect(type.shape).toEqual({ type: "literal", values: ["file", "folder"] });
  });
});

describe("init's guesses on names seen in real specs", () => {
  it("drops Sentry's permalink as a link, and keeps Box's is_accessible_via_shared_link as the boolean it is", async () => {
    const dir = tempDir();
    const item = {
      type: "object",
      properties: { id: { type: "string" }, permalink: { type: "string" }, is_accessible_via_shared_link: { type: "boolean" } },
    };
    const spec = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/items": {
          get: {
            operationId: "listItems",
            responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array", items: item } } } } },
          },
        },
      },
    };
    writeFileSync(join(dir, "spec.yaml"), stringify(spec));
    expect((await cli(["init", "spec.yaml", "--accept-guesses"], dir)).code).toBe(0);
    const draft = readFileSync(join(dir, "projector.yaml"), "utf8");
    expect(draft).toMatch(/^ {6}permalink: \{ drop: "a link the model cannot open" \}/m);
    expect(draft).toMatch(/^ {6}is_accessible_via_shared_link: keep # boolean/m);
  });
});
