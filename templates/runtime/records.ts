// A record and its parts: the record object, JSON:API sections, nested objects, lifted parts.

import type { Context } from "./context.js";
import { absent, report, unusable } from "./issues.js";
import { asObject, read, type Json } from "./json.js";
import { hold, placesSoFar } from "./labels-later.js";
import type { Unusable } from "./markers.js";
import { typeName } from "./quoting.js";

/**
 * A constructor of a resource's results from the function that sets their fields. What it makes is
 * a plain object, as an object literal is (its prototype is Object.prototype, so it equals a
 * literal, strictly too), but made by `new`: V8 tracks a literal's allocation site and, once the
 * objects made there outlive a young collection, as a page's results do, allocates them straight
 * into the old generation, where each young string written into one costs a write barrier and the
 * dead results wait for a full collection: a 10,000-record page projected in 10.2 ms instead of
 * 13.4. `fill` is a function declaration or expression, which `new` can call; never an arrow.
 */
export function plainObjects<A extends unknown[], T>(
  fill: (this: T, ...args: A) => void,
): new (...args: A) => T {
  fill.prototype = Object.prototype;
  return fill as unknown as new (...args: A) => T;
}

/** The record as an object, or undefined with a report when it is something else. */
export function recordObject(record: unknown, ctx: Context): Json | undefined {
  const found = asObject(record);
  if (found === undefined) notARecord(record, ctx);
  return found;
}

/** A JSON:API section (`attributes`, `relationships`), or undefined with a report when it is not an object. */
export function section(
  value: unknown,
  key: "attributes" | "relationships",
  ctx: Context,
): Json | undefined {
  // The caller reads the key: one keyed read here, seeing both names, would go megamorphic.
  const object = asObject(value);
  if (object === undefined && value !== undefined && value !== null)
    notASection(value, key, ctx);
  return object;
}

// The reports kept apart so that the two readers above are small enough to inline.

function notARecord(record: unknown, ctx: Context): void {
  report(
    ctx,
    "unusable",
    "",
    record,
    `${ctx.resource}: the record is ${typeName(record)}, not an object`,
  );
}

function notASection(value: unknown, key: string, ctx: Context): void {
  report(
    ctx,
    "unusable",
    key,
    value,
    `${ctx.resource}.${key}: expected an object, got ${typeName(value)}`,
  );
}

/** An object whose parts are classified one by one. */
export function nested<T>(
  value: unknown,
  ctx: Context,
  field: string,
  required: boolean,
  build: (object: Json) => T,
): T | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  const object = asObject(value);
  if (!object)
    return unusable(
      ctx,
      field,
      value,
      `expected an object, got ${typeName(value)}`,
    );
  // Any label its parts wait for is filled into this object once the resolvers answer.
  const from = placesSoFar();
  return hold(build(object), from);
}

/**
 * An array of objects whose parts are classified one by one: each item projected alike; an item
 * that is `null` stays `null`, anything else that is not an object is marked.
 */
export function objects<T>(
  value: unknown,
  ctx: Context,
  field: string,
  required: boolean,
  build: (object: Json) => T,
): (T | null | Unusable)[] | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  if (!Array.isArray(value))
    return unusable(
      ctx,
      field,
      value,
      `expected a list of objects, got ${typeName(value)}`,
    );
  return value.map((item: unknown, i) => {
    if (item === null) return null;
    const object = asObject(item);
    if (!object)
      return unusable(
        ctx,
        `${field}[${i}]`,
        item,
        `expected an object, got ${typeName(item)}`,
      );
    const from = placesSoFar();
    return hold(build(object), from);
  });
}

/**
 * A part lifted to the top of the result (`source.author.name` as `author`). Where an object on
 * the way is absent or null, so is the part; where one is something else, the part is marked.
 */
export function lifted<T>(
  root: Json | undefined,
  path: readonly string[],
  ctx: Context,
  field: string,
  project: (value: unknown) => T,
): T | null | Unusable {
  let object = root;
  for (let i = 0; i < path.length - 1; i++) {
    const value = read(object, path[i]!);
    if (value === undefined || value === null) return null;
    object = asObject(value);
    if (!object)
      return unusable(
        ctx,
        field,
        value,
        `${path.slice(0, i + 1).join(".")} is ${typeName(value)}, not an object`,
      );
  }
  return project(read(object, path[path.length - 1]!));
}
