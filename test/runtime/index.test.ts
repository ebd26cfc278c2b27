// Generated modules import only what the runtime's barrel offers: the names its modules share among
// themselves stay out of generated imports and out of the names generated constants must avoid.
import { describe, expect, it } from "vitest";
import { readRuntimeTemplate } from "../../src/commands/project.js";
import { runtimeExports } from "../../src/emit/imports.js";
import { runtimeSpecifier } from "../../src/emit/runtime-folder.js";
import { inputsDigest } from "../../src/output/digest.js";
import * as barrel from "../../templates/runtime/index.js";

const template = await readRuntimeTemplate();

describe("the runtime folder", () => {
  it("is read as its modules by file name, the barrel among them", () => {
    expect([...template.keys()]).toEqual([...template.keys()].sort());
    expect(template.has("index.ts")).toBe(true);
    expect(template.size).toBeGreaterThan(10);
  });

  it("offers generated code the barrel's names, each by its kind", () => {
    const runtime = runtimeExports(template);
    expect(runtime.functions).toEqual(expect.arrayContaining(["string", "date", "joinOne", "callTool", "withDistinctShortIds"]));
    expect(runtime.constants).toEqual(expect.arrayContaining(["MARKER_SCHEMAS", "ID_BOOK_SIZE", "DEFAULT_RESOLVER_TIMEOUT_MS"]));
    expect(runtime.types).toEqual(expect.arrayContaining(["ResolverError", "Unreadable", "Unusable", "RecordOptions", "TableLayout"]));
  });

  it("exports at run time every value it offers", () => {
    const runtime = runtimeExports(template);
    for (const name of [...runtime.functions, ...runtime.constants]) expect(barrel).toHaveProperty(name);
    for (const name of ["ResolverError", "Unreadable"]) expect(typeof (barrel as Record<string, unknown>)[name]).toBe("function");
  });

  it("keeps what the modules share among themselves out of generated imports", () => {
    const offered = Object.values(runtimeExports(template)).flat();
    for (const shared of ["typeName", "described", "report", "unusable", "absent", "KEPT_LAYOUTS", "handOut", "CODE_CHARACTERS"])
      expect(offered).not.toContain(shared);
  });

  it("is imported through its barrel from every depth of the output folder", () => {
    expect(runtimeSpecifier(0)).toBe("./runtime/index.js");
    expect(runtimeSpecifier(1)).toBe("../runtime/index.js");
  });

  it("counts in the no-op digest by every module's name and text", async () => {
    const digest = (runtimeTemplate: ReadonlyMap<string, string>) =>
      inputsDigest({ annotationText: "", specFiles: [], runtimeTemplate, prettierOptions: null });
    const edited = new Map(template).set("dates.ts", `${template.get("dates.ts")}\n`);
    const renamed = new Map([...template].map(([file, text]) => [file === "dates.ts" ? "days.ts" : file, text]));
    const digests = await Promise.all([digest(template), digest(new Map(template)), digest(edited), digest(renamed)]);
    expect(digests[1]).toBe(digests[0]);
    expect(new Set(digests).size).toBe(3);
  });
});
