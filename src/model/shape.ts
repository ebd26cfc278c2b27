import { compareNames } from "./order.js";
import type { SchemaAt, SchemaReader } from "../openapi/schema.js";
import type { Shape } from "./types.js";

const MAX_DEPTH = 6;

/**
 * The type of a value kept as it is. Recursion stops at circular references and past a fixed depth,
 * where the value is described as `unknown` rather than guessed.
 */
export function shapeOf(reader: SchemaReader, at: SchemaAt, seen: readonly string[] = []): Shape {
  const resolved = reader.unwrapNullable(at);
  if (seen.includes(resolved.pointer) || seen.length >= MAX_DEPTH) return { type: "unknown" };
  const trail = [...seen, resolved.pointer];
  const values = reader.enumValues(resolved);
  if (values && values.length > 0) return { type: "literal", values };
  switch (reader.kind(resolved)) {
    case "string":
      return { type: "string" };
    case "integer":
      return { type: "integer" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "array": {
      const items = reader.items(resolved);
      return { type: "array", items: items ? shapeOf(reader, items, trail) : { type: "unknown" } };
    }
    case "object": {
      const properties = reader.properties(resolved);
      if (properties.length === 0) return { type: "unknown" };
      return {
        type: "object",
        // By name, not declaration order: the same spec with its properties in another order gives the same bytes.
        properties: properties
          .map((p) => ({ name: p.name, nullable: reader.nullable(p.at), shape: shapeOf(reader, p.at, trail) }))
          .sort((a, b) => compareNames(a.name, b.name)),
      };
    }
    default:
      return { type: "unknown" };
  }
}
