import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/** A request to a worker thread of the evidence module and its reply, matched by batch number. */
export interface Batch {
  batch: number;
}
export interface BatchReply extends Batch {
  error?: string;
}

export interface WorkerClient<Request, Reply> {
  ask(request: Request): Promise<Reply>;
  terminate(): Promise<void>;
}

/**
 * Starts the compiled worker at `url` at once, so that what it loads first overlaps whatever the
 * caller does next; undefined when run from the sources (by the test runner), where there is no
 * compiled worker to start and the caller does the same work in its own thread. The worker keeps
 * the process alive only while a request is on its way.
 */
export function startWorker<Request, Reply extends BatchReply>(url: URL, workerData: unknown): WorkerClient<Request, Reply> | undefined {
  if (!existsSync(fileURLToPath(url))) return undefined;
  const worker = new Worker(url, { workerData });
  worker.unref();
  const pending = new Map<number, { resolve(reply: Reply): void; reject(error: Error): void; settled: Promise<unknown> }>();
  let batches = 0;
  let failure: Error | undefined;
  const settle = (batch: number, reply: Reply | Error) => {
    const waiting = pending.get(batch);
    pending.delete(batch);
    if (pending.size === 0) worker.unref();
    if (reply instanceof Error) waiting?.reject(reply);
    else if (reply.error !== undefined) waiting?.reject(new Error(reply.error));
    else waiting?.resolve(reply);
  };
  worker.on("message", (reply: Reply) => settle(reply.batch, reply));
  const fail = (error: Error) => {
    failure ??= error;
    for (const batch of [...pending.keys()]) settle(batch, failure);
  };
  worker.on("error", fail);
  // A worker that stops with requests on their way would otherwise leave them waiting for ever.
  worker.on("exit", (code) => fail(new Error(`a worker thread stopped (exit code ${code})`)));
  return {
    ask(request) {
      if (failure) return Promise.reject(failure);
      const batch = batches++;
      worker.ref();
      let answer!: { resolve(reply: Reply): void; reject(error: Error): void };
      const replied = new Promise<Reply>((resolve, reject) => (answer = { resolve, reject }));
      pending.set(batch, { ...answer, settled: replied.catch(() => undefined) });
      worker.postMessage({ ...request, batch });
      return replied;
    },
    terminate: async () => {
      // A worker told to stop while it loads or works never says it stopped (Node 20), and a caller
      // waiting for it would see the process end first, with exit code 13. One never asked anything
      // is left to stop unreferenced as the process ends; another is stopped once it has answered.
      if (batches === 0) {
        void worker.terminate();
        return;
      }
      await Promise.allSettled([...pending.values()].map((waiting) => waiting.settled));
      worker.ref();
      await worker.terminate();
    },
  };
}

/** Answers each request a worker gets with `answer`, a failure as its message. */
export function serveRequests<Request extends Batch>(
  port: { on(event: "message", listener: (request: Request) => void): unknown; postMessage(reply: unknown): void },
  answer: (request: Request) => object,
): void {
  port.on("message", (request) => {
    let reply: BatchReply;
    try {
      reply = { ...answer(request), batch: request.batch };
    } catch (error) {
      reply = { batch: request.batch, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}
