// Reading parsed JSON without trusting its shape or its prototype.

// An id book shared by processes: what a call remembers in it and how it reads what it recalls.

import { ID_BOOK_LONGEST_ID, type IdBook, SHARERS_KEPT } from "./id-book.js";
import { typeName } from "./quoting.js";
import { mayBeShortForm, shortenIds } from "./short-ids.js";

/** A short form given to a call: the full id it stands for, or the ids it was shown for when several. */
export type Recalled =
  string | { readonly ambiguous: string; readonly ids: readonly string[] };

/** Thrown for a shared book's answer that is no list of ids the runtime could have remembered. */
export class IdBookAnswerError extends Error {
  constructor(problem: string) {
    super(`its answer ${problem}`);
    this.name = "IdBookAnswerError";
  }
}

/**
 * A result's hand-outs, short, id pairs as {@link holdingHandOuts} keeps them, as the entries a
 * shared book remembers: each pair once, and an id shown whole only when it could be another id's
 * short form, as the process's own book notes them.
 */
export function entriesToRemember(
  handOuts: readonly string[],
): Array<readonly [short: string, full: string]> {
  const entries: Array<readonly [string, string]> = [];
  const first = new Map<string, string>();
  for (let i = 0; i < handOuts.length; i += 2) {
    const short = handOuts[i]!;
    const id = handOuts[i + 1]!;
    if (short === id && !mayBeShortForm(id)) continue;
    const known = first.get(short);
    if (known === id) continue;
    if (known === undefined) first.set(short, id);
    entries.push([short, id]);
  }
  return entries;
}

/**
 * What `given` stands for, from a shared book: the id it was remembered for; itself when it was
 * never remembered; or, shown for several ids, those ids. One of them may be `given` itself, an id
 * shown whole: once a refusal has remembered a longer form for each of the others, and `given`
 * for itself after them, it stands for that id, as in the process's own book.
 */
export async function recalled(book: IdBook, given: string): Promise<Recalled> {
  const ids = checkedIds(await book.recall(given), given);
  if (ids.length === 0) return given;
  if (ids.length === 1) return ids[0]!;
  if (ids[ids.length - 1] === given && (await toldApart(book, given, ids)))
    return given;
  return { ambiguous: given, ids };
}

/** Whether each id behind `given` other than itself has the longer form a refusal remembers for it. */
async function toldApart(
  book: IdBook,
  given: string,
  ids: readonly string[],
): Promise<boolean> {
  const longer = shortenIds(ids);
  const found = await Promise.all(
    ids.map(async (id) => {
      const form = longer.get(id) ?? id;
      if (id === given || form === id) return true;
      return checkedIds(await book.recall(form), form).includes(id);
    }),
  );
  return found.every(Boolean);
}

/**
 * For a short form shown for several ids, the longer forms that tell them apart, each remembered in
 * the book so that any process takes it, and `given` itself, when one of the ids is `given` shown
 * whole, remembered last: the way forward the error gives the model.
 */
export async function rememberLongerForms(
  book: IdBook,
  given: string,
  ids: readonly string[],
): Promise<string[]> {
  const longer = shortenIds(ids);
  const entries: Array<readonly [string, string]> = [];
  const forms = ids.map((id) => {
    const form = longer.get(id) ?? id;
    if (form !== id) entries.push([form, id]);
    return form;
  });
  if (ids.includes(given)) entries.push([given, given]);
  if (entries.length > 0) await book.remember(entries);
  return forms;
}

/**
 * The book's answer for one short form, checked: a list of ids, each one the runtime could have
 * remembered for it (its form is the start of every id). Only the last {@link SHARERS_KEPT} count, as in the process's own book, each once.
 */
function checkedIds(answer: unknown, given: string): readonly string[] {
  if (!Array.isArray(answer))
    throw new IdBookAnswerError(`is ${typeName(answer)}, not a list of ids`);
  const ids: string[] = [];
  for (const id of answer.slice(-SHARERS_KEPT).reverse()) {
    if (typeof id !== "string" || id === "" || id.length > ID_BOOK_LONGEST_ID)
      throw new IdBookAnswerError(
        `holds ${typeof id === "string" ? `an id of ${id.length} characters` : typeName(id)}, which no result could have given`,
      );
    // Every form the runtime hands out is the start of its id: any other answer is not one it remembered.
    if (!id.startsWith(given))
      throw new IdBookAnswerError(
        "holds an id that does not begin with the short form asked for, which no result could have given",
      );
    if (!ids.includes(id)) ids.push(id);
  }
  return ids.reverse();
}
