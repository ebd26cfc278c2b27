// Reading parsed JSON without trusting its shape or its prototype.

export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

export function read(object: Json | undefined, key: string): unknown {
  return object === undefined || !Object.hasOwn(object, key) ? undefined : object[key];
}
