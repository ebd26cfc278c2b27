// The thread that writes a runnable folder's modules (run-generated.ts): TypeScript's parser loads
// and runs here while the main thread goes on drafting, loading the tokenizer or projecting.
import { parentPort, workerData } from "node:worker_threads";
import { typescript } from "./strip-types.js";
import { writeStripped } from "./write-stripped.js";

export interface StripRequest {
  batch: number;
  files: [path: string, text: string][];
}
export interface StripReply {
  batch: number;
  error?: string;
}

const { dir } = workerData as { dir: string };
// Loaded at once, before the first modules arrive.
typescript();
parentPort?.on("message", ({ batch, files }: StripRequest) => {
  let reply: StripReply = { batch };
  try {
    writeStripped(dir, files);
  } catch (error) {
    reply = { batch, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
