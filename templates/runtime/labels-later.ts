// Labels given after the walk: a page is projected in one walk, each id its resolvers must name
// leaving a place in the result that is filled in once they answer.

import { KEPT_LAYOUTS, type Context } from "./context.js";
import { IdTable } from "./id-table.js";
import type { Labels } from "./resolvers.js";

/**
 * The labels a resolver gives a page, while the page is walked. It stands where the projection
 * reads a resolver's {@link Labels}, and the readers ({@link later}'s callers) ask it first: an id
 * `included` named gets that label; every other is added to `wanted`, in page order, and leaves a
 * place to fill in.
 */
export class LabelsLater {
  /** An id's label from `included`, or for an id the resolver is to name, its place in {@link wanted}: one lookup an id. */
  readonly byId = new IdTable<string | number>();
  /** The ids to ask the resolver for, each once, in the order the walk met them. */
  readonly wanted: string[] = [];
  /** The label of each wanted id, by its place in {@link wanted}, once the resolver has answered. */
  answered: (string | Error | undefined)[] = [];
  /** Every label, once the resolver has answered: `included`'s and the resolver's. */
  resolved: Labels | undefined = undefined;
  /** The sites that left places, the latest last. */
  readonly sites: Site[] = [];
  constructor(
    readonly resolver: string,
    known: ReadonlyMap<string, string> | undefined,
  ) {
    if (known) for (const [id, label] of known) this.byId.set(id, label);
  }
}

/**
 * What the places one field leaves share: the labels that fill them, the record's context, the
 * field, whether the value is a code (a looked-up legend) rather than an id, and how many issues the
 * walk had reported before them, so that an issue of theirs takes that place among the others.
 * Shared, so that a place costs no object of its own: each one made while a page is projected
 * makes a collection during it likelier, and a collection then copies the page just parsed.
 */
export class Site {
  constructor(
    readonly labels: LabelsLater,
    readonly ctx: Context,
    readonly field: string,
    readonly issueAt: number,
    readonly code: boolean,
  ) {}
}

/**
 * How many slots each place takes in {@link Walk.places}: the object or array it is in (set when
 * that is built), its key there, the id's place in its labels' `wanted`, the code as the record
 * had it (an id is read back from `wanted`: one pointer fewer to store), and its {@link Site}.
 */
export const PLACE_SLOTS = 5;

/** The places a walk left, in the order it met them, and the issues it has reported so far. */
export interface Walk {
  /** Slots from earlier pages past `length` are undefined: the list is reused, not grown anew. */
  readonly places: unknown[];
  /** How many slots this walk's places fill. */
  length: number;
  readonly issues: readonly unknown[];
  /** The places before this slot have their holder. */
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

/** How many of the latest sites of a resolver are looked through for one to share. */
const SITES_LOOKED_AT = 4;

function siteOf(
  labels: LabelsLater,
  ctx: Context,
  field: string,
  issueAt: number,
  code: boolean,
): Site {
  const sites = labels.sites;
  const last = Math.max(0, sites.length - SITES_LOOKED_AT);
  for (let i = sites.length - 1; i >= last; i--) {
    const site = sites[i]!;
    if (
      site.field === field &&
      site.ctx === ctx &&
      site.issueAt === issueAt &&
      site.code === code
    )
      return site;
  }
  const site = new Site(labels, ctx, field, issueAt, code);
  sites.push(site);
  return site;
}

/**
 * The most values one projection leaves for its resolvers to name: a bound on the lookup work one
 * call may cause (the places kept, the ids each resolver is asked about), not on what fits in a
 * result. A table writes a label in as few as two characters, so a page naming more might still
 * fit `MAX_RESULT_TEXT`; the model is asked for less all the same.
 */
export const MAX_LABELLED_VALUES = 25_000;

/** A projection that names more than {@link MAX_LABELLED_VALUES} values to look up: it stops there. */
export class TooManyLabelsError extends Error {
  constructor() {
    super(
      `the answer names more than ${MAX_LABELLED_VALUES} records or codes to look up, more than one call looks up`,
    );
    this.name = "TooManyLabelsError";
  }
}

/**
 * The label `included` gave `value`, an id (or the word for a code); otherwise leaves a place for
 * it and returns what stands there until the resolvers answer, always written over before the
 * result is returned.
 */
export function later(
  value: string | number,
  labels: LabelsLater,
  ctx: Context,
  field: string,
  key: string | number,
  code: boolean,
): string | null {
  const walk = walking!;
  if (walk.length >= MAX_LABELLED_VALUES * PLACE_SLOTS)
    throw new TooManyLabelsError();
  const id = code ? String(value) : (value as string);
  let wanted = labels.byId.get(id);
  if (typeof wanted === "string") return wanted;
  if (wanted === undefined) {
    wanted = labels.wanted.length;
    labels.wanted.push(id);
    labels.byId.set(id, wanted);
  }
  const site = siteOf(labels, ctx, field, walk.issues.length, code);
  const places = walk.places;
  const at = walk.length;
  // Written in order, so that a list still growing stays without holes.
  places[at] = undefined;
  places[at + 1] = key;
  places[at + 2] = wanted;
  places[at + 3] = code ? value : undefined;
  places[at + 4] = site;
  walk.length = at + PLACE_SLOTS;
  return null;
}

/** How many slots of places the walk under way has filled so far; 0 when none is under way. */
export function placesSoFar(): number {
  return walking === undefined ? 0 : walking.length;
}

/**
 * Gives the places left since `from` (a {@link placesSoFar}) that have no holder yet `holder`, the
 * object or array just built around them. Inner objects are built, and claim theirs, first.
 */
export function hold<T>(holder: T, from: number): T {
  const walk = walking;
  if (walk === undefined) return holder;
  const places = walk.places;
  for (let i = Math.max(from, walk.held); i < walk.length; i += PLACE_SLOTS)
    if (places[i] === undefined) places[i] = holder;
  return holder;
}

/** Gives a record's result the places its projection left: the tool calls it once per record. */
export function placed<T>(result: T): T {
  const walk = walking;
  if (walk === undefined || walk.held === walk.length) return result;
  hold(result, walk.held);
  walk.held = walk.length;
  return result;
}

const KEPT_LABELS = new LabelsLater("", undefined);
KEPT_LAYOUTS.set("labels-later", KEPT_LABELS);
KEPT_LAYOUTS.set(
  "site",
  new Site(KEPT_LABELS, KEPT_LAYOUTS.get("context") as Context, "", 0, false),
);
