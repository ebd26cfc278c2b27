// A page whose joins need resolvers, projected in one walk: each record is projected while the ids
// to resolve are collected, and the labels are filled in once the resolvers have answered.

import {
  passIssuesOn,
  recordOptions,
  WHOLE_IDS,
  type Context,
  type ProjectionIssue,
  type ProjectOptions,
  type RecordOptions,
} from "./context.js";
import { shortIdCheck } from "./distinct-short-ids.js";
import { handOutHeld, holdingHandOuts } from "./id-book.js";
import { label } from "./joins.js";
import { withinItemBudget } from "./records.js";
import {
  LabelsLater,
  PLACE_SLOTS,
  walkingWith,
  type Site,
  type Walk,
} from "./labels-later.js";
import { unknownCode } from "./legends.js";
import { resolveLabels, type Labels, type Resolver } from "./resolvers.js";
import { shortenIds } from "./short-ids.js";

/**
 * What a page's one walk works with: the resolvers it may call, by name; the labels `included`
 * named (includedLabels); the call's options; how many ids will be shortened.
 */
export interface OneWalkPage<K extends string> {
  resolverNames: readonly K[];
  resolvers: Readonly<Record<K, Resolver>>;
  included: ReadonlyMap<string, ReadonlyMap<string, string>>;
  options: ProjectOptions;
  expectedIds: number;
}

/**
 * Projects a page in one walk: `walk` projects every record with lookups that name what `included`
 * named and leave a place for every other id, which is collected, in page order; each resolver is
 * then called once with those ids, and the places are filled in. `finish`, if given, then makes the
 * result from what the walk made (a token budget measures the result only once it is filled in).
 *
 * The result and its issues are those of a projection with every label known beforehand: an id the
 * resolver did not name is an unresolved marker whose issue takes its place among the record's
 * others, field by field. Short ids are kept distinct as by {@link withDistinctShortIds}, the ids of
 * unresolved markers counted too; where two collide, the page is projected again, labels known. A
 * resolver's failure fails the call before any issue is passed on, as it did before the projection.
 * A walk that throws (a getter or proxy in the response, never plain JSON) fails the call with the
 * issues reported before it: the resolvers are not asked about a page that failed, so an id they
 * would not have named gets no issue.
 */
export function projectInOneWalk<K extends string, W>(
  page: OneWalkPage<K>,
  walk: (lookups: Readonly<Record<K, Labels>>, options: RecordOptions) => W,
): Promise<W>;
export function projectInOneWalk<K extends string, W, T>(
  page: OneWalkPage<K>,
  walk: (lookups: Readonly<Record<K, Labels>>, options: RecordOptions) => W,
  finish: (walked: W, options: RecordOptions) => T,
): Promise<T>;
export async function projectInOneWalk<K extends string, W, T>(
  page: OneWalkPage<K>,
  walk: (lookups: Readonly<Record<K, Labels>>, options: RecordOptions) => W,
  finish?: (walked: W, options: RecordOptions) => T,
): Promise<T> {
  const {
    resolverNames: names,
    resolvers,
    included: known,
    options,
    expectedIds,
  } = page;
  const made = (walked: W, options: RecordOptions): T =>
    finish ? finish(walked, options) : (walked as unknown as T);
  const { onIssue } = options;
  const check = shortIdCheck(expectedIds);
  const issues: ProjectionIssue[] = [];
  const collect =
    onIssue && ((issue: ProjectionIssue) => void issues.push(issue));
  const passOn = (list: readonly ProjectionIssue[]) =>
    passIssuesOn(onIssue, list);
  const lookups = Object.fromEntries(
    names.map((name) => [name, new LabelsLater(name, known.get(name))]),
  ) as Record<K, LabelsLater>;
  const walkOptions = recordOptions(
    collect,
    options.wholeIds ? WHOLE_IDS : check.note,
  );
  const state: Walk = {
    places: spareLists.pop() ?? [],
    length: 0,
    issues,
    held: 0,
  };
  // The plain short forms reach the id book only once no two ids share one.
  const held: string[] = [];
  const { handOuts } = options;
  const forSharedBook = handOuts !== undefined;
  const late: (number | ProjectionIssue)[] = [];
  let labels: Record<K, Labels>;
  let result: T;
  try {
    let walked: W;
    try {
      walked = holdingHandOuts(
        held,
        () =>
          // Each LabelsLater stands for the resolver's Labels: the readers ask it first, and never as a Map.
          walkingWith(state, () =>
            withinItemBudget(() =>
              walk(lookups as unknown as Record<K, Labels>, walkOptions),
            ),
          ),
        forSharedBook,
      );
    } catch (error) {
      passOn(issues);
      throw error;
    }
    // A resolver's failure fails the call with no issue passed on, as when it was asked first.
    labels = await resolveLabels(
      Object.fromEntries(
        names.map((name) => [name, lookups[name].wanted]),
      ) as unknown as Record<K, readonly string[]>,
      resolvers,
      known,
      options,
    );
    for (const name of names) {
      const later = lookups[name];
      const answered = labels[name];
      later.resolved = answered;
      later.answered = later.wanted.map((id) => answered.get(id));
    }
    try {
      result = holdingHandOuts(
        held,
        () => {
          fillIn(state, collect && late);
          return made(walked, walkOptions);
        },
        forSharedBook,
      );
    } catch (error) {
      passOn(inPlace(issues, late));
      throw error;
    }
  } finally {
    release(state);
  }
  // On the rare path of a walk that threw, the check is not released: its table is left to the collector.
  const ids = check.finish();
  if (ids) {
    issues.length = 0;
    const again = recordOptions(collect, shortenIds(ids));
    const lengthened: string[] = [];
    try {
      result = holdingHandOuts(
        lengthened,
        () => made(walk(labels, again), again),
        forSharedBook,
      );
    } finally {
      passOn(issues);
    }
    handOutHeld(lengthened, handOuts);
    return result;
  }
  handOutHeld(held, handOuts);
  passOn(inPlace(issues, late));
  return result;
}

