// The thread behind a runnable folder (run-generated.ts): TypeScript loads here, and the modules
// are transpiled and written here, while the main thread goes on drafting.
import { parentPort, workerData } from "node:worker_threads";
import { serveRequests, type Batch } from "./worker-client.js";
import { typescript, writeJavaScript } from "./write-javascript.js";

export interface WriteRequest {
  files: [path: string, text: string][];
}

const { dir } = workerData as { dir: string };
// Loaded at once, before the first modules arrive.
typescript();
if (parentPort)
  serveRequests<WriteRequest & Batch>(parentPort, ({ files }) => {
    writeJavaScript(dir, files);
    return {};
  });
