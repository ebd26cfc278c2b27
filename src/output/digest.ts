import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const hash = (parts: readonly string[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex").slice(0, 32);
};

/** The spec file and every local file its `$ref`s reach, in a fixed order. */
async function specFiles(path: string, seen = new Set<string>()): Promise<string[]> {
  if (seen.has(path) || !existsSync(path)) return [];
  seen.add(path);
  const text = await readFile(path, "utf8");
  const refs = [...text.matchAll(/["']?\$ref["']?\s*:\s*["']?([^"'#\s,}]+)/g)].map((m) => m[1]!).filter((ref) => !/^[a-z]+:/i.test(ref));
  const nested = await Promise.all([...new Set(refs)].sort().map((ref) => specFiles(resolve(dirname(path), ref), seen)));
  return [text, ...nested.flat()];
}

let codeDigest: Promise<string> | undefined;

/** projector's own code: a changed generator is a changed input, even without a version bump. */
function projectorCode(): Promise<string> {
  codeDigest ??= (async () => {
    const root = dirname(dirname(fileURLToPath(import.meta.url)));
    const files = (await readdir(root, { recursive: true })).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith(".d.ts")).sort();
    return hash(await Promise.all(files.map((f) => readFile(join(root, f), "utf8"))));
  })();
  return codeDigest;
}

export interface DigestInputs {
  annotationText: string;
  specPath: string;
  runtimeTemplate: string;
  prettierOptions: unknown;
}

/** Everything a generate's output depends on, as one short hash. */
export async function inputsDigest(inputs: DigestInputs): Promise<string> {
  return hash([await projectorCode(), inputs.annotationText, inputs.runtimeTemplate, JSON.stringify(inputs.prettierOptions ?? null), ...(await specFiles(inputs.specPath))]);
}

/** The files of an output folder, as one hash. */
export function filesDigest(files: ReadonlyMap<string, string>): string {
  return hash([...files].sort(([a], [b]) => a.localeCompare(b)).flatMap(([path, text]) => [path, text]));
}

/**
 * Where a generate remembers what it last wrote, so the next one can skip all work when nothing
 * changed. It lives in node_modules/.cache, never in the checked-in output.
 */
export function cachePath(configDir: string, outputDir: string): string | undefined {
  const modules = join(configDir, "node_modules");
  return existsSync(modules) ? join(modules, ".cache", "projector", `${hash([outputDir])}.json`) : undefined;
}

export interface CacheEntry {
  inputs: string;
  files: string;
}

export async function readCache(path: string | undefined): Promise<CacheEntry | undefined> {
  if (!path || !existsSync(path)) return undefined;
  try {
    const entry = JSON.parse(await readFile(path, "utf8")) as Partial<CacheEntry>;
    return typeof entry.inputs === "string" && typeof entry.files === "string" ? { inputs: entry.inputs, files: entry.files } : undefined;
  } catch {
    return undefined;
  }
}

export async function writeCache(path: string | undefined, entry: CacheEntry): Promise<void> {
  if (!path) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(entry));
}
