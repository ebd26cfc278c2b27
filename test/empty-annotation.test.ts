// An annotation that names no resource and no tool is a project just started: generate writes a
// folder that compiles and exports the tool plumbing with an empty tool list, instead of failing.
import { writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateFrom, ROOT, tempDir, typecheckFiles } from "./helpers/pipeline.js";

describe("an annotation with no resources and no tools", () => {
  it("generates a folder that type-checks", async () => {
    const dir = tempDir();
    copyFileSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(dir, "openapi.yaml"));
    writeFileSync(join(dir, "projector.yaml"), "spec: openapi.yaml\noutput: generated/api\nresources: {}\ntools: {}\n");
    const { problems, files } = await generateFrom(join(dir, "projector.yaml"));
    expect(problems).toEqual([]);
    expect(files.get("index.ts")).toContain("toolDefinitions,\n  type CallSetup,\n  type Tools,");
    expect(typecheckFiles(files)).toEqual([]);
  });
});
