import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type TypeScript from "typescript";

/**
 * TypeScript itself, through `require`: importing it as an ES module makes Node scan its CommonJS
 * for export names first.
 */
export const typescript = (): typeof TypeScript => createRequire(import.meta.url)("typescript") as typeof TypeScript;

/**
 * Writes each module as JavaScript into `dir`, by TypeScript's own transpiler. Synchronous: a few
 * hundred small files are written without a promise per step. The source types
 * (`openapi.ts`) are types only and are skipped.
 */
export function writeJavaScript(dir: string, files: Iterable<readonly [path: string, text: string]>): void {
  const ts = typescript();
  const compilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true };
  const folders = new Set<string>();
  for (const [path, text] of files) {
    if (path === "openapi.ts") continue;
    const target = join(dir, path.replace(/\.ts$/, ".js"));
    const folder = dirname(target);
    if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
    folders.add(folder);
    writeFileSync(target, ts.transpileModule(text, { fileName: path, compilerOptions }).outputText);
  }
}

/** Imports a module {@link writeJavaScript} wrote, by its path in the output folder without `.ts`: `tools/list-incidents`. */
export const importFrom =
  (dir: string) =>
  async (stem: string): Promise<Record<string, unknown>> =>
    (await import(pathToFileURL(join(dir, `${stem}.js`)).href)) as Record<string, unknown>;
