import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isObject } from "../annotation/next-page.js";
import { cacheFile } from "./cache-folder.js";

// Prettier's output of the last generate of one output folder, kept on disk as prettier's and
// eslint's own caches are, so that the next generate formats only the files whose text changed.
// The file is never trusted: whatever is missing, corrupt or of the wrong type is ignored.

/** The cache file's mark; a file without it is someone else's and is not read. */
const FORMAT_CACHE = "openapi-projector format cache 1";

/** A cache file larger than this is not read, and a run whose files would make one larger writes none. */
export const MAX_FORMAT_CACHE_BYTES = 64 * 2 ** 20;

const KEY = /^[0-9a-f]{64}$/;

/** Where the formatted files of this output folder are kept (see {@link cacheFile}). */
export const formatCacheFile = (annotationFolder: string, outputFolder: string): string | undefined =>
  cacheFile("formatted", annotationFolder, outputFolder);

/** The formatted texts by format key; empty where the file is missing, too large, corrupt or not this cache's. */
export async function readFormatCache(file: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  try {
    if ((await stat(file)).size > MAX_FORMAT_CACHE_BYTES) return entries;
    const stored = JSON.parse(await readFile(file, "utf8")) as unknown;
    if (!isObject(stored) || stored["cache"] !== FORMAT_CACHE || !isObject(stored["entries"])) return entries;
    for (const [key, text] of Object.entries(stored["entries"])) if (KEY.test(key) && typeof text === "string") entries.set(key, text);
  } catch {
    // Unreadable or not JSON: formatted anew, as without a cache.
  }
  return entries;
}

/**
 * Replaces the cache file with these entries, by a rename, so that a reader never sees half a file.
 * A cache that cannot be written (a read-only `node_modules`) leaves generate's outcome as it is.
 */
export async function writeFormatCache(file: string, entries: ReadonlyMap<string, string>): Promise<void> {
  const text = JSON.stringify({ cache: FORMAT_CACHE, entries: Object.fromEntries(entries) });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    if (Buffer.byteLength(text) > MAX_FORMAT_CACHE_BYTES) return await rm(file, { force: true });
    await mkdir(dirname(file), { recursive: true });
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}
