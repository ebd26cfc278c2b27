import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import * as prettier from "prettier";
import { putLiteralsBack, setLiteralsAside, type SetAside } from "./format-literals.js";

/** Prettier's babel-ts parser prints generated TypeScript the same as its typescript parser, twice as fast. */
const PARSER = "babel-ts";

/** Below this many files a worker's start-up costs more than it saves. */
const PARALLEL_FROM = 40;

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.prettier).then(async (prettier) => {
  const out = [];
  for (const [path, text] of workerData.files) out.push([path, await prettier.format(text, { ...workerData.options, parser: "${PARSER}", filepath: path })]);
  parentPort.postMessage(out);
}, (error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
`;

function formatInWorker(files: [string, string][], options: prettier.Options): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { files, options, prettier: import.meta.resolve("prettier") } });
    worker.once("message", (message: [string, string][] | { error: string }) => {
      void worker.terminate();
      if ("error" in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once("error", reject);
  });
}

/** Formats generated TypeScript with the consumer's prettier options (or prettier's defaults). */
export async function formatFiles(files: Map<string, string>, options: prettier.Options | null): Promise<Map<string, string>> {
  // The JSON literals are printed here only in prettier's default layout, which a consumer's options may change.
  const defaults = options === null || Object.keys(options).length === 0;
  const aside = new Map<string, SetAside>();
  const todo: [string, string][] = [...files].map(([path, text]) => {
    const set = defaults ? setLiteralsAside(text, prettier.util.getStringWidth) : undefined;
    if (set === undefined) return [path, text];
    aside.set(path, set);
    return [path, set.skeleton];
  });
  const formatted = await formatAll(todo, options ?? {});
  const result = new Map<string, string>();
  for (const [path, text] of files) {
    const set = aside.get(path);
    const back = set && putLiteralsBack(formatted.get(path)!, set);
    result.set(path, set === undefined ? formatted.get(path)! : (back ?? (await formatOne(path, text, options ?? {}))));
  }
  return result;
}

const formatOne = (path: string, text: string, options: prettier.Options) =>
  prettier.format(text, { ...options, parser: PARSER, filepath: path });

async function formatAll(todo: [string, string][], options: prettier.Options): Promise<Map<string, string>> {
  const formatted = new Map<string, string>();
  // One core stays free for openapi-typescript, which runs meanwhile on the main thread.
  const workers = Math.max(1, Math.min(availableParallelism() - 1, 4));
  if (todo.length >= PARALLEL_FROM) {
    const shares = Array.from({ length: workers }, (_, i) => todo.filter((_, j) => j % workers === i));
    for (const share of await Promise.all(shares.map((share) => formatInWorker(share, options))))
      for (const [path, text] of share) formatted.set(path, text);
  } else {
    for (const [path, text] of todo) formatted.set(path, await formatOne(path, text, options));
  }
  return formatted;
}

/** The prettier config that applies to files in `folder`, if the consumer has one. */
export async function consumerPrettierConfig(folder: string): Promise<prettier.Options | null> {
  return prettier.resolveConfig(`${folder}/index.ts`, { editorconfig: false });
}
