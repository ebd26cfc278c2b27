// The id book: which full id each short id handed out stands for, so a tool call can send it.

import { shortenIds } from "./short-ids.js";

/**
 * How many short ids the id book keeps, in this module's memory: the one least recently handed out
 * or looked up goes first. A short form is kept for the process's lifetime or until evicted.
 */
export const ID_BOOK_SIZE = 10_000;
/** How many different ids one ambiguous short form remembers: enough to offer each a longer form. */
const SHARERS_KEPT = 8;
/** Short form to full id; to the ids it stood for when results gave it to more than one. */
const idBook = new Map<string, string | readonly string[]>();
/**
 * Only a process that calls tools through createTools needs short ids back: until then a
 * projection, which shortens every id of a page on its hot path, records nothing.
 */
let idBookInUse = false;
/** Hand-outs of a projection that may be thrown away, as short, id pairs; undefined when none is pending. */
let pending: string[] | undefined;

/** Starts recording the short ids projections hand out; createTools calls it. */
export function useIdBook(): void {
  idBookInUse = true;
}

/**
 * Hands out `short` for `id`; once the id book is in use, notes it there, so a later call can send
 * the full id. An id shown whole makes a short form it equals ambiguous: the model may mean either.
 */
export function handOut(short: string, id: string): string {
  if (!idBookInUse) return short;
  if (pending) pending.push(short, id);
  else if (short !== id) note(short, id);
  else if (idBook.has(id)) note(id, id);
  return short;
}

function note(short: string, id: string): void {
  const known = idBook.get(short);
  if (known === undefined) {
    idBook.set(short, id);
    if (idBook.size > ID_BOOK_SIZE) forgetOldest();
    return;
  }
  // Deleted and set again, so that the Map's order stays the order of last use.
  idBook.delete(short);
  if (known === id) idBook.set(short, id);
  else if (typeof known === "string") idBook.set(short, [known, id]);
  else
    idBook.set(
      short,
      known.includes(id) ? known : [...known, id].slice(-SHARERS_KEPT),
    );
}

/**
 * The book's short forms from the least recently used on. One iterator serves every eviction: a
 * Map keeps the places of deleted keys until it grows again, and a new iterator per eviction walked
 * past all of them, so a page of new ids cost time quadratic in their number (50 ms for 10,000).
 * Keys are only ever added at the end and each key this iterator passes is deleted, so it never
 * runs out while the book is over its size, and its next key is always the oldest.
 */
const byAge = idBook.keys();

function forgetOldest(): void {
  idBook.delete(byAge.next().value!);
}

/**
 * Runs a projection whose short ids may be replaced by a second one: its hand-outs reach the book
 * only when `keep` says so, since plain short forms that collide would map one record's id to another.
 */
export function handingOutLater<T>(
  project: () => T,
  keep: (result: T) => boolean,
): T {
  const held: string[] = [];
  const result = holdingHandOuts(held, project);
  if (keep(result)) handOutHeld(held);
  return result;
}

/**
 * Runs `project`, keeping its hand-outs in `held` instead of noting them, for a projection done in
 * parts (a walk, then what the resolvers answered) whose short ids are known good only at the end.
 */
export function holdingHandOuts<T>(held: string[], project: () => T): T {
  const outer = pending;
  pending = idBookInUse ? held : undefined;
  try {
    return project();
  } finally {
    pending = outer;
  }
}

/** Notes the hand-outs {@link holdingHandOuts} kept. */
export function handOutHeld(held: readonly string[]): void {
  for (let i = 0; i < held.length; i += 2) handOut(held[i]!, held[i + 1]!);
}

/** The full id a short form stands for; an id never handed out comes back as given. */
export function fullId(given: string): string | { readonly ambiguous: string } {
  const known = idBook.get(given);
  if (known === undefined) return given;
  idBook.delete(given);
  idBook.set(given, known);
  return typeof known === "string" ? known : { ambiguous: given };
}

/**
 * For an ambiguous short form, the longer forms that tell its ids apart, each noted in the book so
 * the next call can pass it: the way forward the error gives the model. An id that is the short
 * form itself, shown whole, keeps it, since every other id now has a longer form of its own.
 */
export function longerForms(short: string): string[] {
  const known = idBook.get(short);
  if (known === undefined || typeof known === "string") return [];
  const longer = shortenIds(known);
  const forms = known.map((id) => {
    const form = longer.get(id) ?? id;
    if (form !== id) note(form, id);
    return form;
  });
  if (known.includes(short)) idBook.set(short, short);
  return forms;
}
