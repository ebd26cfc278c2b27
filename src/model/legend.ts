import type { SchemaAt, SchemaReader } from "../openapi/schema.js";
import type { Entries } from "../rules/legend.js";

/** The extensions code generators use to name enum members, in the order they are consulted. */
const NAME_EXTENSIONS = ["x-enum-varnames", "x-enumNames", "x-enum-descriptions"];

/** `IN_PROGRESS` to `in progress`: constant names read as words; anything else is kept as written. */
const asWords = (name: string) => (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(name) ? name.toLowerCase().replace(/_/g, " ") : name);

/** An extension that names fewer codes than the enum has: worth saying exactly, not "no legend". */
export function shortSpecLegend(reader: SchemaReader, at: SchemaAt): string | undefined {
  const resolved = reader.unwrapNullable(at);
  const values = Array.isArray(resolved.schema["enum"]) ? resolved.schema["enum"].filter((v) => v !== null) : [];
  for (const extension of NAME_EXTENSIONS) {
    const names = resolved.schema[extension];
    if (Array.isArray(names) && names.length < values.length)
      return `${extension} names ${names.length} of the enum's ${values.length} codes`;
  }
  return undefined;
}

/** Words the spec itself gives an enum's codes, or undefined when it gives none. */
export function specLegend(reader: SchemaReader, at: SchemaAt): Entries | undefined {
  const resolved = reader.unwrapNullable(at);
  const values = Array.isArray(resolved.schema["enum"]) ? resolved.schema["enum"].filter((v) => v !== null) : undefined;
  if (values) {
    for (const extension of NAME_EXTENSIONS) {
      const names = resolved.schema[extension];
      if (Array.isArray(names) && names.length >= values.length && names.every((n) => typeof n === "string")) {
        const word = extension === "x-enum-varnames" ? asWords : (name: string) => name;
        return values.map((value, i) => [value as string | number, word(names[i] as string)]);
      }
    }
  }
  const branches = reader.constBranches(resolved);
  if (branches?.every((b) => typeof b.title === "string" && (typeof b.value === "number" || typeof b.value === "string"))) {
    return branches.map((b) => [b.value as string | number, b.title as string]);
  }
  return undefined;
}
