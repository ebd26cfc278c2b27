import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { RUNTIME_MODULE } from "../emit/module.js";
import { stripTypes, typescript } from "./strip-types.js";

export type Module = Record<string, unknown>;

export interface RunnableModules {
  /** Imports a module by its path in the output folder, without `.ts`: `tools/list-incidents`. */
  load(stem: string): Promise<Module>;
  dispose(): Promise<void>;
}

export interface GeneratedModules {
  index: Module;
  runtime: Module;
  resource(stem: string): Promise<Module>;
  dispose(): Promise<void>;
}

/**
 * Makes generated TypeScript runnable: each module, its types blanked out, is written as
 * JavaScript to a temporary folder, to be imported from there. The source types (`openapi.ts`)
 * are types only and are skipped.
 */
export function writeRunnable(files: ReadonlyMap<string, string>): RunnableModules {
  const ts = typescript();
  const dir = mkdtempSync(join(tmpdir(), "projector-run-"));
  // Synchronous: a few hundred small files are written faster without a promise per step.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const folders = new Set<string>();
  for (const [path, text] of files) {
    if (path === "openapi.ts") continue;
    const target = join(dir, path.replace(/\.ts$/, ".js"));
    const folder = dirname(target);
    if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
    folders.add(folder);
    writeFileSync(target, stripTypes(ts, text, path));
  }
  return {
    load: async (stem) => (await import(pathToFileURL(join(dir, `${stem}.js`)).href)) as Module,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The whole generated folder, runnable: its barrel, the runtime's, and any resource module. */
export async function loadGenerated(files: ReadonlyMap<string, string>): Promise<GeneratedModules> {
  const modules = writeRunnable(files);
  return {
    index: await modules.load("index"),
    runtime: await modules.load(RUNTIME_MODULE),
    resource: (stem) => modules.load(`resources/${stem}`),
    dispose: modules.dispose,
  };
}
