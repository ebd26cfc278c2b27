import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { RUNTIME_MODULE } from "../emit/module.js";
import type { WorkerReply, WorkerRequest } from "./evidence-worker.js";
import { importFrom, writeStripped } from "./write-stripped.js";

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

const WORKER = new URL("./evidence-worker.js", import.meta.url);

/**
 * Makes generated TypeScript runnable: each module, its types blanked out, is written as
 * JavaScript to a temporary folder, to be imported from there. The work runs in a worker thread,
 * started at once: loading TypeScript's parser and writing the modules sent first (the runtime)
 * overlap whatever the caller does next. Run from the sources (by the test runner), where there
 * is no compiled worker to start, the same work is done in this thread.
 */
export function runnableFolder(): RunnableFolder {
  const dir = mkdtempSync(join(tmpdir(), "projector-run-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const load = importFrom(dir);
  const worker = existsSync(fileURLToPath(WORKER)) ? new Worker(WORKER, { workerData: { dir } }) : undefined;
  if (!worker) {
    return {
      add: async (files) => writeStripped(dir, files),
      load,
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  let batches = 0;
  let failure: Error | undefined;
  // The worker keeps the process alive only while a request is on its way.
  worker.unref();
  const settle = (batch: number, reply: WorkerReply | Error) => {
    const waiting = pending.get(batch);
    pending.delete(batch);
    if (pending.size === 0) worker.unref();
    if (reply instanceof Error) waiting?.reject(reply);
    else if (reply.error !== undefined) waiting?.reject(new Error(reply.error));
    else waiting?.resolve();
  };
  worker.on("message", (reply: WorkerReply) => settle(reply.batch, reply));
  worker.on("error", (error) => {
    failure = error;
    for (const batch of [...pending.keys()]) settle(batch, error);
  });
  return {
    add(files) {
      if (failure) return Promise.reject(failure);
      const batch = batches++;
      worker.ref();
      const written = new Promise<void>((resolve, reject) => pending.set(batch, { resolve, reject }));
      const request: WorkerRequest = { batch, files: [...files] };
      worker.postMessage(request);
      return written;
    },
    load,
    dispose: async () => {
      await worker.terminate();
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
