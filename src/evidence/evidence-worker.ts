// The thread behind a runnable folder (run-generated.ts): TypeScript's parser and the tokenizer
// load here, and the modules are written, projected and counted here, while the main thread goes
// on reading the spec and drafting.
import { parentPort, workerData } from "node:worker_threads";
import { exampleFigures, type FigureCandidate, type TextFigures } from "./example-figures.js";
import { typescript } from "./strip-types.js";
import { TOKENIZERS } from "./tokens.js";
import { importFrom, writeStripped } from "./write-stripped.js";

export type WorkerTask = { write: [path: string, text: string][] } | { count: FigureCandidate[]; resolvers: string[] };
export type WorkerRequest = WorkerTask & { batch: number };
export interface WorkerReply {
  batch: number;
  figures?: [tool: string, figures: TextFigures][];
  error?: string;
}
export interface WorkerData {
  dir: string;
  /** Whether the folder's examples will be counted: the tokenizer then loads at once. */
  counts: boolean;
}

const { dir, counts } = workerData as WorkerData;
// Loaded at once, before the first request arrives.
typescript();
if (counts) TOKENIZERS.o200k_base();
const load = importFrom(dir);
parentPort?.on("message", (request: WorkerRequest) => {
  const answer = async (): Promise<WorkerReply> => {
    if ("write" in request) {
      writeStripped(dir, request.write);
      return { batch: request.batch };
    }
    return { batch: request.batch, figures: await exampleFigures(load, request.count, request.resolvers) };
  };
  answer().then(
    (reply) => parentPort?.postMessage(reply),
    (error: unknown) => parentPort?.postMessage({ batch: request.batch, error: error instanceof Error ? error.message : String(error) }),
  );
});
