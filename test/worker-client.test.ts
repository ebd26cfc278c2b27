// The evidence module's worker threads: a worker stopped while it works, or before it is asked
// anything, must not leave its caller waiting, nor a request unanswered.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { startWorker, type BatchReply } from "../src/evidence/worker-client.js";
import { tempDir } from "./helpers/pipeline.js";

/** A worker that answers each request after holding its thread with work, as one transpiling the runtime does. */
function busyWorker(): URL {
  const file = join(tempDir(), "busy-worker.mjs");
  writeFileSync(
    file,
    `import { parentPort } from "node:worker_threads";
parentPort.on("message", ({ batch, spins }) => {
  let sum = 0;
  for (let i = 0; i < spins; i++) sum += Math.sqrt(i);
  parentPort.postMessage({ batch, sum });
});
`,
  );
  return pathToFileURL(file);
}

describe("a worker thread of the evidence module", () => {
  it("is stopped while it still works on a request: the request is answered, and stopping it ends", async () => {
    const worker = startWorker<{ spins: number }, BatchReply & { sum: number }>(busyWorker(), {})!;
    const answered = worker.ask({ spins: 50_000_000 });
    await worker.terminate();
    expect((await answered).sum).toBeGreaterThan(0);
  });

  it("is stopped before it is asked anything, and stopping it ends", async () => {
    const worker = startWorker<{ spins: number }, BatchReply>(busyWorker(), {})!;
    await expect(worker.terminate()).resolves.toBeUndefined();
  });
});
