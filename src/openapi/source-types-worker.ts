import { createRequire } from "node:module";
import { format } from "node:util";
import { parentPort } from "node:worker_threads";
import { typescriptFromCodeCache } from "../code-cache.js";
import { DiagnosticError } from "../diagnostics.js";
import { compareAlphabetizedKeysWithOneCollator } from "./alphabetize.js";
import type { PrintedLine, SourceTypesAnswer, SourceTypesRequest, SourceTypesResult } from "./source-types-thread.js";

// Loaded at once, while the main thread reads the annotation and loads the spec: openapi-typescript
// and the TypeScript compiler take longer to load than both. TypeScript first, from V8's code cache
// where there is one, so that openapi-typescript gets the same.
const require = createRequire(import.meta.url);
const typescript = typescriptFromCodeCache();
require("openapi-typescript");
compareAlphabetizedKeysWithOneCollator();
const emitter = import("../emit/source-types.js");

// openapi-typescript reports a spec's problems on the console before it throws. They travel with the
// answer, so that the main thread prints them before the diagnostic they lead to, and none is lost
// when the thread is ended.
const printed: PrintedLine[] = [];
const consoleStreams = { log: "stdout", info: "stdout", debug: "stdout", warn: "stderr", error: "stderr" } as const;
for (const [method, stream] of Object.entries(consoleStreams))
  console[method as keyof typeof consoleStreams] = (...args: unknown[]) => void printed.push({ stream, text: `${format(...args)}\n` });

const port = parentPort!;
port.once("message", async ({ source, specFile }: SourceTypesRequest) => {
  const answer = async (): Promise<SourceTypesResult> => {
    try {
      return { types: await (await emitter).typeForSource(source, specFile) };
    } catch (error) {
      if (error instanceof DiagnosticError) return { diagnostics: [...error.diagnostics] };
      const { message, stack } = error instanceof Error ? error : new Error(String(error));
      return { crash: { message, stack: stack ?? message } };
    }
  };
  const result = await answer();
  // After the typing, so that the functions it compiled are cached too; only on a run that found no cache.
  typescript?.save();
  port.postMessage({ ...result, printed } satisfies SourceTypesAnswer);
  port.close();
});
