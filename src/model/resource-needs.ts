import type { Field } from "./types.js";
import { leafFields } from "../rules/field.js";

/** Resolver names a resource's fields look up, sorted, so the spec's property order never reorders a tool's lookups. */
export function resolversOf(fields: Field[]): string[] {
  const names = leafFields(fields).flatMap((field) =>
    field.kind === "join" ? [field.resolver] : field.kind === "value" && field.legend?.kind === "resolver" ? [field.legend.resolver] : [],
  );
  return [...new Set(names)].sort();
}

/** How many ids one record gives the model in short form, counting a list as one. */
export function shortenedPerRecord(fields: Field[]): number {
  return fields.reduce((count, field) => {
    if (field.kind === "object") return count + shortenedPerRecord(field.children);
    const shortened = (field.kind === "related-id" || (field.kind === "value" && field.argumentOf !== undefined)) && field.shorten;
    return count + (shortened ? 1 : 0);
  }, 0);
}
