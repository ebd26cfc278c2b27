// The id book: which full id each short id handed out stands for, so a tool call can send it.

import { asObject } from "./json.js";
import { typeName } from "./quoting.js";
import { mayBeShortForm, shortenIds } from "./short-ids.js";

/**
 * How many short ids the id book keeps, in this module's memory: the one least recently handed out
 * or looked up goes first. A short form is kept for the process's lifetime or until evicted.
 */
export const ID_BOOK_SIZE = 10_000;
/**
 * How many characters the id book's short forms and the ids they stand for may hold together, 16 MiB
 * as UTF-16: the least recently used go first until the book is within this and {@link ID_BOOK_SIZE}.
 */
export const ID_BOOK_CHARACTERS = 8 * 2 ** 20;
/**
 * The longest id the id book remembers; a longer one is shown whole, since a short form of it could
 * not be sent back. Where APIs declare how long an id may be, it is at most 255 characters (Datadog,
 * PagerDuty, Sentry, Twilio): four times that lets every real id be shortened, and no hostile one.
 */
export const ID_BOOK_LONGEST_ID = 1_024;
/** How many different ids one ambiguous short form remembers: enough to offer each a longer form. */
export const SHARERS_KEPT = 8;
/**
 * How many short forms the id book remembers having handed out once it has forgotten which id each
 * stood for: the model may still hold one, so no other id is handed out under it; such an id is
 * shown whole instead. Each is a key and a number: about 100 bytes.
 */
export const RETIRED_FORMS_KEPT = 100_000;

/**
 * An id book kept outside the process, shared by every process that serves the tools (restarts,
 * replicas, a client that starts one process per call), such as the Redis adapter of
 * `openapi-projector/redis-id-book`. `createTools({ idBook })` remembers each result's short ids in it
 * before the result is returned, and recalls the full id of each short id a call is given.
 */
export interface IdBook {
  /**
   * Remembers that each short form stands for its full id: one call per result. Each short form
   * comes qualified by its kind ({@link idBookKey}), so one kind's short id never names another's.
   */
  remember(
    entries: ReadonlyArray<readonly [short: string, full: string]>,
  ): Promise<void>;
  /**
   * Every full id remembered for `short`, the most recently remembered last; none once it has
   * expired or was never remembered. A form remembered again for an id it already had moves last.
   */
  recall(short: string): Promise<readonly string[]>;
}

/**
 * The key a short form is kept under: its kind, the id field it was handed out for (`task.id`), as
 * a JSON string, then the form. The quoted kind ends where its closing quote does, whatever a field
 * name holds, so no two kinds' keys meet: a tool expands a short id only into an id of a kind it takes.
 */
export function idBookKey(kind: string, short: string): string {
  let quoted = quotedKinds.get(kind);
  if (quoted === undefined) {
    quoted = JSON.stringify(kind);
    quotedKinds.set(kind, quoted);
  }
  return quoted + short;
}

/** Each kind as a JSON string, quoted once: the book makes a key for every id a page hands out. */
const quotedKinds = new Map<string, string>();

type Sharers = string | readonly string[];

/** Kind-qualified short form ({@link idBookKey}) to full id; to the ids it stood for when results gave it to more than one. */
const idBook = new Map<string, Sharers>();
/**
 * Short forms the book forgot ({@link RETIRED_FORMS_KEPT}), by key, each with a digest of the id it
 * stood for ({@link digestOf}), or {@link SEVERAL} where it stood for more than one.
 */
const retired = new Map<string, number>();
const SEVERAL = -1;
/** The characters of every key in the book and of the ids it stands for. */
let bookCharacters = 0;
/**
 * Only a process that calls tools through createTools needs short ids back: until then a
 * projection, which shortens every id of a page on its hot path, records nothing.
 */
let idBookInUse = false;
/** Hand-outs of a projection that may be thrown away, as short, id, kind triples; undefined when none is pending. */
let pending: string[] | undefined;

/**
 * The id book createTools's tools use: `shared`, once checked to be one, when given; otherwise this
 * process's own, which starts recording the short ids projections hand out, and undefined is returned.
 */
