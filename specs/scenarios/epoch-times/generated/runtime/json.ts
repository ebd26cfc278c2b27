// Reading parsed JSON without trusting its shape or its prototype.

export type Json = Record<string, unknown>;

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
