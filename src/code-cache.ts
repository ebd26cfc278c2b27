import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { Script } from "node:vm";
import { threadId } from "node:worker_threads";

/** A CommonJS module loaded by {@link requireWithCodeCache}. */
export interface CodeCachedModule {
  readonly exports: unknown;
  /** Whether V8 compiled it from the cache. */
  readonly fromCache: boolean;
  /**
   * Saves V8's code for it, once it has run: the functions compiled by then are in the cache too.
   * Does nothing when it came from the cache or was saved already; a cache that cannot be written
   * is left unwritten.
   */
  save(): void;
}

const CACHE_SUFFIX = ".v8-code";
/** Bytes of the SHA-256 of V8's data that open a cache file. */
const DIGEST_BYTES = 32;

/**
 * Loads a CommonJS file as `require` does, and registers it so that a later `require` of it gets
 * the same module, but compiled from V8's code cache where one was saved for the same content,
 * Node and V8, in `cacheDir`. Compiling TypeScript's 9 MB takes the typing thread a tenth of a
 * second or more on every generate; reading its code from the cache, about a third of that.
 *
 * V8 trusts what it is given: it checks a cache's header and the source's length, and data changed
 * past the header makes it abort the process. So the file name carries a hash of the source, and
 * the file a SHA-256 of V8's data, checked before V8 sees any of it: a cache that does not match
 * is compiled over and saved again.
 */
export function requireWithCodeCache(file: string, cacheDir: string): CodeCachedModule {
  const source = readFileSync(file, "utf8");
  const key = createHash("sha1").update(source).update(process.version).update(process.arch).digest("hex");
  const cacheFile = join(cacheDir, `${key}${CACHE_SUFFIX}`);
  const cachedData = verified(readIfThere(cacheFile));
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = new Module(file);
  module.filename = file;
  const require = createRequire(file);
  require.cache[file] = module;
  try {
    (script.runInThisContext() as ModuleWrapper).call(module.exports, module.exports, require, module, file, dirname(file));
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  module.loaded = true;
  let saved = fromCache;
  return {
    exports: module.exports,
    fromCache,
    save() {
      if (saved) return;
      saved = true;
      // Written whole under a name of this thread's own first: a run reading it at the same time sees none or all of it.
      const partial = `${cacheFile}.${process.pid}-${threadId}.partial`;
      try {
        mkdirSync(cacheDir, { recursive: true });
        const data = script.createCachedData();
        writeFileSync(partial, Buffer.concat([digest(data), data]));
        renameSync(partial, cacheFile);
        forgetOthers(cacheDir, basename(cacheFile));
      } catch {
        try {
          rmSync(partial, { force: true });
        } catch {}
      }
    },
  };
}

type ModuleWrapper = (this: unknown, exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

const digest = (data: Buffer) => createHash("sha256").update(data).digest();

/** V8's data in a cache file, or undefined where its digest does not match it. */
function verified(file: Buffer | undefined): Buffer | undefined {
  if (file === undefined || file.length <= DIGEST_BYTES) return undefined;
  const data = file.subarray(DIGEST_BYTES);
  return digest(data).equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

/** Removes the caches of other sources, Nodes or architectures: each is megabytes, and none is read again here. */
function forgetOthers(cacheDir: string, kept: string): void {
  for (const name of readdirSync(cacheDir)) if (name.endsWith(CACHE_SUFFIX) && name !== kept) rmSync(join(cacheDir, name), { force: true });
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * TypeScript, for the threads that load it (openapi-typescript's, init's evidence), compiled from
 * the code cache kept beside it, in the `node_modules` it is installed in (`.cache/projector/code`):
 * whoever can write there can change TypeScript itself, so the cache is trusted no more than the
 * code it stands for. A later `require("typescript")` in the same thread gets this one. Undefined
 * for a TypeScript installed outside any `node_modules`, which is left to `require`.
 */
export function typescriptFromCodeCache(): CodeCachedModule | undefined {
  const file = createRequire(import.meta.url).resolve("typescript");
  const cacheDir = codeCacheBeside(file);
  return cacheDir === undefined ? undefined : requireWithCodeCache(file, cacheDir);
}

/** `.cache/projector/code` in the innermost `node_modules` holding `file`, if any does. */
export function codeCacheBeside(file: string): string | undefined {
  const modules = `${sep}node_modules${sep}`;
  const at = file.lastIndexOf(modules);
  return at < 0 ? undefined : join(file.slice(0, at + modules.length), ".cache", "projector", "code");
}
