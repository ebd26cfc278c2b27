import { realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { cachePath, filesDigest, inputsDigest, portableInputsDigest, readCache } from "../output/digest.js";
import { folderGuard } from "../openapi/files.js";
import { plainFiles } from "../output/listing.js";
import { folderRecord, head, MARKER, MAX_MARKER_BYTES, type FolderRecord } from "../output/ownership.js";
import { loadsPlugins } from "../prettier-config.js";
import { digestedExtras, readExtras } from "./extras.js";
import { filesIfExactly } from "./output-folder.js";
import { topLevelScalar } from "./top-level-scalar.js";

// Whether a generate has anything to do, told before the generator's own modules load: this module
// loads only what the answer needs, a tenth of what a generate loads.

/** The options of a run that decide which of the spec's files loading it may read. */
export interface RefOptions {
  allowRemoteRefs: boolean;
  allowOutsideRefs: boolean;
}

/**
 * Whether loading the spec under these options would read every one of the files a digest covers:
 * each local file inside the spec's folder with symlinks followed (unless outside refs are allowed),
 * no remote document unless remote refs are. A digest hashes contents, so it cannot tell a file
 * from a symlink to a copy of it elsewhere, which the loader refuses: an answer from a digest
 * stands only where loading the spec would not refuse.
 */
export function loadWouldRead(specPath: string, specFiles: readonly string[], options: RefOptions): boolean {
  const remote = (file: string) => /^[a-z][a-z0-9+.-]+:\/\//i.test(file);
  if (!options.allowRemoteRefs && specFiles.some(remote)) return false;
  if (options.allowOutsideRefs) return true;
  try {
    const inside = folderGuard(realpathSync.native(dirname(specPath)));
    return specFiles.every((file) => file === specPath || remote(file) || inside(file));
  } catch {
    return false;
  }
}

/** The annotation's text, the output folder and the spec it names, when all are plain to read without parsing it. */
async function plainProject(
  config: string,
  cwd: string,
): Promise<{ text: string; configDir: string; outputDir: string; specPath: string } | undefined> {
  const configPath = resolve(cwd, config);
  const text = await readFile(configPath, "utf8").catch(() => undefined);
  const output = text === undefined ? undefined : topLevelScalar(text, "output");
  const spec = text === undefined ? undefined : topLevelScalar(text, "spec");
  if (text === undefined || output === undefined || spec === undefined) return undefined;
  const configDir = dirname(configPath);
  const outputDir = resolve(configDir, output);
  const inside = relative(configDir, outputDir);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return undefined;
  return { text, configDir, outputDir, specPath: resolve(configDir, spec) };
}

/** An output folder found up to date, and the warnings of the run that wrote it, which its inputs still give. */
export interface UpToDate {
  folder: string;
  warnings: Diagnostic[];
}

/**
 * The output folder, when a regenerate has nothing to do, told without parsing the annotation: its
 * `output:` read off the text, and the digest of the text as it is against the cache entry for that
 * folder. An entry whose digest matches was written by a generate of this very text, which wrote to
 * that folder; anything less plain (an output written another way, or outside the annotation's
 * folder, where options decide) takes the ordinary way.
 */
export async function unchangedSinceLastGenerate(config: string, cwd: string, options: RefOptions): Promise<UpToDate | undefined> {
  const plain = await plainProject(config, cwd);
  if (!plain) return undefined;
  const last = await readCache(cachePath(plain.configDir, plain.outputDir), cwd);
  if (!last || !loadWouldRead(plain.specPath, last.specFiles, options)) return undefined;
  const files = await filesIfExactly(plain.outputDir, last.files);
  if (!files) return undefined;
  files.delete(MARKER);
  const extras = await plainExtras(plain, [...files.keys()]);
  if (!extras) return undefined;
  const digest = await inputsDigest({ annotationText: plain.text, specFiles: last.specFiles, ...extras });
  return digest === last.inputs ? { folder: plain.outputDir, warnings: last.warnings } : undefined;
}

/**
 * The output folder, when the record in its marker vouches for it (`generate --check` on any clone,
 * with no cache): the inputs hash as they did for the generate that wrote it, and every other file
 * in the folder hashes as that generate wrote it, with nothing added. The same reasoning as for the
 * cache entry holds: a record whose inputs' digest matches was written by a generate of this very
 * annotation text. Undefined whenever anything differs; the full check then names what.
 */
export async function vouchedByRecord(config: string, cwd: string, options: RefOptions): Promise<string | undefined> {
  const plain = await plainProject(config, cwd);
  if (!plain) return undefined;
  const record = await readRecord(plain.outputDir);
  if (!record) return undefined;
  const specFiles = record.specFiles.map((file) => resolve(plain.configDir, file));
  // Only as generate writes it: each file once, plain, relative, in the order of their paths.
  const written = [...new Set(specFiles)].sort().map((file) => relative(plain.configDir, file).split(sep).join("/"));
  if (JSON.stringify(written) !== JSON.stringify(record.specFiles)) return undefined;
  if (!loadWouldRead(plain.specPath, specFiles, options)) return undefined;
  const files = await plainFiles(plain.outputDir);
  files?.delete(MARKER);
  if (!files || filesDigest(files) !== record.files) return undefined;
  const extras = await plainExtras(plain, [...files.keys()]);
  if (!extras) return undefined;
  const inputs = await portableInputsDigest({ annotationText: plain.text, specFiles, ...extras }, plain.configDir);
  return inputs === record.inputs ? plain.outputDir : undefined;
}

/**
 * The prettier options and the rest of what a digest takes beside the annotation, where they can be
 * read and load no plugin; undefined otherwise: a config prettier cannot read takes the ordinary way,
 * which says what is wrong with it (PRJ059).
 */
async function plainExtras(project: Parameters<typeof readExtras>[0], files: readonly string[]) {
  try {
    const extras = await digestedExtras(await readExtras(project, true), files);
    return loadsPlugins(extras.prettierOptions) ? undefined : extras;
  } catch {
    return undefined;
  }
}

async function readRecord(outputDir: string): Promise<FolderRecord | undefined> {
  try {
    const bytes = await head(resolve(outputDir, MARKER), MAX_MARKER_BYTES + 1);
    return bytes.length > MAX_MARKER_BYTES ? undefined : folderRecord(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}
