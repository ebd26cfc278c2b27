// Ids the model can pass back to a tool: a record's own, and related records' ids.

import type { Context, FieldRead, ValueRead } from "./context.js";
import { handOut } from "./id-book.js";
import { unusable } from "./issues.js";
import { asObject } from "./json.js";
import type { Unusable } from "./markers.js";
import { typeName } from "./quoting.js";
import { shortId } from "./short-ids.js";
import { notRead } from "./values.js";

export function short(id: string, ctx: Context): string {
  const given = ctx.shortIds;
  const short =
    typeof given === "function" ? given(id) : (given?.get(id) ?? shortId(id));
  return handOut(short, id);
}

/** An id the model can pass to a tool, whole. */
export function argumentId(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  return typeof value === "string"
    ? value
    : numericId(value, at.ctx, at.field, at.required);
}

/** An id the model can pass to a tool, in its short form; a numeric id stays whole. */
export function shortArgumentId(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  return typeof value === "string"
    ? short(value, at.ctx)
    : numericId(value, at.ctx, at.field, at.required);
}

/**
 * An argument id that is no string: a number is written as text, anything else is not read. It
 * takes the read's parts, not the read, so that a reader inlined into a projection makes no
 * options object.
 */
function numericId(
  value: unknown,
  ctx: Context,
  field: string,
  required: boolean,
): string | null | Unusable {
  return typeof value === "number" && Number.isFinite(value)
    ? String(value)
    : notRead(value, ctx, field, required, "a string");
}

/** An integer id the model can pass to a tool: it stays a number, as the spec declares it. */
export function integerId(
  value: unknown,
  at: ValueRead,
): number | null | Unusable {
  if (Number.isInteger(value)) return value as number;
  return typeof value === "string" && /^-?\d{1,15}$/.test(value)
    ? Number(value)
    : notRead(value, at.ctx, at.field, at.required, "an integer");
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

/** The ids in a JSON:API relationship: one, several, or none (`data: null`, or no data at all). */
export function relationshipIds(relationship: unknown): Ids {
  const object = asObject(relationship);
  return object === undefined
    ? notRelationship(relationship)
    : linkageIds(object["data"]);
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

function linkageIds(data: unknown): Ids {
  if (Array.isArray(data)) return data.map(linkageId);
  if (data === undefined || data === null) return null;
  return linkageId(data);
}

function linkageId(linkage: unknown): string | Unreadable {
  const object = asObject(linkage);
  const id = idOf(object?.["id"]);
  if (id !== undefined) return id;
  const got = !object
    ? typeName(linkage)
    : object["id"] === undefined
      ? "an object without an id"
      : `an id that is ${typeName(object["id"])}`;
  return new Unreadable(
    linkage,
    `expected a resource identifier { type, id }, got ${got}`,
  );
}

export function idOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

export const ONE_GOT_LIST = "expected one related record, got a list";

export const LIST_GOT_ONE = "expected a list of related records, got one";

function relatedId(
  id: string | Unreadable,
  ctx: Context,
  field: string,
  shorten: boolean,
): string | Unusable {
  if (typeof id !== "string") return unusable(ctx, field, id.value, id.reason);
  return shorten ? short(id, ctx) : id;
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
