// Ids the model can pass back to a tool: a record's own, and related records' ids.

import type { Context, FieldRead, ValueRead } from "./context.js";
import { handOut } from "./id-book.js";
import { absent, unusable } from "./issues.js";
import { asObject, read } from "./json.js";
import type { Unusable } from "./markers.js";
import { TRIMMED_BY_SERVERS } from "./path-segments.js";
import { MAX_VALUE_TEXT, typeName } from "./quoting.js";
import { shortId } from "./short-ids.js";
import { string } from "./values.js";

/**
 * The short form of `id`, read from `field` (as the annotation names it) of the record `ctx`
 * projects, handed out as an id of that kind (`ticket.assignee`): only a tool that takes the ids
 * of that field expands it.
 */
export function short(id: string, ctx: Context, field: string): string {
  const given = ctx.shortIds;
  const short =
    typeof given === "function" ? given(id) : (given?.get(id) ?? shortId(id));
  return handOut(short, id, kindOf(ctx.resource, field));
}

/** Each resource's kinds of id by field, made once: a page shortens thousands of ids of a few fields. */
const kinds = new Map<string, Map<string, string>>();

function kindOf(resource: string, field: string): string {
  let byField = kinds.get(resource);
  if (byField === undefined) {
    byField = new Map();
    kinds.set(resource, byField);
  }
  let kind = byField.get(field);
  if (kind === undefined) {
    kind = `${resource}.${field}`;
    byField.set(field, kind);
  }
  return kind;
}

/** For a reader of related ids: the spec declares them text, so a number there is no id. */
export const TEXT_IDS = "text";
/** For a reader of related ids: the spec lets them be text or numbers (it declares both, or no type); a whole number is read as its digits. */
export const TEXT_OR_NUMBER_IDS = "text or number";
/** For a reader of related ids: the spec declares them integers, read as {@link integerOf} reads them. */
export const INTEGER_IDS = "integer";
/** The id type the spec declares for a reader's related ids. */
export type IdType =
  typeof TEXT_IDS | typeof TEXT_OR_NUMBER_IDS | typeof INTEGER_IDS;

/**
 * An integer id as the spec declares it: a number that is a safe integer (JSON numbers past 2^53
 * are rounded as they are parsed, so a larger one may name another record), or text in an
 * integer's own digits, at most 15 of them, no leading zero; undefined for anything else.
 */
export function integerOf(value: unknown): number | undefined {
  if (typeof value === "number")
    return Number.isSafeInteger(value) ? value : undefined;
  return typeof value === "string" && /^(0|-?[1-9]\d{0,14})$/.test(value)
    ? Number(value)
    : undefined;
}

/**
 * Text of nothing but what a server trims ({@link TRIMMED_BY_SERVERS}), characters shown as nothing
 * (default ignorable: U+200B, the Hangul fillers) and the blank Braille pattern, or none at all.
 */
const BLANK = new RegExp(
  `^[${TRIMMED_BY_SERVERS}\\p{Default_Ignorable_Code_Point}\\u2800]*$`,
  "u",
);

/** Whether text is blank ({@link BLANK}): it names no record, or another once a server trims it, so it is never looked up, shortened or passed on as an id. */
const isBlank = (value: unknown): value is string =>
  typeof value === "string" && BLANK.test(value);

/** Blank text as an id's marker names it. */
const blankText = (value: string): string =>
  value === "" ? "an empty string" : "only blank characters";

/**
 * Whether text is too long to be shown whole: cut, as a result's longer strings are, it would be
 * another id, which the model would pass back.
 */
const tooLongToShow = (value: unknown): boolean =>
  typeof value === "string" && value.length > MAX_VALUE_TEXT;

const TOO_LONG_TO_SHOW = `text longer than ${MAX_VALUE_TEXT} characters, too long to show whole`;

/** An id the model can pass to a tool, whole: text, as the spec declares it. */
export function argumentId(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  if (isBlank(value))
    return unusable(
      at.ctx,
      at.field,
      value,
      `expected an id, got ${blankText(value)}`,
    );
  return tooLongToShow(value)
    ? unusable(
        at.ctx,
        at.field,
        value,
        `expected an id, got ${TOO_LONG_TO_SHOW}`,
      )
    : string(value, at);
}

/** An id the model can pass to a tool, in its short form: text, as the spec declares it. */
export function shortArgumentId(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  return typeof value === "string" && !isBlank(value) && !tooLongToShow(value)
    ? short(value, at.ctx, at.field)
    : argumentId(value, at);
}

