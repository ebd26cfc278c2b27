// The runtime blanked at build time stands in for blanking it at run time, and only where it is the same text.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { banner } from "../src/emit/emit.js";
import { stripTypes, typescript } from "../src/evidence/strip-types.js";
import { readStrippedRuntime, stripRuntime, strippedAlready } from "../src/evidence/stripped-runtime.js";
import { writeStrippedAlready } from "../src/evidence/write-stripped.js";
import { readRuntimeTemplate } from "../src/emit/runtime-template.js";
import { ROOT } from "./helpers/pipeline.js";

const ts = typescript();
const template = await readRuntimeTemplate();
const stripper = readFileSync(join(ROOT, "src/evidence/strip-types.ts"), "utf8");
const stripped = stripRuntime(ts, template, stripper);
const head = banner({ spec: "specs/api.yaml", annotation: "projector.yaml" });
const ids = template.get("ids.ts")!;

describe("the runtime blanked at build time", () => {
  it("is, for every module under its banner, what blanking the module there gives", () => {
    expect(template.size).toBeGreaterThan(20);
    for (const [file, text] of template)
      expect(strippedAlready(stripped, `runtime/${file}`, head + text), file).toBe(stripTypes(ts, head + text, file));
  });

  it("is what the build wrote beside the compiled module, with the blanking code it was made by", () => {
    const dist = join(ROOT, "dist/evidence");
    const built = readStrippedRuntime(pathToFileURL(join(dist, "stripped-runtime.json")), pathToFileURL(join(dist, "strip-types.js")));
    expect(built).toEqual(stripRuntime(ts, template, readFileSync(join(dist, "strip-types.js"), "utf8")));
  });

  it("is not used once the blanking code differs from the code that made it, nor where there is none or it cannot be read", () => {
    const dir = mkdtempSync(join(tmpdir(), "projector-stripped-"));
    try {
      const [file, stripperFile] = [join(dir, "stripped-runtime.json"), join(dir, "strip-types.js")];
      const read = () => readStrippedRuntime(pathToFileURL(file), pathToFileURL(stripperFile));
      const none = { stripper: "", modules: {} };
      expect(read()).toEqual(none);
      writeFileSync(file, JSON.stringify(stripped));
      copyFileSync(join(ROOT, "src/evidence/strip-types.ts"), stripperFile);
      expect(read()).toEqual(stripped);
      writeFileSync(stripperFile, `${stripper}\n// changed\n`);
      expect(read()).toEqual(none);
      copyFileSync(join(ROOT, "src/evidence/strip-types.ts"), stripperFile);
      for (const unreadable of ["{", "null", JSON.stringify({ stripper: stripped.stripper })]) {
        writeFileSync(file, unreadable);
        expect(read(), unreadable).toEqual(none);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["a module edited since the build", "runtime/ids.ts", head + ids.replace("export", "EXPORT")],
    ["a module grown since the build", "runtime/ids.ts", head + ids.replace("export", "export ")],
    ["a module under a block comment", "runtime/ids.ts", `/* generated */\n${ids}`],
    ["a module under a statement", "runtime/ids.ts", `const generated = true;\n${ids}`],
    ["a module whose banner runs into its first line", "runtime/ids.ts", `// generated${ids}`],
    ["a module under a comment a line separator ends", "runtime/ids.ts", `// generated\u2028const x: number = 1;\n${ids}`],
    ["a module shorter than the one built", "runtime/ids.ts", ids.slice(1)],
    ["a runtime module the build did not know", "runtime/extra.ts", head + ids],
    ["a name every object has", "runtime/constructor", head + ids],
    ["a module outside the runtime", "tools/ids.ts", head + ids],
  ])("leaves %s to the parser", (_case, path, text) => {
    expect(strippedAlready(stripped, path, text)).toBeUndefined();
  });

  it("is written for the runtime's modules, and every other file is handed back to be blanked", () => {
    const dir = mkdtempSync(join(tmpdir(), "projector-stripped-"));
    try {
      const tool = `${head}export const a: number = 1;\n`;
      const rest = writeStrippedAlready(
        dir,
        [
          ["runtime/ids.ts", head + ids],
          ["tools/a.ts", tool],
        ],
        stripped,
      );
      expect(rest).toEqual([["tools/a.ts", tool]]);
      expect(readdirSync(dir, { recursive: true }).sort()).toEqual(["runtime", "runtime/ids.js"]);
      expect(readFileSync(join(dir, "runtime/ids.js"), "utf8")).toBe(stripTypes(ts, head + ids, "ids.ts"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
