import type { Field } from "./types.js";

/** Resolver names a resource's fields look up, sorted, so the spec's property order never reorders a tool's lookups. */
export function resolversOf(fields: Field[]): string[] {
  const names: string[] = [];
  const visit = (list: Field[]) => {
    for (const field of list) {
      if (field.kind === "join") names.push(field.resolver);
      else if (field.kind === "value" && field.legend?.kind === "resolver") names.push(field.legend.resolver);
      else if (field.kind === "object") visit(field.children);
    }
  };
  visit(fields);
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
