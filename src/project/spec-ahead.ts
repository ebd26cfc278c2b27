import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { cachePath, readCache, readSpecFiles, type SpecFilesRead } from "../output/digest.js";
import { loadSpec, type LoadedSpec, type LoadSpecOptions } from "../openapi/load.js";
import type { SourceTypesThreads } from "../openapi/source-types-thread.js";
import type { Stage } from "../progress.js";
import { displayPath } from "./display-path.js";
import { topLevelScalar } from "./top-level-scalar.js";

/** The spec loaded before the annotation is parsed, and typed in a worker thread from then on. */
export interface SpecAhead {
  /** The spec the annotation seemed to name: used only when the parsed annotation names the same. */
  specPath: string;
  /** The spec's file as it was before the loader read it, for the digest: an edit made meanwhile leaves the cache stale. */
  read: SpecFilesRead;
  /** Rejects as loadSpec would, with the same diagnostics; awaited where generate would have loaded the spec. */
  spec: Promise<LoadedSpec>;
  /** openapi-typescript's types of it, asked of a worker thread as soon as it loaded. */
  types?: Promise<string>;
}

export interface AheadOptions {
  config: string;
  /** Runs that read no cache entry load the spec whatever; the others only when none is kept. */
  readsCache: boolean;
  load: LoadSpecOptions;
  /** Times the load, when it happens, as the stage "spec". */
  stage: Stage;
}

/**
 * Loads the spec the annotation names and hands it to a worker thread before the annotation is
 * parsed, since openapi-typescript there is the longest part of a generate and can only start then.
 * Nothing is reported here: a bad annotation, or a spec path it does not state plainly, is left to
 * readProject, and a spec that fails to load fails where the spec is awaited, after the annotation's
 * own problems. A run whose inputs may be unchanged since the last generate (a cache entry for the
 * output folder) does not load ahead, so that a regenerate with nothing to do stays cheap.
 */
export async function loadSpecAhead(options: AheadOptions, cwd: string, threads?: SourceTypesThreads): Promise<SpecAhead | undefined> {
  const configPath = resolve(cwd, options.config);
  if (configPath.toLowerCase().endsWith(".json")) return undefined;
  const text = await readFile(configPath, "utf8").catch(() => undefined);
  const spec = text === undefined ? undefined : topLevelScalar(text, "spec");
  if (text === undefined || spec === undefined) return undefined;
  const configDir = dirname(configPath);
  if (options.readsCache) {
    const output = topLevelScalar(text, "output");
    if (output === undefined || (await readCache(cachePath(configDir, resolve(configDir, output))))) return undefined;
  }
  const specPath = resolve(configDir, spec);
  const { read, loading, loaded } = await options.stage("spec", async () => {
    const read = await readSpecFiles([specPath]);
    const loading = loadSpec(specPath, displayPath(cwd, specPath), options.load);
    // Settled before the annotation's parse begins, which would otherwise hold up the loader between its reads.
    return { read, loading, loaded: await loading.catch(() => undefined) };
  });
  const types = loaded && threads ? threads.type(loaded.document, loaded.file) : undefined;
  types?.catch(() => undefined);
  return { specPath, read, spec: loading, ...(types ? { types } : {}) };
}
