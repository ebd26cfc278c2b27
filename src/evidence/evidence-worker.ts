// The thread behind a runnable folder (run-generated.ts): the modules have their types removed and
// are written here, while the main thread goes on drafting.
import { parentPort, workerData } from "node:worker_threads";
import { serveRequests, type Batch } from "./worker-client.js";
import { writeJavaScript } from "./write-javascript.js";

export interface WriteRequest {
  files: [path: string, text: string][];
}

const { dir } = workerData as { dir: string };
if (parentPort)
  serveRequests<WriteRequest & Batch>(parentPort, ({ files }) => {
    writeJavaScript(dir, files);
    return {};
  });
