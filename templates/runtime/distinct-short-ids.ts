// Keeping the short ids of one tool result distinct without a second pass over its records.

import {
  passIssuesOn,
  recordOptions,
  WHOLE_IDS,
  type ProjectionIssue,
  type ProjectOptions,
  type RecordOptions,
} from "./context.js";
import { handingOutLater } from "./id-book.js";
import { withinItemBudget } from "./records.js";
import {
  eightHexDigits,
  shortenIds,
  shortForm,
  shortId,
  uuidDigits,
} from "./short-ids.js";

/**
 * Hands out plain short forms and notes each one, so a tool can tell, without a second pass over
 * its records, whether two ids of one result got the same short form. A table of 32-bit hashes with
 * linear probing: a Map keyed by the short strings cost more per page than projecting the rest.
 */
export function shortIdCheck(expectedIds: number) {
  // The state lives in this closure, not in an object: V8 may drop an object's layout in a full GC
  // once no object has it, and with it the optimized code that checks for it, so that the next
  // page ran unoptimized. Sized so that the expected ids fill at most three quarters: probing stays
  // short.
  let size = Math.max(
    256,
    2 ** Math.ceil(Math.log2((expectedIds * 4) / 3 + 1)),
  );
  let slots = chunkedSlots(size);
  let hashes = new Int32Array(size);
  let count = 0;
  let collided = false;
  // Once two ids share a short form the result is projected again anyway; from then on ids are only
  // listed, not probed, since ids sharing a short form share a hash and probing past them all for
  // each new one took time quadratic in their number.
  const afterCollision: string[] = [];

  const grow = () => {
    const [oldSlots, oldHashes, oldSize] = [slots, hashes, size];
    size *= 2;
    slots = chunkedSlots(size);
    hashes = new Int32Array(size);
    for (let i = 0; i < oldSize; i++) {
      const id = slotAt(oldSlots, i);
      if (id === undefined) continue;
      let at = oldHashes[i]! & (size - 1);
      while (slotAt(slots, at) !== undefined) at = (at + 1) & (size - 1);
      setSlot(slots, at, id);
      hashes[at] = oldHashes[i]!;
    }
    keepChunks(oldSlots);
  };

  // Once released, the table's chunks may be another check's: a late use fails rather than write there.
  let released = false;
  const inUse = () => {
    if (released)
      throw new Error(
        "a short-id check was used after its projection ended: the projection must be synchronous",
      );
  };

  const note = (id: string): string => {
    inUse();
    const dash = id.indexOf("-");
    const digits = uuidDigits(id, dash);
    const short = shortForm(id, dash, digits);
    if (collided) {
      afterCollision.push(id);
      return short;
    }
    const hash = hashOfShort(
      short,
      digits >= 0 ? digits : eightHexDigits(short, short.length - 8),
    );
    let at = hash & (size - 1);
    for (
      let taken = slotAt(slots, at);
      taken !== undefined;
      taken = slotAt(slots, at)
    ) {
      if (hashes[at] === hash) {
        if (taken === id) return short;
        // Another id has this short form; note this one too, so the lengthened forms cover both.
        if (shortId(taken) === short) collided = true;
      }
      at = (at + 1) & (size - 1);
    }
    setSlot(slots, at, id);
    hashes[at] = hash;
    if (++count * 4 > size * 3) grow();
    return short;
  };

  const listedIds = (): string[] => {
    inUse();
    return [
      ...slots.flat().filter((id): id is string => id !== undefined),
      ...afterCollision,
    ];
  };
  const release = (): void => {
    if (released) return;
    released = true;
    keepChunks(slots);
  };

  return {
    note,
    collided: () => collided,
    ids: listedIds,
    /** Hands the table's chunks on to the checks of later pages: call it once this check is done with. */
    release,
    /** The ids to lengthen where two shared a short form, else undefined; the check is released. */
    finish: (): string[] | undefined => {
      const ids = collided ? listedIds() : undefined;
      release();
      return ids;
    },
  };
}

/**
 * The table's slots are kept in chunks of 2^13: a single array of 16,384 slots, a 10,000-id page's,
 * is past V8's largest regular object (128 KiB) and is allocated apart as a large object, many
 * times slower to make than the same slots in chunks.
 */
const CHUNK_BITS = 13;
const CHUNK_MASK = 2 ** CHUNK_BITS - 1;
const CHUNK_SLOTS = CHUNK_MASK + 1;

