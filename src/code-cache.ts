import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

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

/**
 * Loads a CommonJS file as `require` does, and registers it so that a later `require` of it gets
 * the same module, but compiled from V8's code cache where one was saved for the same content,
 * Node and V8, in `cacheDir`. Compiling TypeScript's 9 MB takes the typing thread a tenth of a
 * second or more on every generate; reading its code from the cache, about a third of that. V8
 * checks only a cache's length against the source, so the file name carries a hash of the content.
 */
export function requireWithCodeCache(file: string, cacheDir: string): CodeCachedModule {
  const source = readFileSync(file, "utf8");
  const key = createHash("sha1").update(source).update(process.version).update(process.arch).digest("hex");
  const cacheFile = join(cacheDir, `${key}.v8-code`);
  const cachedData = readIfThere(cacheFile);
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
      // Written whole under another name first: a run reading it at the same time sees none or all of it.
      const partial = `${cacheFile}.${process.pid}.partial`;
      try {
        mkdirSync(cacheDir, { recursive: true });
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        try {
          rmSync(partial, { force: true });
        } catch {}
      }
    },
  };
}

type ModuleWrapper = (this: unknown, exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * TypeScript, compiled from the code cache in the project's node_modules/.cache/projector where
 * there is a node_modules, for the threads that load it (openapi-typescript's, init's evidence):
 * a later `require("typescript")` in the same thread gets this one. Undefined without a node_modules.
 */
export function typescriptFromCodeCache(): CodeCachedModule | undefined {
  const modules = join(process.cwd(), "node_modules");
  if (!existsSync(modules)) return undefined;
  return requireWithCodeCache(createRequire(import.meta.url).resolve("typescript"), join(modules, ".cache", "projector", "code"));
}
