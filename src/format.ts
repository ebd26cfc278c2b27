import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type * as Prettier from "prettier";
import { join } from "node:path";
import type { Diagnostic } from "./diagnostics.js";
import { loadPrettier, PrettierConfigError, prettierVersion, type PrettierOptionsFor } from "./prettier-config.js";

/**
 * Prettier's babel-ts parser prints generated TypeScript the same as the typescript parser the
 * prettier CLI infers for a `.ts` file (test/format-session.test.ts compares the two on every
 * runtime module and a generated folder), and is the quicker. With plugins, which may replace either
 * parser, or a parser the consumer's options name, prettier is left to choose as its CLI does.
 */
const QUICK_PARSER = "babel-ts";

/** The options prettier formats a file with: the consumer's, and the quick parser where nothing else can choose. */
function prettierOptions(path: string, options: Prettier.Options | null): Prettier.Options {
  const choosesItself = options?.parser !== undefined || (options?.plugins?.length ?? 0) > 0;
  return { ...(choosesItself ? {} : { parser: QUICK_PARSER }), ...options, filepath: path };
}

/** Plugins given as modules rather than names cannot go to another thread: such a file is formatted here. */
const movable = (options: Prettier.Options | null) => (options?.plugins ?? []).every((plugin) => typeof plugin === "string");

/** Prettier refused to format a file: the consumer's config or a plugin, or, with none, generated code it cannot read. */
export class FormatFailure extends Error {
  constructor(
    readonly path: string,
    readonly text: string,
    readonly options: Prettier.Options | null,
    readonly reason: string,
  ) {
    super(`prettier cannot format ${path}: ${reason}`);
    this.name = "FormatFailure";
  }
}

/** Below this many files to format a worker's start-up costs more than it saves. */
const PARALLEL_FROM = 40;

/** One core stays with the main thread, which types the spec meanwhile. */
const WORKERS = Math.max(1, Math.min(availableParallelism() - 1, 4));

/** Formats one file per message, in the order they come, with prettier loaded once. */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const loading = import(workerData.prettier);
let queue = Promise.resolve();
parentPort.on("message", ({ id, text, options }) => {
  queue = queue.then(async () => {
    try {
      const prettier = await loading;
      parentPort.postMessage({ id, text: await prettier.format(text, options) });
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.message) || error) });
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
  /**
   * Settles once every file asked for so far is with prettier: their options read (the consumer's
   * config, read asynchronously) and the files sent to the workers. A caller about to hold the
   * thread with work of its own (loading the spec) waits for this first, or the workers start only
   * when that work is over.
   */
  started(): Promise<void>;
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
  const sent: Array<Promise<unknown>> = [];
  const optionsFor = async (paths: readonly string[]) => {
    if (typeof options !== "function") return () => options;
    const byFile = await options(paths);
    return (path: string) => byFile?.[path] ?? null;
  };
  return {
    used,
    async format(files) {
      if (closed) throw new Error("the format session is closed");
      const sending = send(files);
      sent.push(sending);
      const texts = await sending;
      const formatted = await Promise.all(texts);
      return new Map([...files.keys()].map((path, i) => [path, formatted[i]!]));
    },
    async started() {
      await Promise.allSettled(sent);
    },
    close() {
      closed = true;
      pool?.close();
    },
  };
  /** Sends each file to prettier, or takes its text from the known; the formatted texts, in the files' order. */
  async function send(files: ReadonlyMap<string, string>): Promise<Array<Promise<string>>> {
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
    const here = todo.filter((job) => !movable(job.options));
    const elsewhere = todo.filter((job) => movable(job.options));
    if (elsewhere.length >= PARALLEL_FROM || (pool && elsewhere.length > 0)) {
      pool ??= workerPool();
      pool.run(elsewhere);
    } else here.push(...elsewhere);
    if (here.length > 0) void formatHere(here);
    return texts;
  }
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
  let prettier: typeof Prettier;
  try {
    prettier = await loadPrettier();
  } catch (error) {
    for (const job of jobs) job.done.reject(error);
    return;
  }
  for (const job of jobs)
    try {
      job.done.resolve(await prettier.format(job.text, prettierOptions(job.path, job.options)));
    } catch (error) {
      job.done.reject(new FormatFailure(job.path, job.text, job.options, error instanceof Error ? error.message : String(error)));
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
      if (message.error !== undefined) job.done.reject(new FormatFailure(job.path, job.text, job.options, message.error));
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
        least.worker.postMessage({ id, text: job.text, options: prettierOptions(job.path, job.options) });
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

/**
 * The consumer's prettier config as the cause of a failure to format, said as a problem with the
 * inputs (PRJ059) at the config file prettier uses for the output folder; undefined where the
 * failure is not the config's: prettier with its defaults cannot read the generated text either.
 */
export async function prettierConfigProblem(
  error: unknown,
  outputFolder: string,
  display: (path: string) => string = (path) => path,
): Promise<Diagnostic | undefined> {
  const consumers = error instanceof PrettierConfigError || (error instanceof FormatFailure && error.options !== null);
  if (!consumers) return undefined;
  const prettier = await loadPrettier();
  const path = error instanceof FormatFailure ? error.path : "index.ts";
  if (error instanceof FormatFailure) {
    try {
      await prettier.format(error.text, prettierOptions(path, null));
    } catch {
      return undefined;
    }
  }
  const configFile = await prettier.resolveConfigFile(join(outputFolder, path)).catch(() => null);
  // prettier names the files it read by their absolute paths: named here as every other file is.
  const reason = (error as FormatFailure | PrettierConfigError).reason
    .replace(/(?<=^|[\s'"(])(?:file:\/\/)?(\/[^\s'"`,;()]+)/g, (_written, path: string) => display(path))
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
  // A config prettier cannot parse names the place in its message: "... at line 3, column 1".
  const place = error instanceof PrettierConfigError ? /\bline (\d+), column (\d+)/.exec(reason) : null;
  return {
    code: "PRJ059",
    severity: "error",
    message:
      error instanceof FormatFailure
        ? `prettier cannot format ${display(join(outputFolder, path))} with your prettier config: ${reason}`
        : `prettier cannot read your prettier config: ${reason}`,
    help: "fix the config, or the plugin it loads: `npx prettier --check` on that file shows the same problem",
    location: {
      file: display(configFile ?? outputFolder),
      ...(place ? { line: Number(place[1]), column: Number(place[2]) } : {}),
    },
  };
}
