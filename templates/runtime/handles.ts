// The id kept beside a joined name (`assignee_id` beside `assignee`): the handle the model passes to a tool.

import type { Context, FieldRead } from "./context.js";
import {
  heldId,
  INTEGER_IDS,
  type IdType,
  LIST_GOT_ONE,
  ONE_GOT_LIST,
  short,
} from "./ids.js";
import { unusable } from "./issues.js";
import type { Unusable } from "./markers.js";

/**
 * A string id as the model gets it, read as the join beside it reads it ({@link heldId}): what is
 * no id of the declared type is marked, never passed on, looked up or shortened.
 */
function stringHandle(
  value: unknown,
  idKey: string | undefined,
  ids: IdType,
  ctx: Context,
  field: string,
  shorten: boolean,
): string | Unusable {
  const id = heldId(value, ids, idKey);
  if (typeof id !== "string") return unusable(ctx, field, value, id.reason);
  return shorten ? short(id, ctx, field) : id;
}

/** An integer id as the model gets it: a number, as the spec declares it, read as the join beside it reads it. */
function integerHandle(
  value: unknown,
  idKey: string | undefined,
  ctx: Context,
  field: string,
): number | Unusable {
  const id = heldId(value, INTEGER_IDS, idKey);
  return typeof id === "string"
    ? Number(id)
    : unusable(ctx, field, value, id.reason);
}

/**
 * How the id kept beside a joined name is read: under which key of an embedded record (none where
 * the spec declares the key an id and no record), as which type, shortened or not.
 */
type HandleRead = FieldRead & {
  readonly idKey?: string;
  readonly ids: IdType;
  readonly shorten: boolean;
};

/** The id of the one record a plain join key holds, beside its name. */
export function refIdOne(
  value: unknown,
  { idKey, ids, shorten, ctx, field }: HandleRead,
): string | null | Unusable {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return unusable(ctx, field, value, ONE_GOT_LIST);
  return stringHandle(value, idKey, ids, ctx, field, shorten);
}

/** The ids of the records a plain join key lists, beside their names. */
export function refIdMany(
  value: unknown,
  { idKey, ids, shorten, ctx, field }: HandleRead,
): (string | Unusable)[] | null | Unusable {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return unusable(ctx, field, value, LIST_GOT_ONE);
  return value.map((item: unknown) =>
    stringHandle(item, idKey, ids, ctx, field, shorten),
  );
}

/** The integer id of the one record a plain join key holds, beside its name. */
export function integerRefIdOne(
  value: unknown,
  { idKey, ctx, field }: FieldRead & { readonly idKey?: string },
): number | null | Unusable {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return unusable(ctx, field, value, ONE_GOT_LIST);
  return integerHandle(value, idKey, ctx, field);
}

/** The integer ids of the records a plain join key lists, beside their names. */
export function integerRefIdMany(
  value: unknown,
  { idKey, ctx, field }: FieldRead & { readonly idKey?: string },
): (number | Unusable)[] | null | Unusable {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return unusable(ctx, field, value, LIST_GOT_ONE);
  return value.map((item: unknown) => integerHandle(item, idKey, ctx, field));
}
