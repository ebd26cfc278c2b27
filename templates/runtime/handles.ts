// The id kept beside a joined name (`assignee_id` beside `assignee`): the handle the model passes to a tool.

import type { Context, FieldRead } from "./context.js";
import {
  type IdType,
  LIST_GOT_ONE,
  notAnId,
  ONE_GOT_LIST,
  short,
} from "./ids.js";
import { unusable } from "./issues.js";
import { asObject, read } from "./json.js";
import type { Unusable } from "./markers.js";
import { typeName } from "./quoting.js";
/**
 * The id a foreign key holds: itself, or its embedded record's under `idKey`; a reason when it holds
 * none, or an empty string, which names no record.
 */
function heldId(
  value: unknown,
  idKey: string,
): string | number | { readonly reason: string } {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  const object = asObject(value);
  if (!object)
    return {
      reason: `expected an id or a record with \`${idKey}\`, got ${notAnId(value)}`,
    };
  const id = read(object, idKey);
  if (typeof id === "string" && id !== "") return id;
  if (typeof id === "number" && Number.isFinite(id)) return id;
  return {
    reason:
      id === undefined || id === null
        ? `expected a record with \`${idKey}\`, got an object without it`
        : `expected a record with \`${idKey}\`, got one whose \`${idKey}\` is ${notAnId(id)}`,
  };
}

/**
 * A string id as the model gets it: shortened when asked. A number the API sent is its digits, never
 * cut, where the spec lets ids be numbers; where it declares them text (`textOnly`), it is marked.
 */
function stringHandle(
  value: unknown,
  idKey: string,
  textOnly: boolean,
  ctx: Context,
  field: string,
  shorten: boolean,
): string | Unusable {
  const id = heldId(value, idKey);
  if (typeof id === "number")
    return textOnly
      ? unusable(ctx, field, value, `expected a text id, got number`)
      : String(id);
  if (typeof id !== "string") return unusable(ctx, field, value, id.reason);
  return shorten ? short(id, ctx) : id;
}

/** An integer id as the model gets it: a number, as the spec declares it; digits in text are read as one. */
function integerHandle(
  value: unknown,
  idKey: string,
  ctx: Context,
  field: string,
): number | Unusable {
  const id = heldId(value, idKey);
  if (typeof id === "number" && Number.isSafeInteger(id)) return id;
  if (typeof id === "string" && /^-?\d{1,15}$/.test(id)) return Number(id);
  return unusable(
    ctx,
    field,
    value,
    typeof id === "object"
      ? id.reason
      : `expected an integer id, got ${typeName(id)}`,
  );
}

/** How the id kept beside a joined name is read: under which key of an embedded record, as which type, shortened or not. */
type HandleRead = FieldRead & {
  readonly idKey: string;
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
  { idKey, ctx, field }: FieldRead & { readonly idKey: string },
): number | null | Unusable {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return unusable(ctx, field, value, ONE_GOT_LIST);
  return integerHandle(value, idKey, ctx, field);
}

/** The integer ids of the records a plain join key lists, beside their names. */
export function integerRefIdMany(
  value: unknown,
  { idKey, ctx, field }: FieldRead & { readonly idKey: string },
): (number | Unusable)[] | null | Unusable {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return unusable(ctx, field, value, LIST_GOT_ONE);
  return value.map((item: unknown) => integerHandle(item, idKey, ctx, field));
}
