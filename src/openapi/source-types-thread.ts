import { Worker } from "node:worker_threads";
import { DiagnosticError, type Diagnostic } from "../diagnostics.js";
import { sourceTypesInput, type SourceTypesInput } from "../emit/source-types.js";
import type { JsonObject } from "./schema.js";

/** Types a bundled spec document: openapi-typescript's output, as `generate` writes it. */
export type TypeSpec = (document: JsonObject, specFile: string) => Promise<string>;

export interface SourceTypesRequest {
  source: SourceTypesInput;
  specFile: string;
}

/** The source types, the diagnostics openapi-typescript's failure makes, or a crash to rethrow as one. */
export type SourceTypesResult = { types: string } | { diagnostics: Diagnostic[] } | { crash: { message: string; stack: string } };

/** A line openapi-typescript wrote on the console in the thread. */
export interface PrintedLine {
  stream: "stdout" | "stderr";
  text: string;
}

export type SourceTypesAnswer = SourceTypesResult & { printed: PrintedLine[] };

const WORKER = new URL("./source-types-worker.js", import.meta.url);

/**
 * Source types typed in worker threads, one spec per thread, so that the main thread checks, emits
 * and validates meanwhile. A thread can be started before the spec is known (`prestart`): it loads
 * openapi-typescript and TypeScript while the annotation and the spec are read. A thread ends as soon
 * as it answered, and `close` ends any still running, so none outlives the run that started it.
 * What openapi-typescript reads of the document is made here, while the thread loads, and crosses
 * as JSON text; the types come back as one string.
 */
export class SourceTypesThreads {
  private idle: Thread | undefined;
  private readonly running = new Set<Thread>();

  constructor(options: { prestart: boolean }) {
    if (options.prestart) this.prestart();
  }

  /** Starts a thread ahead, unless one already waits: the spec need not be known yet. */
  prestart(): void {
    this.idle ??= this.spawn();
  }

  readonly type: TypeSpec = (document, specFile) => {
    let source: SourceTypesInput;
    try {
      const copy = sourceTypesInput(document, specFile);
      // As JSON text: the thread parses it faster than it would rebuild a structured clone, and
      // openapi-typescript, given an object, would turn it into that text itself. Not where JSON
      // would turn a NaN or an infinity into null, which openapi-typescript types otherwise.
      source = copy.finite ? { ...copy, document: JSON.stringify(copy.document) } : copy;
    } catch (error) {
      return Promise.reject(error);
    }
    const thread = this.idle ?? this.spawn();
    this.idle = undefined;
    const answered = new Promise<string>((resolve, reject) => {
      thread.worker.once("message", (answer: SourceTypesAnswer) => {
        for (const { stream, text } of answer.printed) process[stream].write(text);
        if ("types" in answer) resolve(answer.types);
        else if ("diagnostics" in answer) reject(new DiagnosticError(answer.diagnostics));
        else reject(Object.assign(new Error(answer.crash.message), { stack: answer.crash.stack }));
      });
      thread.worker.postMessage({ source, specFile } satisfies SourceTypesRequest);
    });
    return Promise.race([answered, thread.stopped]).finally(() => this.end(thread));
  };

  /** Ends every thread: the one started ahead and never asked, and any whose answer is no longer awaited. */
  async close(): Promise<void> {
    this.idle = undefined;
    await Promise.all([...this.running].map((thread) => this.end(thread)));
  }

  private spawn(): Thread {
    // A young generation smaller than V8's default: the thread's heap is mostly openapi-typescript's
    // long-lived syntax tree, and the smaller nursery takes about 20 MB off a generate's peak memory
    // (PagerDuty: 311 to 290 MB) at no cost in time.
    const worker = new Worker(WORKER, { resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    // It never keeps the process alive by itself: a run that fails early need not wait for it.
    worker.unref();
    const stopped = new Promise<never>((_, reject) => {
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the source types' worker thread stopped (exit code ${code}) before it answered`)));
    });
    // Only a thread asked for the types reports how it stopped; an idle one is simply ended.
    stopped.catch(() => undefined);
    const thread = { worker, stopped };
    this.running.add(thread);
    return thread;
  }

  private async end(thread: Thread): Promise<void> {
    this.running.delete(thread);
    await thread.worker.terminate();
  }
}

interface Thread {
  worker: Worker;
  /** Rejects when the thread fails or exits, whatever it was doing. */
  stopped: Promise<never>;
}
