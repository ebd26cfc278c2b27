// The thread behind a runnable folder (run-generated.ts): TypeScript loads here, and the modules
// are transpiled and written here, while the main thread goes on drafting.
import { parentPort, workerData } from "node:worker_threads";
import { typescriptFromCodeCache } from "../code-cache.js";
import { serveRequests, type Batch } from "./worker-client.js";
import { typescript, writeJavaScript } from "./write-javascript.js";

export interface WriteRequest {
  files: [path: string, text: string][];
}

const { dir } = workerData as { dir: string };
// Loaded at once, before the first modules arrive: from V8's code cache where there is one, which
// is saved once the first modules are transpiled, with the transpiler's functions compiled.
const cached = typescriptFromCodeCache();
if (!cached) typescript();
if (parentPort)
  serveRequests<WriteRequest & Batch>(parentPort, ({ files }) => {
    writeJavaScript(dir, files);
    cached?.save();
    return {};
  });
