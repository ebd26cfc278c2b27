// The thread that counts tokens for init's table proposals (count-tokens.ts): the tokenizer's
// vocabulary, slow to load, loads here while the main thread drafts.
import { parentPort } from "node:worker_threads";
import { countText, TOKENIZERS } from "./tokens.js";
import { serveRequests, type Batch } from "./worker-client.js";

export interface CountRequest {
  texts: string[];
}
export interface CountReply {
  tokens: number[];
}

// Loaded at once, before the first texts arrive.
TOKENIZERS.o200k_base();
if (parentPort)
  serveRequests<CountRequest & Batch>(parentPort, ({ texts }): CountReply => ({
    tokens: texts.map((text) => countText(text, "o200k_base").tokens),
  }));
