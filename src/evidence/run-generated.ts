import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUNTIME_MODULE } from "../emit/module.js";
import type { WriteRequest } from "./evidence-worker.js";
import { startWorker, type BatchReply } from "./worker-client.js";
import { importFrom, writeJavaScript } from "./write-javascript.js";

export type Module = Record<string, unknown>;

/** A generated `project<Tool>` function: a response and the resolvers in, the tool's result out. */
export type Projector<Result> = (response: unknown, resolvers: unknown, options?: unknown) => Promise<Result>;

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
  dispose(): Promise<void>;
}

/**
 * Makes generated TypeScript runnable: each module is written as JavaScript to a temporary folder,
 * to be imported from there, in a worker thread, started at once, so that the writing overlaps
 * whatever the caller does next.
 */
export function runnableFolder(): RunnableFolder {
  const dir = mkdtempSync(join(tmpdir(), "projector-run-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const worker = startWorker<WriteRequest, BatchReply>(new URL("./evidence-worker.js", import.meta.url), { dir });
  return {
    add: async (files) => {
      if (worker) await worker.ask({ files: [...files] });
      else writeJavaScript(dir, files);
    },
    load: importFrom(dir),
    dispose: async () => {
      await worker?.terminate();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The whole generated folder, runnable: its barrel and the runtime's. */
export async function loadGenerated(files: ReadonlyMap<string, string>): Promise<GeneratedModules> {
  const folder = runnableFolder();
  try {
    await folder.add(files);
    return {
      index: await folder.load("index"),
      runtime: await folder.load(RUNTIME_MODULE),
      dispose: folder.dispose,
    };
  } catch (error) {
    await folder.dispose();
    throw error;
  }
}
