import type { FieldAnnotation } from "../annotation/types.js";
import type { Field } from "./types.js";

// A result's keys follow the order in which the annotation lists its fields, like a SELECT list:
// the person who writes the annotation decides what the model reads first. The record's own `id`
// leads when it is kept, since it is the handle the model passes back to other tools. The spec's
// `properties` order never counts, so reordering the spec changes no byte. Values kept whole have
// no annotation entries for their parts: those stay in name order (see shape.ts).

/** Code-point order: the same on every machine, unlike `localeCompare`. */
export const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Where the annotation first names a field or any part of it. */
function positions(annotations: readonly FieldAnnotation[]): (field: Field) => number {
  const index = new Map<string, number>();
  annotations.forEach((a, i) => {
    const segments = a.name.split(".");
    for (let n = 1; n <= segments.length; n++) {
      const prefix = segments.slice(0, n).join(".");
      if (!index.has(prefix)) index.set(prefix, i);
    }
  });
  return (field) => index.get(field.name) ?? annotations.length;
}

function sortFields(fields: Field[], position: (field: Field) => number, top: boolean): Field[] {
  const rank = (field: Field) => (top && field.name === "id" ? -1 : position(field));
  return fields
    .map((field) => (field.kind === "object" ? { ...field, children: sortFields(field.children, position, false) } : field))
    .sort((a, b) => rank(a) - rank(b) || compareNames(a.out, b.out));
}

/** A resource's fields in result order: the annotation's order, the own id first. */
export const inResultOrder = (fields: Field[], annotations: readonly FieldAnnotation[]): Field[] =>
  sortFields(fields, positions(annotations), true);
