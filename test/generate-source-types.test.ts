// generate() takes the spec's typing as an input (a caller may type it elsewhere): it asks for the
// types before the check, but a failed check still returns only its findings, and a typing that
// failed is not kept in the cache of `generate --watch`, which would otherwise fail every later run.
// A watcher started on an up-to-date folder takes the types from the folder's file instead.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../src/annotation/parse.js";
import { sourceTypes } from "../src/emit/source-types.js";
import { generate, takeSourceTypesFromFile, type GenerateInput } from "../src/generate.js";
import { createGenerateCache } from "../src/generate-cache.js";
import { loadSpec } from "../src/openapi/load.js";
import { readRuntimeTemplate } from "../src/emit/runtime-template.js";
import { ROOT } from "./helpers/pipeline.js";

const TEXT = readFileSync(join(ROOT, "projector.yaml"), "utf8");
const spec = await loadSpec(join(ROOT, "specs/support-tickets.openapi.yaml"), "specs/support-tickets.openapi.yaml");
const runtimeTemplate = await readRuntimeTemplate();

function input(text: string, typing: NonNullable<GenerateInput["sourceTypes"]>, cache = createGenerateCache()): GenerateInput {
  return {
    annotation: parseAnnotation(text, "projector.yaml"),
    spec,
    runtimeTemplate,
    prettierOptions: null,
    format: false,
    names: { spec: "specs/support-tickets.openapi.yaml", annotation: "projector.yaml" },
    cache,
    sourceTypes: typing,
  };
}

/** A typing that fails as a thread ended before it answered does. */
const stopped = () => Promise.reject(new Error("the source types' worker thread stopped (exit code 1) before it answered"));

describe("generate with the source types typed elsewhere", () => {
  it("returns the check's findings alone when the check fails, whatever the typing does", async () => {
    const broken = TEXT.replace("operation: searchTickets", "operation: noSuchOperation");
    let asked = 0;
    const output = await generate(
      input(broken, () => {
        asked++;
        return stopped();
      }),
    );
    expect(asked).toBe(1);
    expect(output.files.size).toBe(0);
    expect(output.diagnostics.some((d) => d.severity === "error" && d.message.includes("noSuchOperation"))).toBe(true);
  });

  it("types the spec again after a typing that failed, and reuses one that succeeded", async () => {
    const cache = createGenerateCache();
    const typed = await sourceTypes(spec.document, spec.file);
    await expect(generate(input(TEXT, stopped, cache))).rejects.toThrow("stopped");
    let asked = 0;
    const answer = async () => {
      asked++;
      return typed;
    };
    const first = await generate(input(TEXT, answer, cache));
    const again = await generate(input(TEXT, answer, cache));
    expect(asked).toBe(1);
    expect(first.files.get("openapi.ts")).toContain(typed);
    expect(again.files).toEqual(first.files);
  });

  it("takes the types from an up-to-date folder's file, written as a generate writes it, and never types the spec", async () => {
    const cache = createGenerateCache();
    const first = await generate(input(TEXT, () => sourceTypes(spec.document, spec.file)));
    const file = first.files.get("openapi.ts")!;
    takeSourceTypesFromFile(cache, spec.document, file, input(TEXT, stopped).names);
    const again = await generate(input(TEXT, stopped, cache));
    expect(again.files).toEqual(first.files);
  });

  it("leaves the cache alone for a file that does not open with this annotation's banner", async () => {
    const cache = createGenerateCache();
    const first = await generate(input(TEXT, () => sourceTypes(spec.document, spec.file)));
    const file = first.files.get("openapi.ts")!;
    takeSourceTypesFromFile(cache, spec.document, file, { spec: "specs/another.yaml", annotation: "projector.yaml" });
    await expect(generate(input(TEXT, stopped, cache))).rejects.toThrow("stopped");
  });
});
