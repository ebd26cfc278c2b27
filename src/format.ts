import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type * as Prettier from "prettier";
import { loadPrettier } from "./prettier-config.js";

/** Prettier's babel-ts parser prints generated TypeScript the same as its typescript parser, and is the quicker of the two. */
const PARSER = "babel-ts";

/** Below this many files a worker's start-up costs more than it saves. */
const PARALLEL_FROM = 40;

type Job = [path: string, text: string, options: Prettier.Options | null];

/**
 * The jobs and the index of the next one to take, shared by every thread: each takes the next job
 * when it is free, without asking another thread, which may be busy with other work for a while.
 * Past the last job, or once the index is pushed past it, a thread stops.
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { jobs, next } = workerData;
const taken = new Int32Array(next);
import(workerData.prettier).then(async (prettier) => {
  const done = [];
  for (let i = Atomics.add(taken, 0, 1); i < jobs.length; i = Atomics.add(taken, 0, 1)) {
    const [path, text, options] = jobs[i];
    done.push([i, await prettier.format(text, { ...options, parser: "${PARSER}", filepath: path })]);
  }
  parentPort.postMessage(done);
}).catch((error) => {
  Atomics.store(taken, 0, jobs.length);
  parentPort.postMessage({ error: String((error && error.stack) || error) });
});
`;

function formatInWorker(jobs: readonly Job[], next: SharedArrayBuffer): Promise<[number, string][]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { jobs, next, prettier: import.meta.resolve("prettier") } });
    worker.once("message", (message: [number, string][] | { error: string }) => {
      void worker.terminate();
      if ("error" in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once("error", reject);
  });
}

async function formatHere(jobs: readonly Job[], next: SharedArrayBuffer, prettier: Promise<typeof Prettier>): Promise<[number, string][]> {
  const { format } = await prettier;
  const taken = new Int32Array(next);
  const done: [number, string][] = [];
  try {
    for (let i = Atomics.add(taken, 0, 1); i < jobs.length; i = Atomics.add(taken, 0, 1)) {
      const [path, text, options] = jobs[i]!;
      done.push([i, await format(text, { ...options, parser: PARSER, filepath: path })]);
    }
  } catch (error) {
    Atomics.store(taken, 0, jobs.length);
    throw error;
  }
  return done;
}

/**
 * Formats generated TypeScript with prettier and the consumer's prettier options for each file (or
 * prettier's defaults). From PARALLEL_FROM files on, worker threads take files from one queue, and
 * this thread takes its share too once `thisThreadFree` settles: until then it has other work.
 */
export async function formatFiles(
  files: Map<string, string>,
  optionsOf: (path: string) => Prettier.Options | null,
  thisThreadFree: Promise<unknown> = Promise.resolve(),
): Promise<Map<string, string>> {
  // Largest first: the files left at the end are small, so no thread waits long on another's last one.
  const jobs = [...files].map(([path, text]): Job => [path, text, optionsOf(path)]).sort((a, b) => b[1].length - a[1].length);
  const next = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const prettier = loadPrettier();
  // One core stays with this thread, which types the spec meanwhile.
  const workers = files.size >= PARALLEL_FROM ? Math.max(1, Math.min(availableParallelism() - 1, 4)) : 0;
  const here = () => formatHere(jobs, next, prettier);
  // Each worker imports prettier's plugins anew, as they are now; this thread keeps its first import
  // for the life of the process (generate --watch), so it formats with plugins only without workers.
  const helps = workers === 0 || !jobs.some(([, , options]) => options?.plugins?.length);
  const shares = await Promise.all([
    ...Array.from({ length: workers }, () => formatInWorker(jobs, next)),
    ...(helps ? [thisThreadFree.then(here, here)] : []),
  ]);
  const formatted = new Map(shares.flat().map(([i, text]) => [jobs[i]![0], text]));
  return new Map([...files.keys()].map((path) => [path, formatted.get(path)!]));
}
