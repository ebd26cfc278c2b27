// The thread behind a runnable folder (run-generated.ts): TypeScript's parser loads here, and the
// modules are blanked and written here, while the main thread goes on drafting or loading the tokenizer.
import { parentPort, workerData } from "node:worker_threads";
import { typescript } from "./strip-types.js";
import { writeStripped } from "./write-stripped.js";

export interface WorkerRequest {
  batch: number;
  files: [path: string, text: string][];
}
export interface WorkerReply {
  batch: number;
  error?: string;
}

const { dir } = workerData as { dir: string };
// Loaded at once, before the first modules arrive.
typescript();
parentPort?.on("message", ({ batch, files }: WorkerRequest) => {
  let reply: WorkerReply = { batch };
  try {
    writeStripped(dir, files);
  } catch (error) {
    reply = { batch, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
