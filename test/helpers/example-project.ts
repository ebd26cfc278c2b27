import { cpSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "./pipeline.js";

/**
 * A consumer project holding a copy of the bundled example. With `node_modules`, generate keeps
 * its digest cache there, as in a real project.
 */
export function exampleProject(options: { nodeModules?: boolean } = {}): string {
  const dir = tempDir();
  mkdirSync(join(dir, "specs"));
  if (options.nodeModules) mkdirSync(join(dir, "node_modules"));
  cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(dir, "specs/support-tickets.openapi.yaml"));
  cpSync(join(ROOT, "projector.yaml"), join(dir, "projector.yaml"));
  return dir;
}

/** Every file under `folder`, by path, with its text. */
export function snapshot(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), "utf8"));
  }
  return files;
}
