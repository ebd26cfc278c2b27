// `generate --watch` types the spec once per loaded document: later runs over the same document
// reuse the types, and a watcher started on an up-to-date folder takes them from the folder's file
// instead of typing the spec at all.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parseAnnotation } from "../src/annotation/parse.js";
import { generate, takeSourceTypesFromFile, type GenerateInput } from "../src/generate.js";
import { createGenerateCache, typesKnown } from "../src/generate-cache.js";
import { loadSpec } from "../src/openapi/load.js";
import { readRuntimeTemplate } from "../src/emit/runtime-template.js";
import { ROOT } from "./helpers/pipeline.js";

const typings = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/emit/source-types.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../src/emit/source-types.js")>();
  return {
    ...original,
    sourceTypes: (...args: Parameters<typeof original.sourceTypes>) => {
      typings.count++;
      return original.sourceTypes(...args);
    },
  };
});

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
  it("types a document once, however many runs generate from it", async () => {
    const cache = createGenerateCache();
    const before = typings.count;
    const first = await generate(input(cache));
    const again = await generate(input(cache));
    expect(typings.count - before).toBe(1);
    expect(again.files).toEqual(first.files);
  });

  it("takes the types from an up-to-date folder's file, written as a generate writes it, and never types the spec", async () => {
    const first = await generate(input());
    const cache = createGenerateCache();
    takeSourceTypesFromFile(cache, spec.document, first.files.get("openapi.ts")!, names);
    const before = typings.count;
    const again = await generate(input(cache));
    expect(typings.count).toBe(before);
    expect(again.files).toEqual(first.files);
  });

  it("leaves the cache alone for a file that does not open with this annotation's banner", async () => {
    const first = await generate(input());
    const cache = createGenerateCache();
    takeSourceTypesFromFile(cache, spec.document, first.files.get("openapi.ts")!, { ...names, spec: "specs/another.yaml" });
    expect(typesKnown(cache, spec.document)).toBe(false);
  });
});