/**
 * Lists of places kept for the next walks: a list made anew for each page grew by copying, and the
 * copies made a collection during the projection likelier. Pages projected at once take one each.
 */
const spareLists: unknown[][] = [];
/** A list of places longer than this, once used, is left to the collector rather than kept. */
const KEPT_SLOTS = 2 ** 18;
/** How many lists are kept: as many as pages usually projected at once, not as many as ever were. */
const KEPT_LISTS = 4;

/**
 * Writes each place's label, or word, into its holder; where the resolver gave none, the marker,
 * whose issue goes to `late` with the number of issues the walk had reported before the place.
 *
 * Written with Reflect.set, not `holder[key] =`: that keyed store, seeing several keys, went
 * megamorphic, and V8 then allocated memory for each first write of a field of an object;
 * Reflect.set writes the same property and allocates nothing.
 */
function fillIn(
  walk: Walk,
  late: (number | ProjectionIssue)[] | undefined,
): void {
  const places = walk.places;
  for (let i = 0; i < walk.length; i += PLACE_SLOTS) {
    const holder = places[i] as Record<string | number, unknown>;
    const key = places[i + 1] as string | number;
    const site = places[i + 4] as Site;
    // By the id's place among those wanted: the id itself, in the page, is not read again.
    const found = site.labels.answered[places[i + 2] as number];
    if (typeof found === "string") {
      Reflect.set(holder, key, found);
      continue;
    }
    const { issueAt, field, labels } = site;
    const value = site.code
      ? (places[i + 3] as string | number)
      : labels.wanted[places[i + 2] as number]!;
    const ctx: Context = {
      resource: site.ctx.resource,
      onIssue: late && ((issue) => void late.push(issueAt, issue)),
      shortIds: site.ctx.shortIds,
    };
    Reflect.set(
      holder,
      key,
      site.code
        ? unknownCode(ctx, field, value, labels.resolver)
        : label(
            value as string,
            labels.resolved!,
            labels.resolver,
            ctx,
            field,
            key,
          ),
    );
  }
}

/** Empties a walk's list of places, keeping it for another walk when it is not too long. */
function release(walk: Walk): void {
  if (walk.places.length > KEPT_SLOTS || spareLists.length >= KEPT_LISTS)
    return;
  walk.places.fill(undefined, 0, walk.length);
  spareLists.push(walk.places);
}

/** The walk's issues with each late one at the place its field had among them. */
function inPlace(
  issues: readonly ProjectionIssue[],
  late: readonly (number | ProjectionIssue)[],
): readonly ProjectionIssue[] {
  if (late.length === 0) return issues;
  const all: ProjectionIssue[] = [];
  let next = 0;
  for (let i = 0; i < late.length; i += 2) {
    const at = late[i] as number;
    while (next < at) all.push(issues[next++]!);
    all.push(late[i + 1] as ProjectionIssue);
  }
  while (next < issues.length) all.push(issues[next++]!);
  return all;
}