/** A whole number's digits, for an id the spec lets be a number; undefined for anything else. */
const digits = (value: unknown): string | undefined =>
  typeof value === "number" && Number.isSafeInteger(value)
    ? String(value)
    : undefined;

/** An id the model can pass to a tool, whole, that the spec lets be text or a number: a number is its digits. */
export function textOrNumberId(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  return digits(value) ?? argumentId(value, at);
}

/** {@link textOrNumberId} in its short form; a numeric id stays whole. */
export function shortTextOrNumberId(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  return digits(value) ?? shortArgumentId(value, at);
}

/** An integer id the model can pass to a tool: it stays a number, as the spec declares it. */
export function integerId(
  value: unknown,
  at: ValueRead,
): number | null | Unusable {
  const id = integerOf(value);
  if (id !== undefined) return id;
  return value === undefined || value === null
    ? absent(at.ctx, at.field, value, at.required)
    : unusable(
        at.ctx,
        at.field,
        value,
        `expected an integer id, got ${notAnId(value, INTEGER_IDS)}`,
      );
}

/** A related id that is there but cannot be read as one; becomes an {@link Unusable} marker where it is projected. */
export class Unreadable {
  constructor(
    readonly value: unknown,
    readonly reason: string,
  ) {}
}

/** The ids of a relationship or a foreign key: one, several, none (`null`), or what could not be read. */
export type Ids = string | Unreadable | Array<string | Unreadable> | null;

/**
 * The ids in a JSON:API relationship: one, several, or none (`data: null`, or no data at all).
 * `ids` is the id type the spec declares for them. JSON:API names a record by
 * its type and id together: a resource identifier whose `type` is not text, or not one of `types`
 * (the spec's, where it declares them), names no record this field reads, and is never looked up.
 */
export function relationshipIds(
  relationship: unknown,
  { ids, types }: { readonly ids: IdType; readonly types?: readonly string[] },
): Ids {
  const object = asObject(relationship);
  return object === undefined
    ? notRelationship(relationship)
    : linkageIds(object["data"], ids, types);
}

// The cases kept apart so that relationshipIds is small enough to inline.

function notRelationship(relationship: unknown): null | Unreadable {
  return relationship === undefined || relationship === null
    ? null
    : new Unreadable(
        relationship,
        `expected a relationship object, got ${typeName(relationship)}`,
      );
}

function linkageIds(
  data: unknown,
  ids: IdType,
  types: readonly string[] | undefined,
): Ids {
  if (Array.isArray(data))
    return data.map((linkage) => linkageId(linkage, ids, types));
  if (data === undefined || data === null) return null;
  return linkageId(data, ids, types);
}

function linkageId(
  linkage: unknown,
  ids: IdType,
  types: readonly string[] | undefined,
): string | Unreadable {
  const object = asObject(linkage);
  const id = idOf(object?.["id"], ids);
  if (id !== undefined && object !== undefined) {
    const type = object["type"];
    if (
      typeof type === "string" &&
      (types === undefined || types.includes(type))
    )
      return id;
    return new Unreadable(linkage, linkageOfOtherType(type, types));
  }
  const got = !object
    ? typeName(linkage)
    : object["id"] === undefined
      ? "an object without an id"
      : `an id that is ${notAnId(object["id"], ids)}`;
  return new Unreadable(
    linkage,
    `expected a resource identifier { type, id }${ids === TEXT_IDS ? " with a text id" : ""}, got ${got}`,
  );
}

/**
 * Why a resource identifier with an id names no record here. The API's type is not echoed: a
 * marker names what the spec expects, never what the API chose to write.
 */
function linkageOfOtherType(
  type: unknown,
  types: readonly string[] | undefined,
): string {
  if (types === undefined || typeof type !== "string")
    return `expected a resource identifier with a text type, got ${type === undefined ? "none" : `a type that is ${typeName(type)}`}`;
  const declared = types.map((t) => JSON.stringify(t)).join(" or ");
  return `expected a resource identifier of type ${declared || "(none the spec declares)"}, got one of another type`;
}

/**
 * The id a value names, as the spec declares it (`ids`): text; where it lets ids be numbers, a safe
 * integer's digits; where it declares integers, an integer {@link integerOf} reads, in its own
 * digits. Never blank text, which names no record, nor text too long to show whole.
 */
export function idOf(value: unknown, ids: IdType): string | undefined {
  if (tooLongToShow(value)) return undefined;
  if (ids === INTEGER_IDS) {
    const id = integerOf(value);
    return id === undefined ? undefined : String(id);
  }
  if (typeof value === "string") return isBlank(value) ? undefined : value;
  return ids === TEXT_IDS ? undefined : digits(value);
}

