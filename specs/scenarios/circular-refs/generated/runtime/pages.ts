// Reading parsed JSON without trusting its shape or its prototype.

// A response's page fields.

import type { FieldRead } from "./context.js";
import { unusable } from "./issues.js";
import { asObject, read } from "./json.js";
import type { Unusable } from "./markers.js";
import { typeName } from "./quoting.js";

/** True when a page field (a `links.next`) is there and not null or empty. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** The value at a dotted path of the response, for page fields. */
export function at(response: unknown, path: readonly string[]): unknown {
  let value: unknown = response;
  for (const key of path) value = read(asObject(value), key);
  return value;
}

/** Where a dotted path stops at something that is there but is not an object: the steps before it, and what stood there. */
export function blockedAt(
  response: unknown,
  path: readonly string[],
): { readonly steps: string; readonly found: unknown } | undefined {
  let value: unknown = response;
  for (let i = 0; i < path.length; i++) {
    if (value === undefined || value === null) return undefined;
    const object = asObject(value);
    if (!object)
      return { steps: path.slice(0, i).join(".") || "the top", found: value };
    value = read(object, path[i]!);
  }
  return undefined;
}

/**
 * A page field read by `readValue`, or an unusable marker when a step of its path is there but is
 * not an object (`"meta": "x"` for `meta.page.total`): the value under it is unreadable, not absent.
 */
export function pageValue<T>(
  response: unknown,
  { path, ctx, field }: FieldRead & { readonly path: readonly string[] },
  readValue: (value: unknown) => T,
): T | Unusable {
  const blocked = blockedAt(response, path);
  if (blocked)
    return unusable(
      ctx,
      field,
      blocked.found,
      `expected an object at ${blocked.steps}, got ${typeName(blocked.found)}`,
    );
  return readValue(at(response, path));
}
