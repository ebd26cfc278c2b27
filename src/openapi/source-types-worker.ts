import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";
import { DiagnosticError } from "../diagnostics.js";
import type { SourceTypesAnswer, SourceTypesRequest } from "./source-types-thread.js";

// Loaded at once, while the main thread reads the annotation and loads the spec: openapi-typescript
// and the TypeScript compiler take longer to load than both.
const require = createRequire(import.meta.url);
require("openapi-typescript");
require("typescript");
const emitter = import("../emit/emit.js");

const port = parentPort!;
port.once("message", async ({ document, specFile }: SourceTypesRequest) => {
  const answer = async (): Promise<SourceTypesAnswer> => {
    try {
      return { types: await (await emitter).sourceTypes(document, specFile) };
    } catch (error) {
      if (error instanceof DiagnosticError) return { diagnostics: [...error.diagnostics] };
      const { message, stack } = error instanceof Error ? error : new Error(String(error));
      return { crash: { message, stack: stack ?? message } };
    }
  };
  port.postMessage(await answer());
  port.close();
});