export function useIdBook(shared?: IdBook): IdBook | undefined {
  if (shared === undefined) {
    idBookInUse = true;
    return undefined;
  }
  const book = asObject(shared);
  if (
    typeof book?.["remember"] !== "function" ||
    typeof book["recall"] !== "function"
  )
    throw new TypeError(
      `createTools: idBook must be an object with the methods remember(entries) and recall(short); got ${book ? "an object without them" : typeName(shared)}`,
    );
  return shared;
}

/**
 * Hands out `short` for `id`, an id of `kind` (`task.id`: the resource and field it was read from),
 * or `id` itself when it is longer than {@link ID_BOOK_LONGEST_ID}; once the id book is in use,
 * notes it there under its kind, so a later call that takes that kind can send the full id. An id
 * shown whole is noted too when it could be another id's short form: whichever of the two is handed
 * out first, the text then stands for both, and the model may mean either.
 */
export function handOut(short: string, id: string, kind: string): string {
  if (id.length > ID_BOOK_LONGEST_ID) return id;
  // A form the book forgot may still stand for another id where the model saw it: this one goes whole.
  if (short !== id && retired.size > 0) {
    const was = retired.get(idBookKey(kind, short));
    if (was !== undefined && was !== digestOf(id)) return handOut(id, id, kind);
  }
  if (pending) pending.push(short, id, kind);
  else if (idBookInUse) {
    const key = idBookKey(kind, short);
    if (short !== id || mayBeShortForm(id) || idBook.has(key)) note(key, id);
  }
  return short;
}

function note(key: string, id: string): void {
  const known = idBook.get(key);
  if (known === undefined || known === id) put(key, known, id);
  else if (typeof known === "string") put(key, known, [known, id]);
  else
    put(
      key,
      known,
      known.includes(id) ? known : [...known, id].slice(-SHARERS_KEPT),
    );
}

/**
 * Makes `key`, which stood for `known`, stand for `ids`, as the most recently used entry; then
 * forgets the least recently used entries until the book is within both its bounds.
 */
function put(key: string, known: Sharers | undefined, ids: Sharers): void {
  if (known !== undefined) forget(key, known);
  idBook.set(key, ids);
  bookCharacters += charactersOf(key, ids);
  while (idBook.size > ID_BOOK_SIZE || bookCharacters > ID_BOOK_CHARACTERS)
    forgetOldest();
}

function forget(key: string, known: Sharers): void {
  // Deleted, and set again by the caller that keeps it, so that the Map's order stays the order of last use.
  idBook.delete(key);
  bookCharacters -= charactersOf(key, known);
}

/** An entry's characters, counted from the entry alone, at most {@link SHARERS_KEPT} ids: eviction stays constant time. */
function charactersOf(key: string, ids: Sharers): number {
  if (typeof ids === "string") return key.length + ids.length;
  let characters = key.length;
  for (const id of ids) characters += id.length;
  return characters;
}

/**
 * The book's short forms from the least recently used on. One iterator serves every eviction: a
 * Map keeps the places of deleted keys until it grows again, and a new iterator per eviction walked
 * past all of them, so a page of new ids cost time quadratic in their number.
 * Keys are only ever added at the end and each key this iterator passes is deleted, so its next key
 * is always the oldest, and it never runs out while the book is over a bound: no id is longer than
 * ID_BOOK_LONGEST_ID, nor a short form longer than its id, and a kind is a resource's and a
 * field's names, so the entry just put is far within ID_BOOK_CHARACTERS on its own and always
 * outlives the eviction it makes.
 */
const byAge = idBook.keys();

function forgetOldest(): void {
  const key = byAge.next().value!;
  const known = idBook.get(key)!;
  forget(key, known);
  retire(key, known);
}

/** Remembers that `key` was handed out for `known`, forgetting the oldest such form past {@link RETIRED_FORMS_KEPT}. */
function retire(key: string, known: Sharers): void {
  retired.delete(key);
  retired.set(key, typeof known === "string" ? digestOf(known) : SEVERAL);
  if (retired.size > RETIRED_FORMS_KEPT)
    retired.delete(retiredByAge.next().value!);
}