/**
 * What a value {@link idOf} reads no id from is, as a marker says it: `an empty string`, `only
 * whitespace`, a number
 * or text of the wrong kind, or its JSON type. It never quotes the value, which could read as
 * another id.
 */
export function notAnId(value: unknown, ids: IdType): string {
  if (isBlank(value)) return blankText(value);
  if (tooLongToShow(value)) return TOO_LONG_TO_SHOW;
  if (typeof value === "number" && ids !== TEXT_IDS && Number.isFinite(value))
    return Number.isInteger(value)
      ? "a number past 2^53, which may be rounded"
      : "a number that is not whole";
  if (typeof value === "string" && ids === INTEGER_IDS)
    return "text that is not an integer of at most 15 digits";
  return typeName(value);
}

/**
 * The id a foreign key holds, as the spec declares it ({@link idOf}): itself, or its embedded
 * record's under `idKey`; why not, where it holds none. Without `idKey` the spec declares the key
 * an id and no record: an object there is no id either.
 */
export function heldId(
  value: unknown,
  ids: IdType,
  idKey: string | undefined,
): string | { readonly reason: string } {
  const id = idOf(value, ids);
  if (id !== undefined) return id;
  const expected = EXPECTED_ID[ids];
  if (idKey === undefined)
    return { reason: `expected ${expected}, got ${notAnId(value, ids)}` };
  const object = asObject(value);
  if (!object)
    return {
      reason: `expected ${expected} or a record with \`${idKey}\`, got ${notAnId(value, ids)}`,
    };
  const held = read(object, idKey);
  const embedded = idOf(held, ids);
  if (embedded !== undefined) return embedded;
  return {
    reason:
      held === undefined || held === null
        ? // The reason names what was missing, never the object's own keys: they are the API's, not the annotation's.
          `expected a record with \`${idKey}\`, got an object without it`
        : `expected a record with \`${idKey}\`${HELD_AS[ids]}, got one whose \`${idKey}\` is ${notAnId(held, ids)}`,
  };
}

/** An id of each type, as a marker names what was expected. */
const EXPECTED_ID = {
  [TEXT_IDS]: "a text id",
  [TEXT_OR_NUMBER_IDS]: "an id",
  [INTEGER_IDS]: "an integer id",
} as const;

/** How an embedded record's id of each type is held, as a marker names it. */
const HELD_AS = {
  [TEXT_IDS]: " as text",
  [TEXT_OR_NUMBER_IDS]: "",
  [INTEGER_IDS]: " as an integer",
} as const;

export const ONE_GOT_LIST = "expected one related record, got a list";

export const LIST_GOT_ONE = "expected a list of related records, got one";

function relatedId(
  id: string | Unreadable,
  ctx: Context,
  field: string,
  shorten: boolean,
): string | Unusable {
  if (typeof id !== "string") return unusable(ctx, field, id.value, id.reason);
  return shorten ? short(id, ctx, field) : id;
}

function oneRelated(
  ids: Ids,
  ctx: Context,
  field: string,
  shorten: boolean,
): string | null | Unusable {
  if (ids === null) return null;
  if (Array.isArray(ids)) return unusable(ctx, field, ids, ONE_GOT_LIST);
  return relatedId(ids, ctx, field, shorten);
}

function manyRelated(
  ids: Ids,
  ctx: Context,
  field: string,
  shorten: boolean,
): (string | Unusable)[] | null | Unusable {
  if (ids === null) return null;
  if (ids instanceof Unreadable)
    return unusable(ctx, field, ids.value, ids.reason);
  if (typeof ids === "string") return unusable(ctx, field, ids, LIST_GOT_ONE);
  return ids.map((id) => relatedId(id, ctx, field, shorten));
}

/** The id of a related record, whole. */
export function relatedOne(
  ids: Ids,
  { ctx, field }: FieldRead,
): string | null | Unusable {
  return oneRelated(ids, ctx, field, false);
}

/** The id of a related record, in its short form. */
export function shortRelatedOne(
  ids: Ids,
  { ctx, field }: FieldRead,
): string | null | Unusable {
  return oneRelated(ids, ctx, field, true);
}

/** The ids of related records, whole. */
export function relatedMany(
  ids: Ids,
  { ctx, field }: FieldRead,
): (string | Unusable)[] | null | Unusable {
  return manyRelated(ids, ctx, field, false);
}

/** The ids of related records, in their short forms. */
export function shortRelatedMany(
  ids: Ids,
  { ctx, field }: FieldRead,
): (string | Unusable)[] | null | Unusable {
  return manyRelated(ids, ctx, field, true);
}
