import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * Where generate keeps what it remembers between runs for one output folder (the no-op digest, the
 * format cache): a file named for the folder in `node_modules/.cache/openapi-projector/` of the
 * nearest `node_modules` up from the annotation's folder, as find-cache-dir places a tool's cache;
 * none when there is no `node_modules` there. Never in the checked-in output.
 */
export function cacheFile(kind: string, annotationFolder: string, outputFolder: string): string | undefined {
  for (let folder = resolve(annotationFolder); ; folder = dirname(folder)) {
    const modules = join(folder, "node_modules");
    if (isFolder(modules)) {
      const name = createHash("sha256").update(resolve(outputFolder)).digest("hex").slice(0, 32);
      return join(modules, ".cache", "openapi-projector", `${kind}-${name}.json`);
    }
    if (dirname(folder) === folder) return undefined;
  }
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
