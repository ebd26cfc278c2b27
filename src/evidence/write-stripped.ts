import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { stripTypes, typescript } from "./strip-types.js";

/**
 * Writes each module, its types blanked out, as JavaScript into `dir`. Synchronous: a few hundred
 * small files are written faster without a promise per step. The source types (`openapi.ts`) are
 * types only and are skipped.
 */
export function writeStripped(dir: string, files: Iterable<readonly [path: string, text: string]>): void {
  const ts = typescript();
  const folders = new Set<string>();
  for (const [path, text] of files) {
    if (path === "openapi.ts") continue;
    const target = join(dir, path.replace(/\.ts$/, ".js"));
    const folder = dirname(target);
    if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
    folders.add(folder);
    writeFileSync(target, stripTypes(ts, text, path));
  }
}

/** Imports a module {@link writeStripped} wrote, by its path in the output folder without `.ts`: `tools/list-incidents`. */
export const importFrom =
  (dir: string) =>
  async (stem: string): Promise<Record<string, unknown>> =>
    (await import(pathToFileURL(join(dir, `${stem}.js`)).href)) as Record<string, unknown>;
