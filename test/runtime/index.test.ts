// Generated modules import the runtime through its barrel, which offers only what generated code may use.
import { describe, expect, it } from "vitest";
import { moduleSpecifier, RUNTIME_MODULE } from "../../src/emit/module.js";
import { readRuntimeTemplate } from "../../src/emit/runtime-template.js";
import { inputsDigest } from "../../src/output/digest.js";
import * as barrel from "../../templates/runtime/index.js";

const template = await readRuntimeTemplate();

describe("the runtime folder", () => {
  it("is read as its modules by file name, the barrel among them", () => {
    expect([...template.keys()]).toEqual([...template.keys()].sort());
    expect(template.has("index.ts")).toBe(true);
    expect(template.size).toBeGreaterThan(10);
  });

  it("exports at run time the values generated code uses", () => {
    for (const name of [
      "string",
      "date",
      "joinOne",
      "callTool",
      "withDistinctShortIds",
      "projectInOneWalk",
      "placed",
      "MARKER_SCHEMAS",
      "ID_BOOK_SIZE",
    ])
      expect(barrel).toHaveProperty(name);
    for (const name of ["ResolverError", "Unreadable"]) expect(typeof (barrel as Record<string, unknown>)[name]).toBe("function");
  });

  it("keeps what the modules share among themselves out of the barrel", () => {
    for (const shared of [
      "typeName",
      "described",
      "report",
      "unusable",
      "absent",
      "KEPT_LAYOUTS",
      "handOut",
      "CODE_CHARACTERS",
      "later",
      "hold",
      "LabelsLater",
    ])
      expect(barrel).not.toHaveProperty(shared);
  });

  it("is imported through its barrel from every depth of the output folder", () => {
    expect(moduleSpecifier("index", RUNTIME_MODULE)).toBe('"./runtime/index.js"');
    expect(moduleSpecifier("resources/ticket", RUNTIME_MODULE)).toBe('"../runtime/index.js"');
  });

  it("counts in the no-op digest by every module's name and text", async () => {
    const digest = (runtimeTemplate: ReadonlyMap<string, string>, prettierRelease = "3.10.1", typesRelease = "7.13.0/5.9.3") =>
      inputsDigest({ annotationText: "", specFiles: [], runtimeTemplate, prettierOptions: null, prettierRelease, typesRelease });
    const edited = new Map(template).set("dates.ts", `${template.get("dates.ts")}\n`);
    const renamed = new Map([...template].map(([file, text]) => [file === "dates.ts" ? "days.ts" : file, text]));
    const digests = await Promise.all([digest(template), digest(new Map(template)), digest(edited), digest(renamed)]);
    expect(digests[1]).toBe(digests[0]);
    expect(new Set(digests).size).toBe(3);
    // Another prettier release lays the output out by other rules: the last generate is stale.
    expect(await digest(template, "3.11.0")).not.toBe(digests[0]);
    // Another openapi-typescript or TypeScript prints other source types: stale too.
    expect(await digest(template, "3.10.1", "7.14.0/5.9.3")).not.toBe(digests[0]);
  });
});