/**
 * Whole chunks of checks done with, emptied, for the next checks to take: each chunk made anew is
 * 64 KiB more of the young generation filled while a page is projected, and a collection falling
 * in the projection copies the part of the page just parsed that is still young. Taken, a chunk
 * is one check's alone until it is released; checks of pages projected at once take one each.
 */
const spareChunks: (string | undefined)[][] = [];
/** How many chunks are kept: a table of up to 49,000 ids, or two of a 20,000-id page's. */
const KEPT_CHUNKS = 8;

function slotAt(
  slots: (string | undefined)[][],
  at: number,
): string | undefined {
  return slots[at >>> CHUNK_BITS]![at & CHUNK_MASK];
}

function setSlot(
  slots: (string | undefined)[][],
  at: number,
  id: string,
): void {
  slots[at >>> CHUNK_BITS]![at & CHUNK_MASK] = id;
}

function chunkedSlots(size: number): (string | undefined)[][] {
  const chunk = Math.min(size, CHUNK_SLOTS);
  return Array.from({ length: size / chunk }, () =>
    chunk === CHUNK_SLOTS
      ? (spareChunks.pop() ?? new Array<string | undefined>(chunk))
      : new Array<string | undefined>(chunk),
  );
}

function keepChunks(slots: (string | undefined)[][]): void {
  for (const chunk of slots) {
    if (chunk.length !== CHUNK_SLOTS || spareChunks.length >= KEPT_CHUNKS)
      continue;
    chunk.fill(undefined);
    spareChunks.push(chunk);
  }
}

/**
 * The hash of a short form, which must depend on nothing else. One that ends in eight hex digits
 * (every form {@link shortId} cuts, and some ids it keeps whole) hashes from their value, `digits`,
 * which a prefix-and-UUID id's shape check has already read, so the usual form is not read twice.
 */
function hashOfShort(short: string, digits: number): number {
  return digits >= 0
    ? mixed(digits ^ Math.imul(short.charCodeAt(0), 0x9e3779b1) ^ short.length)
    : hashOf(short);
}

/** FNV-1a with a final mix, so that ids differing only in their last digits spread over the table. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++)
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return mixed(hash);
}

function mixed(hash: number): number {
  const spread = hash ^ (hash >>> 16);
  return Math.imul(spread, 0x45d9f3b) ^ (spread >>> 13);
}

/** How a result's short ids are kept distinct: the call's options, and how many ids will be shortened. */
export interface ShortIdSettings {
  options: Pick<ProjectOptions, "onIssue" | "handOuts" | "wholeIds">;
  expectedIds: number;
}

/**
 * Projects a whole tool result with plain short ids; in the rare result where two ids share a short
 * form, projects it again with {@link shortenIds} over all of them. Every id given a short form
 * counts, those kept in unresolved markers too. Issues reach the options' `onIssue` once, from the
 * projection that is kept, or from one that threw. `project` runs synchronously: a short id asked
 * for after it has returned fails. The short ids of the projection kept go to the id book, or to
 * the options' `handOuts` when given; with `wholeIds`, every id is shown whole.
 */
export function withDistinctShortIds<T>(
  { options, expectedIds }: ShortIdSettings,
  project: (options: RecordOptions) => T,
): T {
  const { onIssue, handOuts, wholeIds } = options;
  const check = shortIdCheck(expectedIds);
  const issues: ProjectionIssue[] = [];
  const collect =
    onIssue && ((issue: ProjectionIssue) => void issues.push(issue));
  const passOn = () => passIssuesOn(onIssue, issues);
  let result: T;
  try {
    // The plain short forms reach the id book only if no two ids share one.
    result = handingOutLater(
      () =>
        withinItemBudget(() =>
          project(recordOptions(collect, wholeIds ? WHOLE_IDS : check.note)),
        ),
      () => !check.collided(),
      handOuts,
    );
  } catch (error) {
    passOn();
    throw error;
  }
  const ids = check.finish();
  if (ids) {
    issues.length = 0;
    try {
      result = handingOutLater(
        () =>
          withinItemBudget(() =>
            project(recordOptions(collect, shortenIds(ids))),
          ),
        () => true,
        handOuts,
      );
    } finally {
      passOn();
    }
    return result;
  }
  passOn();
  return result;
}
