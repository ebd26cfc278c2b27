import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type * as Prettier from "prettier";
import { loadPrettier } from "./prettier-config.js";

/** Prettier's babel-ts parser prints generated TypeScript the same as its typescript parser, and is the quicker of the two. */
const PARSER = "babel-ts";

/** Below this many files a worker's start-up costs more than it saves. */
const PARALLEL_FROM = 40;

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.prettier).then(async (prettier) => {
  const out = [];
  for (const [path, text, options] of workerData.files) out.push([path, await prettier.format(text, { ...options, parser: "${PARSER}", filepath: path })]);
  parentPort.postMessage(out);
}, (error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
`;

function formatInWorker(files: [string, string, Prettier.Options | null][]): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { files, prettier: import.meta.resolve("prettier") } });
    worker.once("message", (message: [string, string][] | { error: string }) => {
      void worker.terminate();
      if ("error" in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once("error", reject);
  });
}

/** Formats generated TypeScript with prettier and the consumer's prettier options for each file (or prettier's defaults). */
export async function formatFiles(
  files: Map<string, string>,
  optionsOf: (path: string) => Prettier.Options | null,
): Promise<Map<string, string>> {
  const todo = [...files].map(([path, text]) => [path, text, optionsOf(path)] as [string, string, Prettier.Options | null]);
  const formatted = new Map<string, string>();
  // One core stays with the main thread, which types the spec meanwhile.
  const workers = Math.max(1, Math.min(availableParallelism() - 1, 4));
  if (todo.length >= PARALLEL_FROM) {
    const shares = Array.from({ length: workers }, (_, i) => todo.filter((_, j) => j % workers === i));
    for (const share of await Promise.all(shares.map((share) => formatInWorker(share))))
      for (const [path, text] of share) formatted.set(path, text);
  } else {
    const prettier = await loadPrettier();
    for (const [path, text, options] of todo)
      formatted.set(path, await prettier.format(text, { ...options, parser: PARSER, filepath: path }));
  }
  return new Map([...files.keys()].map((path) => [path, formatted.get(path)!]));
}
