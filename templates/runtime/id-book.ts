// The id book: which full id each short id handed out stands for, so a tool call can send it.

/**
 * How many short ids the id book keeps, in this module's memory: the one least recently handed out
 * or looked up goes first. A short form is kept for the process's lifetime or until evicted.
 */
export const ID_BOOK_SIZE = 10_000;
/** Short form to full id; null when two different ids were given that short form. */
const idBook = new Map<string, string | null>();
/**
 * Only a process that calls tools through createTools needs short ids back: until then a
 * projection, which shortens every id of a page on its hot path, records nothing.
 */
let idBookInUse = false;

/** Starts recording the short ids projections hand out; createTools calls it. */
export function useIdBook(): void {
  idBookInUse = true;
}

/**
 * Hands out `short` for `id`; once the id book is in use, notes it there, so a later call can send
 * the full id.
 */
export function handOut(short: string, id: string): string {
  if (!idBookInUse || short === id) return short;
  const known = idBook.get(short);
  idBook.delete(short);
  idBook.set(short, known === undefined || known === id ? id : null);
  if (idBook.size > ID_BOOK_SIZE) idBook.delete(idBook.keys().next().value!);
  return short;
}

/** The full id a short form stands for; an id never handed out comes back as given. */
export function fullId(given: string): string | { readonly ambiguous: string } {
  const known = idBook.get(given);
  if (known === undefined) return given;
  idBook.delete(given);
  idBook.set(given, known);
  return known === null ? { ambiguous: given } : known;
}
