// Reading parsed JSON without trusting its shape or its prototype.

// Resolvers and DataLoaders, each made from the other.

import type { Resolver } from "./resolvers.js";

/** What {@link resolverFromLoader} needs of a DataLoader: its `loadMany`. */
export interface LabelLoader {
  loadMany(
    ids: readonly string[],
  ): PromiseLike<ArrayLike<string | null | undefined | Error>>;
}

/**
 * A resolver backed by a DataLoader. Create the loader per request: its batching and cache then
 * serve every tool call of that request. An id the loader gives `null` stays unresolved (a marker);
 * an Error for some ids becomes their marker, reported through `onIssue`; a batch that failed as a
 * whole fails the call with a `ResolverError`.
 */
export function resolverFromLoader(loader: LabelLoader): Resolver {
  return async (ids) => {
    const values = await loader.loadMany(ids);
    // A batch function that threw gives its one Error for every id: that is the resolver failing,
    // which fails the call, not one unresolved id after another. (With one id the two look alike,
    // and it stays a marker.)
    const first = values[0];
    if (
      values.length > 1 &&
      first instanceof Error &&
      Array.prototype.every.call(values, (value) => value === first)
    )
      throw first;
    const labels = new Map<string, string | Error>();
    ids.forEach((id, i) => {
      const value = values[i];
      if (typeof value === "string" || value instanceof Error)
        labels.set(id, value);
    });
    return labels;
  };
}

/**
 * A resolver as a DataLoader batch function: one label per id, in the order of `ids`, `null` where
 * the resolver has none, and the resolver's per-id Errors as they are.
 */
export function batchFunction(
  resolver: Resolver,
): (ids: readonly string[]) => Promise<(string | Error | null)[]> {
  return async (ids) => {
    const distinct = [...new Set(ids)];
    const labels =
      distinct.length > 0
        ? await resolver(distinct)
        : new Map<string, string | Error>();
    return ids.map((id) => labels.get(id) ?? null);
  };
}
