import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type * as Prettier from "prettier";
import { loadPrettier, prettierVersion, type PrettierOptionsFor } from "./prettier-config.js";

/** Prettier's babel-ts parser prints generated TypeScript the same as its typescript parser, and is the quicker of the two. */
const PARSER = "babel-ts";

/** Below this many files to format a worker's start-up costs more than it saves. */
const PARALLEL_FROM = 40;

/** One core stays with the main thread, which types the spec meanwhile. */
const WORKERS = Math.max(1, Math.min(availableParallelism() - 1, 4));

/** Formats one file per message, in the order they come, with prettier loaded once. */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const loading = import(workerData.prettier);
let queue = Promise.resolve();
parentPort.on("message", ({ id, path, text, options }) => {
  queue = queue.then(async () => {
    try {
      const prettier = await loading;
      parentPort.postMessage({ id, text: await prettier.format(text, { ...options, parser: "${PARSER}", filepath: path }) });
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.stack) || error) });
    }
  });
});
`;

/** What prettier's output depends on, as a digest: its release, the options it was given and the text. */
export const formatKey = (prettierRelease: string, options: unknown, text: string): string =>
  createHash("sha256")
    .update(`${prettierRelease}\0${JSON.stringify(options ?? null)}\0`)
    .update(text)
    .digest("hex");

/** One set of options for every file, the consumer's for each file (consumerPrettierConfig), or null for prettier's defaults. */
export type PrettierOptionsInput = Prettier.Options | PrettierOptionsFor | null;

/**
 * Prettier over the files of one generate, each text formatted once: a caller may ask for some files
 * early (the runtime's modules, which depend on nothing but the templates, before the spec loads) and
 * for all of them later, and the later ask waits for the earlier work instead of doing it again.
 */
export interface FormatSession {
  /** Each file formatted with its options, taken from `known` where formatted before. */
  format(files: ReadonlyMap<string, string>): Promise<Map<string, string>>;
  /** The formatted texts the session's files have, by format key; files whose options load plugins have none. */
  readonly used: ReadonlyMap<string, string>;
  /** Stops the workers; the session formats nothing after. */
  close(): void;
}

/**
 * A session formatting with `options`, taking from `known` (formatted texts by format key: the last
 * run's, or a watcher's) every text it holds. From PARALLEL_FROM files on, prettier runs in worker
 * threads, each file given to the one with the least text waiting.
 */
export function formatSession(options: PrettierOptionsInput, known: ReadonlyMap<string, string> = new Map()): FormatSession {
  // Read on the first ask: a generate whose files are only run (serve) never needs prettier.
  let release: string | undefined;
  const pending = new Map<string, Promise<string>>();
  const used = new Map<string, string>();
  let pool: WorkerPool | undefined;
  let closed = false;
  const optionsFor = async (paths: readonly string[]) => {
    if (typeof options !== "function") return () => options;
    const byFile = await options(paths);
    return (path: string) => byFile?.[path] ?? null;
  };
  return {
    used,
    async format(files) {
      if (closed) throw new Error("the format session is closed");
      const optionsOf = await optionsFor([...files.keys()]);
      const todo: FormatJob[] = [];
      const texts = [...files].map(([path, text]) => {
        const fileOptions = optionsOf(path);
        // No key covers a plugin's code: such a file is formatted anew and never kept.
        release ??= prettierVersion();
        const key = fileOptions?.plugins?.length ? undefined : formatKey(release, fileOptions, text);
        const ready = key === undefined ? undefined : (pending.get(key) ?? known.get(key));
        if (ready !== undefined) return Promise.resolve(ready).then((formatted) => keep(key, formatted));
        const job: FormatJob = { path, text, options: fileOptions, done: promised() };
        todo.push(job);
        if (key !== undefined) pending.set(key, job.done.promise);
        return job.done.promise.then((formatted) => keep(key, formatted));
      });
      if (todo.length >= PARALLEL_FROM || (pool && todo.length > 0)) {
        pool ??= workerPool();
        pool.run(todo);
      } else if (todo.length > 0) void formatHere(todo);
      const formatted = await Promise.all(texts);
      return new Map([...files.keys()].map((path, i) => [path, formatted[i]!]));
    },
    close() {
      closed = true;
      pool?.close();
    },
  };
  function keep(key: string | undefined, formatted: string): string {
    if (key !== undefined) used.set(key, formatted);
    return formatted;
  }
}

interface FormatJob {
  path: string;
  text: string;
  options: Prettier.Options | null;
  done: Promised<string>;
}

interface Promised<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function promised<T>(): Promised<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A file asked for early may fail before anyone waits for it: the later ask hears of it.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

async function formatHere(jobs: readonly FormatJob[]): Promise<void> {
  try {
    const prettier = await loadPrettier();
    for (const job of jobs) job.done.resolve(await prettier.format(job.text, { ...job.options, parser: PARSER, filepath: job.path }));
  } catch (error) {
    for (const job of jobs) job.done.reject(error);
  }
}

interface WorkerPool {
  run(jobs: readonly FormatJob[]): void;
  close(): void;
}

/** Worker threads formatting files; a worker keeps the process alive only while it has files to format. */
function workerPool(): WorkerPool {
  const prettier = import.meta.resolve("prettier");
  const workers = Array.from({ length: WORKERS }, () => {
    const worker = new Worker(WORKER, { eval: true, workerData: { prettier } });
    worker.unref();
    const waiting = new Map<number, FormatJob>();
    const state = { worker, waiting, characters: 0 };
    worker.on("message", (message: { id: number; text?: string; error?: string }) => {
      const job = waiting.get(message.id);
      if (!job) return;
      waiting.delete(message.id);
      state.characters -= job.text.length;
      if (waiting.size === 0) worker.unref();
      if (message.error !== undefined) job.done.reject(new Error(message.error));
      else job.done.resolve(message.text!);
    });
    worker.on("error", (error) => {
      for (const job of waiting.values()) job.done.reject(error);
      waiting.clear();
    });
    return state;
  });
  let nextId = 0;
  return {
    run(jobs) {
      // The longest texts first, each to the worker with the least text waiting.
      for (const job of [...jobs].sort((a, b) => b.text.length - a.text.length)) {
        const least = workers.reduce((a, b) => (b.characters < a.characters ? b : a));
        const id = nextId++;
        least.waiting.set(id, job);
        least.characters += job.text.length;
        least.worker.ref();
        least.worker.postMessage({ id, path: job.path, text: job.text, options: job.options });
      }
    },
    close() {
      for (const { worker, waiting } of workers) {
        for (const job of waiting.values()) job.done.reject(new Error("the format session closed before the file was formatted"));
        void worker.terminate();
      }
    },
  };
}
