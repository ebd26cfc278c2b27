// Writing a label into the object or array that waits for it, once its resolver has answered.

/** The store each key written so far uses: keys of the same store share its inline cache. */
const storeOfKey = new Map<string, number>();

/** How many stores are given one string key each; any key after them shares the last. */
const KEYED_STORES = 7;

/**
 * `holder[key] = value`. One assignment written once, fed keys of several fields, makes V8's inline
 * cache for it megamorphic, and each write then looks the key up: filling a page's labels cost a
 * tenth of projecting it. So each string key gets a store of its own, written out below, which stays
 * monomorphic; an array index, a store shared by all of them, which V8 caches by the array alone.
 */
export function storeField(
  holder: Record<string | number, unknown>,
  key: string | number,
  value: unknown,
): void {
  switch (typeof key === "number" ? 0 : storeOf(key)) {
    case 0:
      holder[key] = value;
      return;
    case 1:
      holder[key] = value;
      return;
    case 2:
      holder[key] = value;
      return;
    case 3:
      holder[key] = value;
      return;
    case 4:
      holder[key] = value;
      return;
    case 5:
      holder[key] = value;
      return;
    case 6:
      holder[key] = value;
      return;
    default:
      holder[key] = value;
  }
}

function storeOf(key: string): number {
  let store = storeOfKey.get(key);
  if (store === undefined) {
    store = Math.min(storeOfKey.size + 1, KEYED_STORES);
    storeOfKey.set(key, store);
  }
  return store;
}
