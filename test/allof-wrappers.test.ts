// A schema written as `allOf: [{ $ref: X }]` with words beside it (a description, an example) is X:
// its codes, the spec's words for them, and its type are read through the wrapper.
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../src/annotation/parse.js";
import { buildModel } from "../src/model/build.js";
import type { ValueField } from "../src/model/types.js";
import type { LoadedSpec } from "../src/openapi/load.js";
import { SchemaReader, type JsonObject } from "../src/openapi/schema.js";

const document: JsonObject = {
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/tickets/{id}": {
      get: {
        operationId: "getTicket",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Ticket" } } } } },
      },
    },
  },
  components: {
    schemas: {
      Priority: { type: "integer", enum: [1, 2, 3], "x-enum-varnames": ["LOW", "HIGH", "URGENT"] },
      Ticket: {
        type: "object",
        properties: {
          id: { type: "string" },
          priority: { allOf: [{ $ref: "#/components/schemas/Priority" }], description: "How urgent it is." },
          sequence_number: { allOf: [{ type: "string" }, { description: "Box writes words as a second member" }] },
          renamed: { allOf: [{ $ref: "#/components/schemas/Priority" }], "x-enum-varnames": ["A", "B", "C"] },
        },
      },
    },
  },
};
const spec: LoadedSpec = { file: "spec.json", document, locate: (pointer) => ({ file: "spec.json", pointer }) };
const reader = new SchemaReader(document);
const property = (name: string) => reader.property(reader.pointer("/components/schemas/Ticket")!, name)!.at;

describe("an allOf that only adds words beside one schema", () => {
  it("is read as that schema: its type and its codes", () => {
    expect(reader.kind(property("priority"))).toBe("integer");
    expect(reader.enumValues(property("priority"))).toEqual([1, 2, 3]);
    expect(reader.kind(property("sequence_number"))).toBe("string");
  });

  it("is not a wrapper when it names codes itself", () => {
    expect(reader.unwrapNullable(property("renamed")).pointer).toBe("/components/schemas/Ticket/properties/renamed");
  });

  it("gives legend: spec the spec's words", () => {
    const annotation = [
      "spec: spec.json",
      "output: out",
      "resources:",
      "  ticket:",
      "    schema: Ticket",
      "    fields:",
      "      id: { argument: [get_ticket] }",
      "      priority: { legend: spec }",
      "      sequence_number: keep",
      '      renamed: { drop: "x" }',
      "tools:",
      "  get_ticket: { operation: getTicket }",
      "",
    ].join("\n");
    const { model, diagnostics } = buildModel(parseAnnotation(annotation, "projector.yaml"), spec);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const priority = model!.resources[0]!.fields.find((f) => f.name === "priority") as ValueField;
    expect(JSON.stringify(priority)).toContain('"high"');
  });
});
