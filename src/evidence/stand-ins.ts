/** Stands in for a name no label file gave: two words, the size of a typical person or company name. */
export const STAND_IN_LABEL = "Jordan Lee";

/** A resolver for each name that answers every id, from the labels given or with {@link STAND_IN_LABEL}. */
export const standInResolvers = (resolvers: readonly string[], labels: Record<string, Record<string, string>> = {}) =>
  Object.fromEntries(
    resolvers.map((name) => [name, async (ids: readonly string[]) => new Map(ids.map((id) => [id, labels[name]?.[id] ?? STAND_IN_LABEL]))]),
  );
