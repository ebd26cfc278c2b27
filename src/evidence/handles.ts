import type { Field, ToolModel } from "../model/types.js";

/** A field that hands the model an id it can pass to a tool: an argument id, or the id kept beside a joined name. */
const isHandle = (field: Field) => field.kind === "related-id" || (field.kind === "value" && field.argumentOf !== undefined);

/** The output keys of a resource's handles, nested parts by their dotted path (`customer_id`, `line.product_id`). */
export function handleKeys(fields: readonly Field[], prefix = ""): string[] {
  return fields.flatMap((field) =>
    field.kind === "object" ? handleKeys(field.children, `${prefix}${field.out}.`) : isHandle(field) ? [`${prefix}${field.out}`] : [],
  );
}

/** A projected record without its handles, at any depth: the record the model would read without ids to pass on. */
function withoutHandlesIn(record: unknown, fields: readonly Field[]): unknown {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return record;
  const kept: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const field of fields) {
    if (isHandle(field)) delete kept[field.out];
    else if (field.kind === "object") kept[field.out] = eachWithoutHandles(kept[field.out], field.children);
  }
  return kept;
}

/** {@link withoutHandlesIn} for a record, or for each record of a list. */
const eachWithoutHandles = (value: unknown, fields: readonly Field[]) =>
  Array.isArray(value) ? value.map((record) => withoutHandlesIn(record, fields)) : withoutHandlesIn(value, fields);

/** A tool's projected result with every record's handles left out, so that what they cost can be counted. */
export function withoutHandles(tool: ToolModel, result: unknown): unknown {
  const fields = tool.resource.fields;
  if (tool.list === undefined) return withoutHandlesIn(result, fields);
  if (typeof result !== "object" || result === null) return result;
  const page = result as Record<string, unknown>;
  return { ...page, [tool.list]: eachWithoutHandles(page[tool.list], fields) };
}
