// Reading parsed JSON without trusting its shape or its prototype.

export type Json = Record<string, unknown>;

/**
 * The most lists and objects a value from outside may nest, one in another: an API's value kept
 * whole, and the model's arguments. Deeper ones are refused before anything recurses into them, so
 * no reader, check or serializer runs out of stack.
 */
export const MAX_NESTING = 64;

export function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/** Writes `value` as an own property, so that a name like `__proto__` is a key, never the prototype. */
export function setOwn(target: Json, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export function read(object: Json | undefined, key: string): unknown {
  return object === undefined || !Object.hasOwn(object, key)
    ? undefined
    : object[key];
}
