// A watcher started on an up-to-date folder takes the source types from the folder's file instead
// of typing the spec again, and only from a file this annotation's generate wrote.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../src/annotation/parse.js";
import { banner } from "../src/emit/emit.js";
import { generate, takeSourceTypesFromFile, type GenerateInput } from "../src/generate.js";
import { createGenerateCache, typesKnown } from "../src/generate-cache.js";
import { loadSpec } from "../src/openapi/load.js";
import { readRuntimeTemplate } from "../src/emit/runtime-template.js";
import { ROOT } from "./helpers/pipeline.js";

const TEXT = readFileSync(join(ROOT, "projector.yaml"), "utf8");
const spec = await loadSpec(join(ROOT, "specs/support-tickets.openapi.yaml"), "specs/support-tickets.openapi.yaml");
const runtimeTemplate = await readRuntimeTemplate();
const names = { spec: "specs/support-tickets.openapi.yaml", annotation: "projector.yaml" };

const input = (cache = createGenerateCache()): GenerateInput => ({
  annotation: parseAnnotation(TEXT, "projector.yaml"),
  spec,
  runtimeTemplate,
  prettierOptions: null,
  format: false,
  names,
  cache,
});

describe("the source types across runs of one process", () => {
  it("takes the types from an up-to-date folder's file, written as a generate writes it, and never types the spec", async () => {
    const first = await generate(input());
    const folderFile = `${banner(names)}export type paths = { kept: "as the folder holds it" };\n`;
    const cache = createGenerateCache();
    takeSourceTypesFromFile(cache, { annotation: parseAnnotation(TEXT, "projector.yaml"), spec }, folderFile, names);
    const again = await generate(input(cache));
    expect(again.files.get("openapi.ts")).toBe(folderFile);
    expect(new Map([...again.files].filter(([path]) => path !== "openapi.ts"))).toEqual(
      new Map([...first.files].filter(([path]) => path !== "openapi.ts")),
    );
  });

  it("leaves the cache alone for a file that does not open with this annotation's banner", async () => {
    const first = await generate(input());
    const cache = createGenerateCache();
    takeSourceTypesFromFile(cache, { annotation: parseAnnotation(TEXT, "projector.yaml"), spec }, first.files.get("openapi.ts")!, {
      ...names,
      spec: "specs/another.yaml",
    });
    expect(typesKnown(cache, spec.document)).toBe(false);
  });
});
