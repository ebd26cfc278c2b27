import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type * as Prettier from "prettier";
import { putLiteralsBack, setLiteralsAside, type SetAside } from "./format-literals.js";
import { printLikePrettier } from "./prettier-layout/index.js";
import { textWidth } from "./prettier-layout/literals.js";
import { Unsure } from "./prettier-layout/source.js";
import { RUNTIME_FOLDER } from "./emit/runtime-folder.js";
import { loadPrettier, prettierVersion } from "./prettier-config.js";

/**
 * The prettier releases whose layout src/prettier-layout reproduces, checked file by file against
 * prettier on every golden scenario and real spec. A consumer on another release gets prettier itself.
 */
const LAID_OUT_AS = /^3\.10\./;

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

function formatInWorker(files: [string, string][], options: Prettier.Options): Promise<[string, string][]> {
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

/**
 * Formats generated TypeScript with the consumer's prettier options (or prettier's defaults). With
 * the defaults of the prettier release it mirrors, prettier's formatter is not run: the runtime's
 * modules are kept in that layout in this repository (test/runtime-layout.test.ts), and the emitted
 * files are laid out by printLikePrettier; only a file holding syntax it does not lay out goes to prettier.
 */
export async function formatFiles(files: Map<string, string>, options: Prettier.Options | null): Promise<Map<string, string>> {
  // Generated code is laid out here only in prettier's default layout, which a consumer's options may change.
  const defaults = options === null || Object.keys(options).length === 0;
  const laidOutHere = defaults && LAID_OUT_AS.test(prettierVersion());
  const result = new Map<string, string>();
  const left = new Map<string, string>();
  for (const [path, text] of files) {
    const printed = laidOutHere ? (path.startsWith(`${RUNTIME_FOLDER}/`) ? text : layOut(text)) : undefined;
    if (printed === undefined) left.set(path, text);
    else result.set(path, printed);
  }
  if (left.size === 0) return result;
  const prettier = await loadPrettier();
  for (const [path, text] of await formatWithPrettier(prettier, left, options, defaults)) result.set(path, text);
  return new Map([...files.keys()].map((path) => [path, result.get(path)!]));
}

/** The file in prettier's default layout without prettier: its JSON literals and imports printed on their own, the rest by printLikePrettier. */
function layOut(written: string): string | undefined {
  // Prettier's first step with its default `endOfLine: "lf"`: every line ending a line feed, in comments too.
  const text = written.includes("\r") ? written.replace(/\r\n?/g, "\n") : written;
  let aside: SetAside | undefined;
  try {
    aside = setLiteralsAside(text, textWidth);
  } catch (error) {
    // Text too wide to measure here: the doc printer measures it as prettier does.
    if (error instanceof Unsure) return printLikePrettier(text);
    throw error;
  }
  if (aside === undefined) return printLikePrettier(text);
  const skeleton = printLikePrettier(aside.skeleton);
  return skeleton === undefined ? undefined : putLiteralsBack(skeleton, aside);
}

async function formatWithPrettier(
  prettier: typeof Prettier,
  files: Map<string, string>,
  options: Prettier.Options | null,
  defaults: boolean,
): Promise<Map<string, string>> {
  const aside = new Map<string, SetAside>();
  const todo: [string, string][] = [...files].map(([path, text]) => {
    const set = defaults ? setLiteralsAside(text, prettier.util.getStringWidth) : undefined;
    if (set === undefined) return [path, text];
    aside.set(path, set);
    return [path, set.skeleton];
  });
  const formatted = await formatAll(prettier, todo, options ?? {});
  const result = new Map<string, string>();
  for (const [path, text] of files) {
    const set = aside.get(path);
    const back = set && putLiteralsBack(formatted.get(path)!, set);
    result.set(path, set === undefined ? formatted.get(path)! : (back ?? (await formatOne(prettier, path, text, options ?? {}))));
  }
  return result;
}

const formatOne = (prettier: typeof Prettier, path: string, text: string, options: Prettier.Options) =>
  prettier.format(text, { ...options, parser: PARSER, filepath: path });

async function formatAll(prettier: typeof Prettier, todo: [string, string][], options: Prettier.Options): Promise<Map<string, string>> {
  const formatted = new Map<string, string>();
  // One core stays free for openapi-typescript, which types the spec meanwhile in its own thread.
  const workers = Math.max(1, Math.min(availableParallelism() - 1, 4));
  if (todo.length >= PARALLEL_FROM) {
    const shares = Array.from({ length: workers }, (_, i) => todo.filter((_, j) => j % workers === i));
    for (const share of await Promise.all(shares.map((share) => formatInWorker(share, options))))
      for (const [path, text] of share) formatted.set(path, text);
  } else {
    for (const [path, text] of todo) formatted.set(path, await formatOne(prettier, path, text, options));
  }
  return formatted;
}
