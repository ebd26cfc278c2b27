import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { RUNTIME_MODULE } from "../emit/module.js";

export type Module = Record<string, unknown>;

export interface GeneratedModules {
  index: Module;
  runtime: Module;
  resource(stem: string): Promise<Module>;
  dispose(): Promise<void>;
}

/**
 * Makes generated TypeScript runnable: each module is transpiled to JavaScript in a temporary
 * folder and imported. The source types (`openapi.ts`) are types only and are skipped.
 */
export async function loadGenerated(files: Map<string, string>): Promise<GeneratedModules> {
  const { default: ts } = await import("typescript");
  const dir = await mkdtemp(join(tmpdir(), "projector-run-"));
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const [path, text] of files) {
    if (path === "openapi.ts") continue;
    const target = join(dir, path.replace(/\.ts$/, ".js"));
    await mkdir(dirname(target), { recursive: true });
    const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    await writeFile(target, js);
  }
  const load = async (path: string) => (await import(pathToFileURL(join(dir, path)).href)) as Module;
  return {
    index: await load("index.js"),
    runtime: await load(`${RUNTIME_MODULE}.js`),
    resource: (stem) => load(`resources/${stem}.js`),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
