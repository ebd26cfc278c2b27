// Foreign keys named through a resolver: a plain id, an embedded record, or a list of either.

import type { Context, FieldRead, LabelsRead } from "./context.js";
import { heldId, type IdType } from "./ids.js";
import { unusable } from "./issues.js";
import { label } from "./joins.js";
import { asObject, read } from "./json.js";
import { hold, placesSoFar } from "./labels-later.js";
import type { Unresolved, Unusable } from "./markers.js";
import { typeName } from "./quoting.js";
import type { Labels } from "./resolvers.js";

/**
 * How a resolver reads an embedded record (`{ "gid": "12345", "name": "Greg Sanchez" }`): the key
 * of its id, and the key of its name when the record carries one.
 */
export interface RecordKeys {
  readonly id: string;
  readonly label?: string;
}

/** The name an embedded record carries itself, which makes asking the resolver needless; an empty one names nothing. */
function carriedLabel(value: unknown, keys: RecordKeys): string | undefined {
  const object = asObject(value);
  if (object === undefined || keys.label === undefined) return undefined;
  const found = read(object, keys.label);
  return typeof found === "string" && found !== "" ? found : undefined;
}

/**
 * One foreign key's name: the one its embedded record carries, else the resolver's; a value with no
 * id of the type the spec declares (`ids`) is marked, never looked up. Without
 * `keys` the spec declares the key an id and no record: an object there is no id either.
 */
function refLabel(
  value: unknown,
  ids: IdType,
  labels: Labels,
  resolver: string,
  keys: RecordKeys | undefined,
  ctx: Context,
  field: string,
  key: string | number,
): string | Unresolved | Unusable {
  const id = heldId(value, ids, keys?.id);
  if (typeof id !== "string") return unusable(ctx, field, value, id.reason);
  // The name a record carries is shown only beside an id that names it: a record without one is no record.
  return (
    (keys === undefined ? undefined : carriedLabel(value, keys)) ??
    label(id, labels, resolver, ctx, field, key)
  );
}

/** A foreign key holding one record: an id, or an embedded record. */
export function refOne(
  value: unknown,
  {
    ids,
    labels,
    resolver,
    keys,
    key,
    ctx,
    field,
  }: FieldRead &
    LabelsRead & {
      readonly ids: IdType;
      readonly keys?: RecordKeys;
    },
): string | null | Unresolved | Unusable {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value))
    return unusable(ctx, field, value, "expected one id or record, got a list");
  return refLabel(value, ids, labels, resolver, keys, ctx, field, key);
}

/** A foreign key holding a list of ids or records. */
export function refMany(
  value: unknown,
  {
    ids,
    labels,
    resolver,
    keys,
    ctx,
    field,
  }: FieldRead &
    Omit<LabelsRead, "key"> & {
      readonly ids: IdType;
      readonly keys?: RecordKeys;
    },
): (string | Unresolved | Unusable)[] | null | Unusable {
  if (value === undefined || value === null) return null;
  // One id or record where the spec declares a list is not read as a list of one: never a silent guess.
  if (!Array.isArray(value))
    return unusable(
      ctx,
      field,
      value,
      `expected a list of ids or records, got ${typeName(value)}`,
    );
  const from = placesSoFar();
  return hold(
    value.map((item: unknown, i) =>
      refLabel(item, ids, labels, resolver, keys, ctx, field, i),
    ),
    from,
  );
}
