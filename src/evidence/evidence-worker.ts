// The thread behind a runnable folder (run-generated.ts): TypeScript's parser loads here, and the
// modules are blanked and written here, while the main thread goes on drafting.
import { parentPort, workerData } from "node:worker_threads";
import { typescript } from "./strip-types.js";
import { serveRequests, type Batch } from "./worker-client.js";
import { writeStripped } from "./write-stripped.js";

export interface WriteRequest {
  files: [path: string, text: string][];
}

const { dir } = workerData as { dir: string };
// Loaded at once, before the first modules arrive.
typescript();
if (parentPort)
  serveRequests<WriteRequest & Batch>(parentPort, ({ files }) => {
    writeStripped(dir, files);
    return {};
  });
