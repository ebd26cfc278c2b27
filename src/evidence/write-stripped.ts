import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { stripTypes, typescript } from "./strip-types.js";
import { strippedAlready, type StrippedRuntime } from "./stripped-runtime.js";

/**
 * Writes each module, its types blanked out, as JavaScript into `dir`. Synchronous: a few hundred
 * small files are written faster without a promise per step. The source types (`openapi.ts`) are
 * types only and are skipped.
 */
export function writeStripped(dir: string, files: Iterable<readonly [path: string, text: string]>): void {
  const ts = typescript();
  const write = scriptWriter(dir);
  for (const [path, text] of files) if (path !== "openapi.ts") write(path, stripTypes(ts, text, path));
}

/**
 * Writes the runtime's modules the build blanked already (without TypeScript), and returns the
 * files left to blank.
 */
export function writeStrippedAlready(
  dir: string,
  files: Iterable<readonly [path: string, text: string]>,
  runtime: StrippedRuntime,
): [path: string, text: string][] {
  const write = scriptWriter(dir);
  const rest: [string, string][] = [];
  for (const [path, text] of files) {
    const script = strippedAlready(runtime, path, text);
    if (script === undefined) rest.push([path, text]);
    else write(path, script);
  }
  return rest;
}

/** Writes a module's JavaScript beside the others, by its `.ts` path in the output folder. */
function scriptWriter(dir: string): (path: string, script: string) => void {
  const folders = new Set<string>();
  return (path, script) => {
    const target = join(dir, path.replace(/\.ts$/, ".js"));
    const folder = dirname(target);
    if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
    folders.add(folder);
    writeFileSync(target, script);
  };
}

/** Imports a module {@link writeStripped} wrote, by its path in the output folder without `.ts`: `tools/list-incidents`. */
export const importFrom =
  (dir: string) =>
  async (stem: string): Promise<Record<string, unknown>> =>
    (await import(pathToFileURL(join(dir, `${stem}.js`)).href)) as Record<string, unknown>;
