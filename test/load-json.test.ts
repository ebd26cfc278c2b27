import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../src/openapi/load.js";
import { tempDir } from "./helpers/pipeline.js";

const spec = (schema: object) => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: { "/a": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } } },
  components: { schemas: { Local: { type: "object", properties: { id: { type: "string" } } } } },
});

describe("loadSpec of a JSON spec", () => {
  it("takes a document whose $refs stay inside it as parsed, BOM or not", async () => {
    const dir = tempDir();
    const document = spec({ $ref: "#/components/schemas/Local" });
    const text = JSON.stringify(document, null, 2);
    writeFileSync(join(dir, "api.json"), `\uFEFF${text}`);
    const lines = text.split("\n");
    const line = lines.findIndex((l) => l.includes('"Local"'));
    const loaded = await loadSpec(join(dir, "api.json"), "api.json");
    expect(loaded.document).toEqual(document);
    expect(loaded.files).toEqual([join(dir, "api.json")]);
    expect(loaded.locate("/components/schemas/Local")).toEqual({
      file: "api.json",
      line: line + 1,
      column: lines[line]!.indexOf('"Local"') + 1,
      pointer: "/components/schemas/Local",
    });
  });

  it("still follows a $ref into another file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "api.json"), JSON.stringify(spec({ $ref: "other.json#/Remote" })));
    writeFileSync(join(dir, "other.json"), JSON.stringify({ Remote: { type: "object", properties: { name: { type: "string" } } } }));
    const loaded = await loadSpec(join(dir, "api.json"), "api.json");
    expect(loaded.files).toEqual([join(dir, "api.json"), join(dir, "other.json")]);
    const schema = JSON.stringify(loaded.document["paths"]);
    expect(schema).toContain('"name":{"type":"string"}');
    expect(schema).not.toContain("other.json");
  });
});
