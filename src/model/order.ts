import type { Field, PageModel } from "./types.js";

// A result's keys are ordered by name, never by the order of the spec's `properties` or of the
// annotation's maps: reordering the keys of either input must give identical bytes. The record's
// own `id` leads, since it is the handle the model passes back to other tools.

/** Code-point order: the same on every machine, unlike `localeCompare`. */
export const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const rank = (field: Field, top: boolean) => (top && field.out === "id" ? 0 : 1);

function sortFields(fields: Field[], top: boolean): Field[] {
  return fields
    .map((field) => (field.kind === "object" ? { ...field, children: sortFields(field.children, false) } : field))
    .sort((a, b) => rank(a, top) - rank(b, top) || compareNames(a.out, b.out));
}

/** A resource's fields in result order. */
export const inResultOrder = (fields: Field[]): Field[] => sortFields(fields, true);

/** A tool's page keys in result order (the emitted result puts the list before them). */
export const pageInResultOrder = (page: PageModel[]): PageModel[] => [...page].sort((a, b) => compareNames(a.key, b.key));
