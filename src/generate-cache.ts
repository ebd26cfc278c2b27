import type { Diagnostic } from "./diagnostics.js";

/**
 * What one generate hands the next in the same process (`generate --watch`), each result keyed by
 * exactly what it depends on: the source types by the loaded spec document (a watcher reuses the
 * document while no file of the spec changed) and the parts of it the generated code names, schema
 * warnings by the document, formatted files by their
 * unformatted text, the prettier options and prettier's release. An edit to the annotation alone then
 * re-emits every file but formats only those whose text changed, and types the spec again only when
 * it names another operation or schema. The
 * formatted files are also what generate keeps on disk between runs (src/output/format-cache.ts).
 */
export interface GenerateCache {
  readonly bySpec: WeakMap<object, SpecResults>;
  /** Formatted text by format key (formatKey in format.ts); replaced after each run by the entries that run used, so it never grows past one output. */
  formatted: Map<string, string>;
}

export interface SpecResults {
  /** The types of the parts of the spec one annotation's generated code names, for another naming the same parts. */
  sourceTypes?: { used: string; types: Promise<string> };
  warnings?: Promise<Diagnostic[]>;
}

export function createGenerateCache(): GenerateCache {
  return { bySpec: new WeakMap(), formatted: new Map() };
}

/** The results for one spec document, made on first use. */
export function specResults(cache: GenerateCache, document: object): SpecResults {
  const known = cache.bySpec.get(document);
  if (known) return known;
  const results: SpecResults = {};
  cache.bySpec.set(document, results);
  return results;
}

/** Whether this spec document's source types are known, typed before or taken from an up-to-date folder. */
export const typesKnown = (cache: GenerateCache | undefined, document: object): boolean =>
  cache?.bySpec.get(document)?.sourceTypes !== undefined;
