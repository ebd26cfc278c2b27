// Plain values: strings, numbers, booleans, and values kept whole, checked against the spec.

import type { Context, ValueRead } from "./context.js";
import { absent, unusable } from "./issues.js";
import { asObject, read, setOwn, type Json } from "./json.js";
import { markerShape, type MarkerKind, type Unusable } from "./markers.js";
import { typeName } from "./quoting.js";

export function string(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  return typeof value === "string"
    ? value
    : notRead(value, at.ctx, at.field, at.required, "a string");
}

export function number(
  value: unknown,
  at: ValueRead,
): number | null | Unusable {
  return typeof value === "number" && Number.isFinite(value)
    ? value
    : notRead(value, at.ctx, at.field, at.required, "a number");
}

export function integer(
  value: unknown,
  at: ValueRead,
): number | null | Unusable {
  return Number.isInteger(value)
    ? (value as number)
    : notRead(value, at.ctx, at.field, at.required, "an integer");
}

export function boolean(
  value: unknown,
  at: ValueRead,
): boolean | null | Unusable {
  return typeof value === "boolean"
    ? value
    : notRead(value, at.ctx, at.field, at.required, "true or false");
}

/**
 * A value that is not what its reader reads: `null` when absent, else a marker. Kept out of the
 * readers, so that each is small enough for V8 to inline into a record's projection; it takes the
 * read's parts, not the read itself, so that an inlined reader's options object need not be made.
 */
export function notRead(
  value: unknown,
  ctx: Context,
  field: string,
  required: boolean,
  expected: string,
): null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  return unusable(
    ctx,
    field,
    value,
    `expected ${expected}, got ${typeName(value)}`,
  );
}

/**
 * What the spec declares a value kept whole to be, as the result schema states it: a type or an
 * enum (`{}` takes anything), each nullable property as `{ anyOf: [schema, { type: "null" }] }`.
 */
export interface ValueSchema {
  readonly type?:
    "string" | "number" | "integer" | "boolean" | "array" | "object";
  readonly enum?: readonly unknown[];
  readonly items?: ValueSchema;
  readonly properties?: { readonly [name: string]: MemberSchema };
  /** A map's: the schema of each of its values (an object with no properties declared). */
  readonly additionalProperties?: MemberSchema | false;
}

/** The schema of a property or a map's values; where nullable, its schema first, then `{ type: "null" }`. */
type MemberSchema = ValueSchema | { readonly anyOf: readonly unknown[] };

const NOT_CONFORMING = Symbol("not conforming");

/**
 * The first object inside an untyped value that would pass for a marker. Walked with a list rather
 * than by recursion, and each object once, so that no depth or cycle of the value can stop it.
 */
function markerShapeWithin(value: unknown): MarkerKind | undefined {
  const pending = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== "object" || next === null || seen.has(next)) continue;
    seen.add(next);
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
      continue;
    }
    const kind = markerShape(next);
    if (kind !== undefined) return kind;
    for (const key of Object.keys(next)) pending.push((next as Json)[key]);
  }
  return undefined;
}

/**
 * The value as its schema declares it: objects keep only their declared properties (so a key the
 * spec does not declare never rides along inside a kept object), maps each key with its value
 * checked, arrays and scalars are checked all the way down. Returns the reason instead when the value does not fit, or when it holds an
 * object shaped like a marker: API data is never passed on as one of projector's markers.
 */
function conform(value: unknown, schema: ValueSchema, path: string): unknown {
  const at = path ? `${path}: ` : "";
  const fail = (expected: string) => ({
    [NOT_CONFORMING]: `${at}expected ${expected}, got ${typeName(value)}`,
  });
  const forged = (kind: MarkerKind) => ({
    [NOT_CONFORMING]: `${at}holds an object shaped like a marker (\`{ "${kind}": … }\`), which only projector writes`,
  });
  if (schema.enum)
    return schema.enum.includes(value)
      ? value
      : fail(`one of ${JSON.stringify(schema.enum)}`);
  switch (schema.type) {
    case "string":
    case "boolean":
      return typeof value === schema.type ? value : fail(`a ${schema.type}`);
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? value
        : fail("a number");
    case "integer":
      return Number.isInteger(value) ? value : fail("an integer");
    case "array": {
      if (!Array.isArray(value)) return fail("an array");
      const items: unknown[] = [];
      for (const [i, item] of value.entries()) {
        const kept = conform(item, schema.items ?? {}, `${path}[${i}]`);
        if (typeof kept === "object" && kept !== null && NOT_CONFORMING in kept)
          return kept;
        items.push(kept);
      }
      return items;
    }
    case "object": {
      const object = asObject(value);
      if (!object) return fail("an object");
      const kept: Json = {};
      const values = schema.additionalProperties;
      // A map's members are each of its keys, every one checked against the schema of its values.
      const members: [string, MemberSchema][] =
        values === undefined || values === false
          ? Object.entries(schema.properties ?? {})
          : Object.keys(object).map((name) => [name, values]);
      for (const [name, declared] of members) {
        const nullable = "anyOf" in declared;
        const inner = read(object, name);
        if (inner === undefined || (inner === null && nullable)) {
          if (inner === null) kept[name] = null;
          continue;
        }
        const result = conform(
          inner,
          nullable ? (declared.anyOf[0] as ValueSchema) : declared,
          path ? `${path}.${name}` : name,
        );
        if (
          typeof result === "object" &&
          result !== null &&
          NOT_CONFORMING in result
        )
          return result;
        setOwn(kept, name, result);
      }
      const kind = markerShape(kept);
      return kind === undefined ? kept : forged(kind);
    }
    default: {
      const kind = markerShapeWithin(value);
      return kind === undefined ? value : forged(kind);
    }
  }
}

/** A value the annotation keeps whole: checked against the spec's schema, and trimmed to it. */
export function whole<T>(
  value: unknown,
  { schema, ctx, field, required }: ValueRead & { schema: ValueSchema },
): T | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  const kept = conform(value, schema, "");
  if (typeof kept === "object" && kept !== null && NOT_CONFORMING in kept)
    return unusable(
      ctx,
      field,
      value,
      (kept as Record<symbol, string>)[NOT_CONFORMING]!,
    );
  return kept as T;
}
