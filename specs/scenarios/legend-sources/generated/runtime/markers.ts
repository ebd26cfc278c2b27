// Reading parsed JSON without trusting its shape or its prototype.

// The markers a projection writes in place of a value it cannot give: typed, never null.

import type { JsonSchema } from "./json-schema.js";

/** A join id the resolver gave no label for. Keeps the (shortened) id, so it is never mistaken for a name or for null. */
export interface Unresolved {
  readonly unresolved: string;
}

/** A coded value with no word in its legend. Keeps the raw code rather than guessing a word. */
export interface UnknownCode {
  readonly unknown_code: string | number;
}

/** A value that does not match the spec (a wrong type, an unreadable date); says why. */
export interface Unusable {
  readonly unusable: string;
}

/** JSON Schemas of the markers, the `$defs` every tool's output schema refers to. */
export const MARKER_SCHEMAS = {
  unresolved: {
    type: "object",
    description: "An id the lookup could not name; the short id is kept.",
    properties: { unresolved: { type: "string" } },
    required: ["unresolved"],
    additionalProperties: false,
  },
  unknown_code: {
    type: "object",
    description: "A code with no word in its legend; the raw code is kept.",
    // Not `type: ["string", "number"]`: ajv in strict mode refuses a list of types.
    properties: {
      unknown_code: { anyOf: [{ type: "string" }, { type: "number" }] },
    },
    required: ["unknown_code"],
    additionalProperties: false,
  },
  unusable: {
    type: "object",
    description: "A value that did not match the API's schema; says why.",
    properties: { unusable: { type: "string" } },
    required: ["unusable"],
    additionalProperties: false,
  },
} satisfies { [kind: string]: JsonSchema };

/** A marker's name: the one key of the object it writes. */
export type MarkerKind = keyof typeof MARKER_SCHEMAS;

/**
 * The marker an object would pass for: its one key, when that is a marker's name. Only projector
 * writes such an object: a value kept whole that holds one is marked unusable instead (values.ts),
 * so a model or a program reading a result can take every one of them for projector's own.
 */
export function markerShape(object: object): MarkerKind | undefined {
  const keys = Object.keys(object);
  return keys.length === 1 && Object.hasOwn(MARKER_SCHEMAS, keys[0]!)
    ? (keys[0] as MarkerKind)
    : undefined;
}
