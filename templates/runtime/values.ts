// Plain values: strings, numbers, booleans, and values kept whole, checked against the spec.

import type { Context, ValueRead } from "./context.js";
import { absent, unusable } from "./issues.js";
import { asObject, type Json, MAX_NESTING, read, setOwn } from "./json.js";
import { markerShape, type MarkerKind, type Unusable } from "./markers.js";
import { clipped, MAX_VALUE_TEXT, typeName } from "./quoting.js";
import { partsProblem } from "./records.js";

export function string(
  value: unknown,
  at: ValueRead,
): string | null | Unusable {
  return typeof value === "string"
    ? value
    : notRead(value, at.ctx, at.field, at.required, "a string");
}

/**
 * A string cut to at most `most` characters (`max_chars`), marked as every text the runtime cuts:
 * `… (N characters)` after the kept part, a character written as two UTF-16 units never halved.
 */
export function clippedString(
  value: unknown,
  { most, ctx, field, required }: ValueRead & { most: number },
): string | null | Unusable {
  return typeof value === "string"
    ? clipped(value, most)
    : notRead(value, ctx, field, required, "a string");
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
  return Number.isSafeInteger(value)
    ? (value as number)
    : notAnInteger(value, at);
}

/**
 * Why an integer past 2^53 − 1 cannot be shown: JSON readers round it as they parse it
 * (`9007199254740993` arrives as `…992`), so the number read is not the one the API sent.
 */
export const PAST_2_53 = "an integer past 2^53 cannot be shown exactly";

/** {@link notRead} for {@link integer}, which also marks an integer the parse has rounded. */
function notAnInteger(value: unknown, at: ValueRead): null | Unusable {
  return Number.isInteger(value)
    ? unusable(at.ctx, at.field, value, PAST_2_53)
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
 * Why an untyped value cannot be passed on, or undefined: an object inside it would pass for a
 * marker, a number in it overflowed to `Infinity` as the JSON was parsed (JSON writes it as `null`,
 * a value the API never sent), or it nests past {@link MAX_NESTING} counting the `levels` it sits
 * in. Walked with a list rather than by recursion, and each object once, so that no depth or cycle
 * of the value can stop it.
 */
function untypedProblem(value: unknown, levels: number): string | undefined {
  const pending: unknown[] = [value];
  const depths: number[] = [levels];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const next = pending.pop();
    const depth = depths.pop()! + 1;
    if (typeof next === "number" && !Number.isFinite(next))
      return `expected a number, got ${typeName(next)}`;
    if (typeof next !== "object" || next === null || seen.has(next)) continue;
    if (depth > MAX_NESTING) return TOO_DEEP;
    seen.add(next);
    const items = Array.isArray(next) ? next : undefined;
    const kind = items ? undefined : markerShape(next);
    if (kind !== undefined) return forgedMarker(kind);
    if (!items && Object.keys(next).some(tooLongKey)) return KEY_TOO_LONG;
    const parts = items ?? Object.values(next);
    const problem = partsProblem(
      parts.length,
      items !== undefined ? "items" : "members",
    );
    if (problem !== undefined) return problem;
    for (const item of parts) {
      pending.push(item);
      depths.push(depth);
    }
  }
  return undefined;
}

const TOO_DEEP = `nests lists and objects more than ${MAX_NESTING} deep`;

// A key cut as a long string is would be another key, or the same as another cut one: the value is unusable instead.
const tooLongKey = (key: string): boolean => key.length > MAX_VALUE_TEXT;

const KEY_TOO_LONG = `holds a key longer than ${MAX_VALUE_TEXT} characters, too long to show whole`;

const forgedMarker = (kind: MarkerKind) =>
  `holds an object shaped like a marker (\`{ "${kind}": … }\`), which only projector writes`;

/**
 * The value as its schema declares it: objects keep only their declared properties (so a key the
 * spec does not declare never rides along inside a kept object), maps each key with its value
 * checked, arrays and scalars are checked all the way down. Returns the reason instead when the value does not fit, or when it holds an
 * object shaped like a marker: API data is never passed on as one of projector's markers.
 */
function conform(
  value: unknown,
  schema: ValueSchema,
  path: string,
  levels: number,
): unknown {
  const at = path ? `${path}: ` : "";
  const refuse = (reason: string) => ({ [NOT_CONFORMING]: `${at}${reason}` });
  const fail = (expected: string) =>
    refuse(`expected ${expected}, got ${typeName(value)}`);
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
      if (Number.isSafeInteger(value)) return value;
      return Number.isInteger(value) ? refuse(PAST_2_53) : fail("an integer");
    case "array": {
      if (!Array.isArray(value)) return fail("an array");
      if (levels >= MAX_NESTING) return refuse(TOO_DEEP);
      const tooMany = partsProblem(value.length, "items");
      if (tooMany !== undefined) return refuse(tooMany);
      const items: unknown[] = [];
      for (const [i, item] of value.entries()) {
        const kept = conform(
          item,
          schema.items ?? {},
          `${path}[${i}]`,
          levels + 1,
        );
        if (typeof kept === "object" && kept !== null && NOT_CONFORMING in kept)
          return kept;
        items.push(kept);
      }
      return items;
    }
    case "object": {
      const object = asObject(value);
      if (!object) return fail("an object");
      if (levels >= MAX_NESTING) return refuse(TOO_DEEP);
      const kept: Json = {};
      const values = schema.additionalProperties;
      // A map's members are each of its keys, every one checked against the schema of its values.
      const members: [string, MemberSchema][] =
        values === undefined || values === false
          ? Object.entries(schema.properties ?? {})
          : Object.keys(object).map((name) => [name, values]);
      if (members.some(([name]) => tooLongKey(name)))
        return refuse(KEY_TOO_LONG);
      const tooMany =
        values === undefined || values === false
          ? undefined
          : partsProblem(members.length, "members");
      if (tooMany !== undefined) return refuse(tooMany);
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
          levels + 1,
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
      return kind === undefined ? kept : refuse(forgedMarker(kind));
    }
    default: {
      const problem = untypedProblem(value, levels);
      return problem === undefined ? value : refuse(problem);
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
  const kept = conform(value, schema, "", 0);
  if (typeof kept === "object" && kept !== null && NOT_CONFORMING in kept)
    return unusable(
      ctx,
      field,
      value,
      (kept as Record<symbol, string>)[NOT_CONFORMING]!,
    );
  return kept as T;
}
