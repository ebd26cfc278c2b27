import { createRequire } from "node:module";
import { PARTS, type ClassifiedText, type Part } from "./parts.js";

interface Encoding {
  encode(text: string): number[];
  decode(tokens: number[]): string;
}

const require = createRequire(import.meta.url);

/** The tokenizers, each loaded on first use: a vocabulary takes a noticeable time to read. */
export const TOKENIZERS = {
  o200k_base: () => require("gpt-tokenizer/encoding/o200k_base") as Encoding,
  cl100k_base: () => require("gpt-tokenizer/encoding/cl100k_base") as Encoding,
} as const;
export type TokenizerName = keyof typeof TOKENIZERS;

export interface TextCount {
  tokens: number;
  bytes: number;
  /** The bytes/4 rule of thumb, and how far it is from the real count, in percent (negative: it undercounts). */
  bytesOver4: number;
  bytesOver4Error: number;
}

/** The longest run of letters, or of punctuation, encoded whole: the tokenizer's time grows with the square of a run's length. */
export const LONGEST_RUN = 1_000;

const LONG_RUN = new RegExp(`[\\p{L}\\p{M}]{${LONGEST_RUN + 1},}|[^\\s\\p{L}\\p{N}]{${LONGEST_RUN + 1},}`, "gu");

/**
 * The text's tokens, each run of letters or of punctuation longer than {@link LONGEST_RUN} (a base64
 * blob, a megabyte-long name) encoded in slices of that many characters, never between the halves of
 * a surrogate pair: such a text takes seconds, not hours, and counts at most a token more a slice.
 * Any other text is encoded whole, as the model's tokenizer reads it.
 */
export function encodeInRuns(encode: (text: string) => number[], text: string): number[] {
  const tokens: number[] = [];
  const add = (piece: string) => {
    for (const token of encode(piece)) tokens.push(token);
  };
  let start = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    add(text.slice(start, run.index));
    start = run.index;
    const end = run.index + run[0].length;
    while (start < end) {
      let cut = Math.min(start + LONGEST_RUN, end);
      if (cut < end && /[\uD800-\uDBFF]/.test(text[cut - 1]!)) cut--;
      add(text.slice(start, cut));
      start = cut;
    }
  }
  add(text.slice(start));
  return tokens;
}

export function countText(text: string, tokenizer: TokenizerName): TextCount {
  const tokens = encodeInRuns(TOKENIZERS[tokenizer]().encode, text).length;
  const bytes = Buffer.byteLength(text, "utf8");
  const bytesOver4 = Math.round(bytes / 4);
  return { tokens, bytes, bytesOver4, bytesOver4Error: guessError(bytesOver4, tokens) };
}

/** How far the bytes/4 guess is from the real count, in percent to one decimal (negative: it undercounts). */
export const guessError = (bytesOver4: number, tokens: number) =>
  tokens === 0 ? 0 : Math.round(((bytesOver4 - tokens) / tokens) * 1000) / 10;

/**
 * Tokens per part. Each token goes to the part most of its characters belong to; a character a
 * token shares with its neighbour (multi-byte text) goes with the first of them. The parts add up
 * to the token count exactly.
 */
export function countParts(classified: ClassifiedText, tokenizer: TokenizerName): Record<Part, number> {
  const { encode, decode } = TOKENIZERS[tokenizer]();
  const tokens = encodeInRuns(encode, classified.text);
  const counts = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  let position = 0;
  for (let i = 0; i < tokens.length;) {
    let end = i + 1;
    let piece = decode(tokens.slice(i, end));
    while (piece.includes("\uFFFD") && end < tokens.length && end - i < 8) piece = decode(tokens.slice(i, ++end));
    const tally = new Map<Part, number>();
    for (let c = position; c < position + piece.length && c < classified.parts.length; c++) {
      const part = classified.parts[c]!;
      tally.set(part, (tally.get(part) ?? 0) + 1);
    }
    let best: Part = classified.parts[Math.min(position, classified.parts.length - 1)] ?? "structure";
    for (const [part, n] of tally) if (n > (tally.get(best) ?? 0)) best = part;
    counts[best] += end - i;
    position += piece.length;
    i = end;
  }
  return counts;
}
