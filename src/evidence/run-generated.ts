import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { RUNTIME_MODULE } from "../emit/module.js";
import type { StripReply, StripRequest } from "./strip-worker.js";
import { writeStripped } from "./write-stripped.js";

export type Module = Record<string, unknown>;

/** A temporary folder of generated modules made runnable, filled as they are emitted. */
export interface RunnableFolder {
  /** Writes the modules (paths relative to the output folder) as JavaScript; resolves once they are written. */
  add(files: ReadonlyMap<string, string>): Promise<void>;
  /** Imports a module by its path in the output folder, without `.ts`: `tools/list-incidents`. */
  load(stem: string): Promise<Module>;
  dispose(): Promise<void>;
}

export interface GeneratedModules {
  index: Module;
  runtime: Module;
  resource(stem: string): Promise<Module>;
  dispose(): Promise<void>;
}

const WORKER = new URL("./strip-worker.js", import.meta.url);

/**
 * Makes generated TypeScript runnable: each module, its types blanked out, is written as
 * JavaScript to a temporary folder, to be imported from there. The blanking runs in a worker
 * thread, started at once: loading TypeScript's parser and writing the modules sent first (the
 * runtime) overlap whatever the caller does next. Run from the sources (by the test runner),
 * where there is no compiled worker to start, the same work is done in this thread.
 */
export function runnableFolder(): RunnableFolder {
  const dir = mkdtempSync(join(tmpdir(), "projector-run-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const worker = existsSync(fileURLToPath(WORKER)) ? new Worker(WORKER, { workerData: { dir } }) : undefined;
  const pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  let batches = 0;
  let failure: Error | undefined;
  // The worker keeps the process alive only while modules are on their way.
  worker?.unref();
  const settle = (batch: number, error?: Error) => {
    const waiting = pending.get(batch);
    pending.delete(batch);
    if (pending.size === 0) worker?.unref();
    if (error) waiting?.reject(error);
    else waiting?.resolve();
  };
  worker?.on("message", ({ batch, error }: StripReply) => settle(batch, error === undefined ? undefined : new Error(error)));
  worker?.on("error", (error) => {
    failure = error;
    for (const batch of [...pending.keys()]) settle(batch, error);
  });
  return {
    add(files) {
      if (!worker) return Promise.resolve().then(() => writeStripped(dir, files));
      if (failure) return Promise.reject(failure);
      const batch = batches++;
      worker.ref();
      const written = new Promise<void>((resolve, reject) => pending.set(batch, { resolve, reject }));
      const request: StripRequest = { batch, files: [...files] };
      worker.postMessage(request);
      return written;
    },
    load: async (stem) => (await import(pathToFileURL(join(dir, `${stem}.js`)).href)) as Module,
    dispose: async () => {
      await worker?.terminate();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The whole generated folder, runnable: its barrel, the runtime's, and any resource module. */
export async function loadGenerated(files: ReadonlyMap<string, string>): Promise<GeneratedModules> {
  const folder = runnableFolder();
  try {
    await folder.add(files);
    return {
      index: await folder.load("index"),
      runtime: await folder.load(RUNTIME_MODULE),
      resource: (stem) => folder.load(`resources/${stem}`),
      dispose: folder.dispose,
    };
  } catch (error) {
    await folder.dispose();
    throw error;
  }
}
