import { compareNames } from "./order.js";
import { child, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { type SchemaBudget, withinBudget } from "./schema-budget.js";
import type { Shape } from "./types.js";

const MAX_DEPTH = 6;

/**
 * The type of a value kept as it is. Recursion stops at circular references and past a fixed depth,
 * where the value is described as `unknown` rather than guessed, and within the schema budget: a
 * type larger written out is spelled out less deep, and `onCut` told how many levels are.
 */
export function shapeOf(reader: SchemaReader, at: SchemaAt, onCut?: (levels: number) => void): Shape {
  const bounded = withinBudget(MAX_DEPTH - 1, (budget) => shapeWithin(reader, at, [], budget), { type: "unknown" } as Shape);
  if (bounded.levels !== undefined) onCut?.(bounded.levels);
  return bounded.value;
}

function shapeWithin(reader: SchemaReader, at: SchemaAt, seen: readonly string[], budget: SchemaBudget): Shape {
  const resolved = reader.unwrapNullable(at);
  if (seen.includes(resolved.pointer) || seen.length >= MAX_DEPTH || budget.cuts(seen.length)) return { type: "unknown" };
  const trail = [...seen, resolved.pointer];
  const values = reader.enumValues(resolved);
  const kind = reader.kind(resolved);
  const properties = kind === "object" ? reader.properties(resolved) : [];
  budget.charge(
    values ?? [],
    properties.map((p) => p.name),
    kind === "array" ? 1 : 0,
  );
  if (values && values.length > 0) return { type: "literal", values };
  switch (kind) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return { type: kind };
    case "array": {
      const items = reader.items(resolved);
      return { type: "array", items: items ? shapeWithin(reader, items, trail, budget) : { type: "unknown" } };
    }
    case "object": {
      if (properties.length === 0) return mapShape(reader, resolved, trail, budget);
      return {
        type: "object",
        // By name, not declaration order: the same spec with its properties in another order gives the same bytes.
        properties: properties
          .map((p) => ({ name: p.name, nullable: reader.nullable(p.at), shape: shapeWithin(reader, p.at, trail, budget) }))
          .sort((a, b) => compareNames(a.name, b.name)),
      };
    }
    default:
      return { type: "unknown" };
  }
}

/**
 * An object the spec declares no properties of: a map whose values are of its `additionalProperties`
 * (any value where that is `true` or absent), or, where that is `false`, an object always empty.
 */
function mapShape(reader: SchemaReader, at: SchemaAt, trail: readonly string[], budget: SchemaBudget): Shape {
  if (at.schema["additionalProperties"] === false) return { type: "object", properties: [] };
  const values = child(at, "additionalProperties");
  const shape: Shape = values ? shapeWithin(reader, values, trail, budget) : { type: "unknown" };
  return { type: "object", properties: [], values: { shape, nullable: values !== undefined && reader.nullable(values) } };
}
