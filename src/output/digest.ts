import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheFile } from "./cache-folder.js";
import { CODES, type Diagnostic, type SourceLocation } from "../diagnostics.js";
import type { RuntimeTemplate } from "../emit/runtime-folder.js";
import { readSpecBytes, UnreadableFile } from "../openapi/files.js";
import type { PrettierOptionsByFile } from "../prettier-config.js";

/** Text is hashed as its UTF-8 bytes: a file's bytes hash as its text does, so a digest never needs a file decoded. */
const hash = (parts: readonly (string | Uint8Array)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex").slice(0, 32);
};

/** The spec's files by path, as read; see readSpecFiles. */
export type SpecFilesRead = ReadonlyMap<string, string | Uint8Array>;

/**
 * Reads the spec's files for a digest made later. A file that cannot be read counts by its reason,
 * so a spec that went missing or became a folder is a changed input, not a crash. Read before the
 * spec is loaded, they leave the digest stale, never falsely fresh, when one is edited while
 * generate runs.
 */
export async function readSpecFiles(files: readonly string[]): Promise<SpecFilesRead> {
  const unreadable = (error: unknown) => {
    if (error instanceof UnreadableFile) return `\0unreadable: ${error.message}`;
    throw error;
  };
  const read = async (path: string) => [path, await readSpecBytes(path).catch(unreadable)] as const;
  return new Map(await Promise.all([...new Set(files)].map(read)));
}

/** The spec's files, each named and hashed by content: as read earlier where `read` has them, read now otherwise. */
async function specFileContents(
  files: readonly string[],
  read: SpecFilesRead | undefined,
  name: (path: string) => string = (path) => path,
): Promise<(string | Uint8Array)[]> {
  const sorted = [...new Set(files)].sort();
  const now = await readSpecFiles(sorted.filter((path) => !read?.has(path)));
  return sorted.flatMap((path) => [name(path), read?.get(path) ?? now.get(path)!]);
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
  /** The spec and every file its `$ref`s reach, as the loader listed them (LoadedSpec.files). */
  specFiles: readonly string[];
  /** Some of them as read earlier (readSpecFiles); the others are read now. */
  specFilesRead?: SpecFilesRead;
  runtimeTemplate: RuntimeTemplate;
  /** The consumer's prettier options for each file of the output folder (consumerPrettierConfig). */
  prettierOptions: PrettierOptionsByFile | null;
  prettierRelease: string;
  typesRelease: string;
}

/** Everything a generate's output depends on, as one short hash. */
export async function inputsDigest(inputs: DigestInputs): Promise<string> {
  return digestOf(await projectorCode(), inputs, await specFileContents(inputs.specFiles, inputs.specFilesRead));
}

/**
 * The inputs' digest a generate records in its output folder, which is checked in: the same on
 * every clone of the repository, wherever it is. The spec's files are named relative to the
 * annotation's folder, and projector by its release rather than its code, which only a
 * development build changes between releases.
 */
export async function portableInputsDigest(inputs: DigestInputs, annotationFolder: string): Promise<string> {
  const name = (path: string) => relative(annotationFolder, path).split(sep).join("/");
  return digestOf(`projector ${projectorRelease()}`, inputs, await specFileContents(inputs.specFiles, inputs.specFilesRead, name));
}

function digestOf(projector: string, inputs: DigestInputs, specContents: readonly (string | Uint8Array)[]): string {
  return hash([
    projector,
    inputs.annotationText,
    ...[...inputs.runtimeTemplate].flat(),
    JSON.stringify(inputs.prettierOptions ?? null),
    inputs.prettierRelease,
    inputs.typesRelease,
    ...specContents,
  ]);
}

/** projector's release, from its package.json (two folders above this module, in dist/ as in src/). */
export const projectorRelease = () => (createRequire(import.meta.url)("../../package.json") as { version: string }).version;

/** The files of an output folder, as one hash. */
export function filesDigest(files: ReadonlyMap<string, string | Uint8Array>): string {
  return hash([...files].sort(([a], [b]) => a.localeCompare(b)).flat());
}

/** Where a generate remembers what it last wrote, so the next one can skip all work when nothing changed. */
export const cachePath = (configDir: string, outputDir: string): string | undefined => cacheFile("last-run", configDir, outputDir);

export interface CacheEntry {
  inputs: string;
  files: string;
  /** The files the spec was read from, whose contents `inputs` covers: the next run hashes these without loading the spec. */
  specFiles: string[];
  /** The run's warnings, which a run finding the folder up to date tells again: its inputs still give them. */
  warnings: Diagnostic[];
  /** The working folder of that run, which the warnings name files from. */
  cwd: string;
}

/**
 * The entry a generate left, when well formed and its warnings hold for a run from `cwd`: they name
 * files as seen from the run's working folder, so a run from another tells them anew.
 */
export async function readCache(path: string | undefined, cwd: string): Promise<CacheEntry | undefined> {
  if (!path || !existsSync(path)) return undefined;
  try {
    const entry = JSON.parse(await readFile(path, "utf8")) as Partial<CacheEntry>;
    const specFiles = entry.specFiles;
    if (typeof entry.inputs !== "string" || typeof entry.files !== "string") return undefined;
    if (!Array.isArray(specFiles) || specFiles.length === 0 || !specFiles.every((file): file is string => typeof file === "string"))
      return undefined;
    const warnings: unknown = entry.warnings;
    if (!Array.isArray(warnings) || !warnings.every(isWarning) || typeof entry.cwd !== "string") return undefined;
    if (warnings.length > 0 && entry.cwd !== cwd) return undefined;
    return { inputs: entry.inputs, files: entry.files, specFiles, warnings, cwd: entry.cwd };
  } catch {
    return undefined;
  }
}

const isLocation = (value: unknown): value is SourceLocation => {
  if (typeof value !== "object" || value === null) return false;
  const { file, line, column, pointer } = value as Record<string, unknown>;
  return (
    typeof file === "string" &&
    (line === undefined || Number.isInteger(line)) &&
    (column === undefined || Number.isInteger(column)) &&
    (pointer === undefined || typeof pointer === "string")
  );
};

/** A warning as a run kept it: a known code, its texts and where it points. */
const isWarning = (value: unknown): value is Diagnostic => {
  if (typeof value !== "object" || value === null) return false;
  const { code, severity, message, help, location, related } = value as Record<string, unknown>;
  return (
    typeof code === "string" &&
    Object.hasOwn(CODES, code) &&
    severity === "warning" &&
    typeof message === "string" &&
    typeof help === "string" &&
    isLocation(location) &&
    (related === undefined || isLocation(related))
  );
};

/** Remembers this run; a cache that cannot be written (a file where its folder belongs, a read-only `node_modules`) leaves the run as it is. */
export async function writeCache(path: string | undefined, entry: CacheEntry): Promise<void> {
  if (!path) return;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(entry));
  } catch {
    // The next run finds no entry, or an unreadable one, and generates as without a cache.
  }
}
