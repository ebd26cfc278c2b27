import type { CountReply, CountRequest } from "./token-worker.js";
import { countText } from "./tokens.js";
import { startWorker, type BatchReply } from "./worker-client.js";

export interface TokenCounter {
  /** Each text's o200k_base token count. */
  count(texts: string[]): Promise<number[]>;
  dispose(): Promise<void>;
}

/** Counts o200k_base tokens in a worker thread that starts loading the vocabulary at once. */
export function startTokenCounter(): TokenCounter {
  const worker = startWorker<CountRequest, CountReply & BatchReply>(new URL("./token-worker.js", import.meta.url), {});
  return {
    count: async (texts) => (worker ? (await worker.ask({ texts })).tokens : texts.map((text) => countText(text, "o200k_base").tokens)),
    dispose: async () => worker?.terminate(),
  };
}
