// An id book shared by processes: what a call remembers in it and how it reads what it recalls.

import {
  ID_BOOK_LONGEST_ID,
  type IdBook,
  idBookKey,
  SHARERS_KEPT,
} from "./id-book.js";
import { typeName } from "./quoting.js";
import { mayBeShortForm, shortenIds, shortId } from "./short-ids.js";

/** An id a shared book holds for a short form, with the kind it was remembered under. */
export type Sharer = readonly [id: string, kind: string];

/** A short form given to a call: the full id it stands for, or the ids it was shown for when several. */
export type Recalled =
  string | { readonly ambiguous: string; readonly sharers: readonly Sharer[] };

/** Thrown for a shared book's answer that is no list of ids the runtime could have remembered. */
export class IdBookAnswerError extends Error {
  constructor(problem: string) {
    super(`its answer ${problem}`);
    this.name = "IdBookAnswerError";
  }
}

/**
 * A result's hand-outs, short, id, kind triples as {@link holdingHandOuts} keeps them, as the entries
 * a shared book remembers, each under its kind's key ({@link idBookKey}): each pair once, and an id
 * shown whole only when it could be another id's short form, as the process's own book notes them.
 */
export function entriesToRemember(
  handOuts: readonly string[],
): Array<readonly [short: string, full: string]> {
  const entries: Array<readonly [string, string]> = [];
  const first = new Map<string, string>();
  for (let i = 0; i < handOuts.length; i += 3) {
    const short = handOuts[i]!;
    const id = handOuts[i + 1]!;
    if (short === id && !mayBeShortForm(id)) continue;
    const key = idBookKey(handOuts[i + 2]!, short);
    const known = first.get(key);
    if (known === id) continue;
    if (known === undefined) first.set(key, id);
    entries.push([key, id]);
  }
  return entries;
}

/**
 * What `given` stands for among the ids of `kinds`, from a shared book: the id it was remembered for
 * (under one kind or several); itself when it was never remembered as one of them; or, shown for
 * several ids, those ids. One of them may be `given` itself, an id shown whole: once a refusal has
 * remembered a longer form for each of the others, and `given` for itself after them, it stands for
 * that id, as in the process's own book.
 */
export async function recalled(
  book: IdBook,
  given: string,
  kinds: readonly string[],
): Promise<Recalled> {
  const lists = await Promise.all(
    kinds.map(async (kind) =>
      checkedIds(await book.recall(idBookKey(kind, given)), given),
    ),
  );
  const sharers = lists.flatMap((ids, k) =>
    ids.map((id): Sharer => [id, kinds[k]!]),
  );
  const ids = new Set(sharers.map(([id]) => id));
  if (ids.size === 0) return given;
  if (ids.size === 1) return sharers[0]![0];
  const holdingGiven = lists.filter((list) => list.includes(given));
  if (
    holdingGiven.length > 0 &&
    holdingGiven.every((list) => list[list.length - 1] === given) &&
    (await toldApart(book, given, sharers))
  )
    return given;
  return { ambiguous: given, sharers };
}

/** Whether each id behind `given` other than itself has, under its kind, the longer form a refusal remembers for it. */
async function toldApart(
  book: IdBook,
  given: string,
  sharers: readonly Sharer[],
): Promise<boolean> {
  const longer = shortenIds(sharers.map(([id]) => id));
  const found = await Promise.all(
    sharers.map(async ([id, kind]) => {
      const form = longer.get(id) ?? id;
      if (id === given || form === id) return true;
      return checkedIds(
        await book.recall(idBookKey(kind, form)),
        form,
      ).includes(id);
    }),
  );
  return found.every(Boolean);
}

/**
 * For a short form shown for several ids, the longer forms that tell them apart, one for each id,
 * each remembered in the book under the kind its id came from, so that any process takes it, and
 * `given` itself, when one of the ids is `given` shown whole, remembered last: the way forward the
 * error gives the model.
 */
export async function rememberLongerForms(
  book: IdBook,
  given: string,
  sharers: readonly Sharer[],
): Promise<string[]> {
  const ids = [...new Set(sharers.map(([id]) => id))];
  const longer = shortenIds(ids);
  const entries: Array<readonly [string, string]> = [];
  for (const [id, kind] of sharers) {
    const form = longer.get(id) ?? id;
    if (form !== id) entries.push([idBookKey(kind, form), id]);
  }
  for (const [id, kind] of sharers)
    if (id === given) entries.push([idBookKey(kind, given), given]);
  if (entries.length > 0) await book.remember(entries);
  return ids.map((id) => longer.get(id) ?? id);
}

/**
 * The book's answer for one short form, asked under a kind's key, checked: a list of ids, each one
 * the runtime could have remembered for it (the form, without its kind, is the start of every id). Only the last {@link SHARERS_KEPT} count, as in the process's own book, each once.
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
    // And it is the id whole, or begins with the id's plain short form, lengthened where ids collide.
    if (id !== given && !given.startsWith(shortId(id)))
      throw new IdBookAnswerError(
        "holds an id whose short form is not the one asked for, which no result could have given",
      );
    if (!ids.includes(id)) ids.push(id);
  }
  return ids.reverse();
}