/** The forgotten forms from the oldest on, one iterator for every eviction, as {@link byAge} is and for its reasons. */
const retiredByAge = retired.keys();

/** A 32-bit FNV-1a digest of an id: two ids a form stood for differ by it but once in four billion. */
function digestOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++)
    hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Runs a projection whose short ids may be replaced by a second one: its hand-outs reach the book,
 * or `handOuts` (see {@link handOutHeld}), only when `keep` says so, since plain short forms that
 * collide would map one record's id to another.
 */
export function handingOutLater<T>(
  project: () => T,
  keep: (result: T) => boolean,
  handOuts?: string[],
): T {
  const held: string[] = [];
  const result = holdingHandOuts(held, project, handOuts !== undefined);
  if (keep(result)) handOutHeld(held, handOuts);
  return result;
}

/**
 * Runs `project`, keeping its hand-outs in `held` instead of noting them, for a projection done in
 * parts (a walk, then what the resolvers answered) whose short ids are known good only at the end.
 * They are kept once this process's book is in use, or always when `forSharedBook`.
 */
export function holdingHandOuts<T>(
  held: string[],
  project: () => T,
  forSharedBook = false,
): T {
  const outer = pending;
  pending = idBookInUse || forSharedBook ? held : undefined;
  try {
    return project();
  } finally {
    pending = outer;
  }
}

/**
 * Notes the hand-outs {@link holdingHandOuts} kept; or, given `handOuts`, the list of a result's
 * short ids that createTools remembers in a shared book, adds them to it instead.
 */
export function handOutHeld(
  held: readonly string[],
  handOuts?: string[],
): void {
  if (handOuts) for (const part of held) handOuts.push(part);
  else
    for (let i = 0; i < held.length; i += 3)
      handOut(held[i]!, held[i + 1]!, held[i + 2]!);
}

/**
 * The full id a short form stands for among the ids of `kinds` (those the argument takes), each
 * id once however many kinds hold it; an id never handed out as one of them comes back as given.
 */
export function fullId(
  given: string,
  kinds: readonly string[],
): string | { readonly ambiguous: string } {
  const found = idsOf(given, kinds);
  if (found.length === 0) return given;
  const id = found[0]![0];
  return found.every(([other]) => other === id) ? id : { ambiguous: given };
}

/** Each id the book holds for `given` under each of `kinds`, with that kind; the entries are marked used. */
function idsOf(
  given: string,
  kinds: readonly string[],
): Array<readonly [id: string, kind: string]> {
  const found: Array<readonly [string, string]> = [];
  for (const kind of kinds) {
    const key = idBookKey(kind, given);
    const known = idBook.get(key);
    if (known === undefined) continue;
    idBook.delete(key);
    idBook.set(key, known);
    if (typeof known === "string") found.push([known, kind]);
    else for (const id of known) found.push([id, kind]);
  }
  return found;
}

/**
 * For a short form ambiguous among `kinds`, the longer forms that tell its ids apart, each noted in
 * the book under the kind its id came from, so the next call can pass it: the way forward the error
 * gives the model. An id that is the short form itself, shown whole, keeps it, since every other id
 * now has a longer form of its own: under a kind that holds only those others, the text is let go.
 */
export function longerForms(given: string, kinds: readonly string[]): string[] {
  const found = idsOf(given, kinds);
  const ids = [...new Set(found.map(([id]) => id))];
  if (ids.length < 2) return [];
  const longer = shortenIds(ids);
  for (const [id, kind] of found) {
    const form = longer.get(id) ?? id;
    if (form !== id) note(idBookKey(kind, form), id);
  }
  const forms = ids.map((id) => longer.get(id) ?? id);
  if (found.some(([id]) => id === given))
    for (const kind of kinds) {
      const key = idBookKey(kind, given);
      const known = idBook.get(key);
      if (known === undefined) continue;
      if (
        known === given ||
        (typeof known !== "string" && known.includes(given))
      )
        put(key, known, given);
      else {
        forget(key, known);
        retire(key, known);
      }
    }
  return forms;
}
