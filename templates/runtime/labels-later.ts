// Labels given after the walk: a page is projected in one walk, each id its resolvers must name
// leaving a place in the result that is filled in once they answer.

import { KEPT_LAYOUTS, type Context } from "./context.js";
import type { Labels } from "./resolvers.js";

/**
 * The labels a resolver gives a page, while the page is walked: those `included` already gave, in
 * the Map itself; every other id is added to `wanted`, in page order, and given a place to fill.
 */
export class LabelsLater extends Map<string, string | Error> {
  /** The ids to ask the resolver for, each once, in the order the walk met them. */
  readonly wanted = new Set<string>();
  /** Every label, once the resolver has answered. */
  answered: Labels | undefined = undefined;
  constructor(
    readonly resolver: string,
    known: ReadonlyMap<string, string> | undefined,
  ) {
    super(known ?? []);
  }
}

/** What a place is waiting for: a join's label, or a looked-up legend's word. */
export const LABEL = 0;
export const CODE = 1;

/** How many slots each place takes in {@link Walk.places}. */
export const PLACE_SLOTS = 8;

/**
 * The places a walk left, {@link PLACE_SLOTS} slots each, in the order the walk met them: the object
 * or array that holds the value, its key there, the id or code, its {@link LabelsLater}, the record's
 * context, the field, how many issues the walk had reported before it (so that its own issue, if
 * any, takes that place among them), and whether it is a {@link LABEL} or a {@link CODE}.
 */
export interface Walk {
  readonly places: unknown[];
  readonly issues: readonly unknown[];
  /** The places before this one have their holder. */
  held: number;
}

/**
 * The walk under way, if any. It is synchronous, so no other projection can run inside it; joins
 * read it only after {@link LabelsLater} has told them a walk is on.
 */
let walking: Walk | undefined;

/** Runs `walk` with `state` as the walk under way. */
export function walkingWith<T>(state: Walk, walk: () => T): T {
  const outer = walking;
  walking = state;
  try {
    return walk();
  } finally {
    walking = outer;
  }
}

/**
 * Leaves a place for the label (or word) of `value` and returns what stands in it until the
 * resolvers answer: it is always written over before the result is returned.
 */
export function later(
  value: string | number,
  labels: LabelsLater,
  ctx: Context,
  field: string,
  key: string | number,
  kind: typeof LABEL | typeof CODE,
): null {
  const walk = walking!;
  labels.wanted.add(kind === LABEL ? (value as string) : String(value));
  walk.places.push(
    undefined,
    key,
    value,
    labels,
    ctx,
    field,
    walk.issues.length,
    kind,
  );
  return null;
}

/** How many places the walk under way has left so far; 0 when none is under way. */
export function placesSoFar(): number {
  return walking === undefined ? 0 : walking.places.length;
}

/**
 * Gives the places left since `from` (a {@link placesSoFar}) that have no holder yet `holder`, the
 * object or array just built around them. Inner objects are built, and claim theirs, first.
 */
export function hold<T>(holder: T, from: number): T {
  const walk = walking;
  if (walk === undefined) return holder;
  const places = walk.places;
  for (let i = Math.max(from, walk.held); i < places.length; i += PLACE_SLOTS)
    if (places[i] === undefined) places[i] = holder;
  return holder;
}

/** Gives a record's result the places its projection left: the tool calls it once per record. */
export function placed<T>(result: T): T {
  const walk = walking;
  if (walk === undefined || walk.held === walk.places.length) return result;
  hold(result, walk.held);
  walk.held = walk.places.length;
  return result;
}

KEPT_LAYOUTS.set("labels-later", new LabelsLater("", undefined));
