import type { Field, Shape, ToolModel } from "../model/types.js";
import { resourceModule, resultSchemaName } from "../naming.js";
import { isJsonObject } from "../openapi/schema.js";
import { relatedSchema } from "../rules/argument.js";
import { marker, NULL } from "../rules/field.js";
import { RULES, sendCondition, valueReading } from "../rules/field-rules.js";
import { joinSchema } from "../rules/join.js";
import type { Schema } from "../rules/types.js";
import type { ModuleWriter } from "./module.js";
import { NEXT_RESULT_SCHEMA } from "./next-page.js";
import { literal } from "./ts.js";

/** Code standing in a schema for a subschema written elsewhere: the name of a module constant. */
export class SchemaCode {
  constructor(readonly code: string) {}
}

/** The module constant a value kept whole has its schema in, read by the runtime's check too. */
type WholeSchemaName = (field: Field) => string | undefined;

/** The schema of a property or a map's values: `{ anyOf: [schema, { type: "null" }] }` where it is nullable. */
const orNull = ({ shape, nullable }: { shape: Shape; nullable: boolean }): Schema =>
  nullable ? { anyOf: [shapeSchema(shape), NULL] } : shapeSchema(shape);

export function shapeSchema(shape: Shape): Schema {
  switch (shape.type) {
    case "unknown":
      return {};
    case "literal":
      return { enum: shape.values };
    case "array":
      return { type: "array", items: shapeSchema(shape.items) };
    case "object":
      if (shape.values) return { type: "object", additionalProperties: orNull(shape.values) };
      return {
        type: "object",
        properties: Object.fromEntries(shape.properties.map((p) => [p.name, orNull(p)])),
        additionalProperties: false,
      };
    default:
      return { type: shape.type };
  }
}

/** The field's description: the spec's (or its format's), then its rules' notes, in the rules' order. */
function describe(field: Field): Schema {
  const text = [field.description, ...RULES.map((rule) => rule.note?.(field))].filter(Boolean).join(" ");
  return text ? { description: text } : {};
}

export function fieldSchema(field: Field, wholeSchema: WholeSchemaName = () => undefined): Schema {
  switch (field.kind) {
    case "join":
      return { ...joinSchema(field), ...describe(field) };
    case "related-id":
      return { ...relatedSchema(field), ...describe(field) };
    case "object":
      return field.many
        ? {
            anyOf: [
              { type: "array", items: { anyOf: [objectSchema(field.children, wholeSchema), NULL, marker("unusable")] } },
              NULL,
              marker("unusable"),
            ],
            ...describe(field),
          }
        : { anyOf: [objectSchema(field.children, wholeSchema), NULL, marker("unusable")], ...describe(field) };
    case "value": {
      const reading = valueReading(field);
      const named = wholeSchema(field);
      const value = named ? new SchemaCode(named) : (reading.schema?.(field) ?? shapeSchema(field.shape));
      return { anyOf: [value, NULL, ...(reading.markers?.(field) ?? []).map(marker), marker("unusable")], ...describe(field) };
    }
  }
}

export function objectSchema(fields: Field[], wholeSchema?: WholeSchemaName): Schema {
  return {
    type: "object",
    properties: Object.fromEntries(fields.map((f) => [f.out, fieldSchema(f, wholeSchema)])),
    // A field sent only on a condition of the call may be absent.
    required: fields.filter((f) => !sendCondition(f)).map((f) => f.out),
    additionalProperties: false,
  };
}

/** The names every object has (`constructor`, `toString`, ...). */
const OBJECT_MEMBER_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(["enum", "const", "default"]);

/**
 * A schema as code: JSON text is an object literal, except that a `"__proto__"` key there would set
 * the prototype instead of declaring a property, so that key is written computed. With `schemaType`
 * (the name of the runtime's `JsonSchema`, asked for only when needed), a schema under a property or
 * definition name every object has (`constructor`, `toString`) is written `{...} satisfies JsonSchema`:
 * TypeScript types a member of that name by `Object`'s, so the schema would otherwise lose its
 * literal `type`, and the whole no longer satisfy `JsonSchema`. `byName`: `schema` is such a map.
 */
export function schemaCode(schema: unknown, schemaType?: () => string, byName = false): string {
  if (schema instanceof SchemaCode) return schema.code;
  if (Array.isArray(schema)) return `[${schema.map((item) => schemaCode(item, schemaType)).join(",")}]`;
  if (typeof schema !== "object" || schema === null) return literal(schema);
  const members = Object.entries(schema)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => {
      const inner = byName || !DATA_KEYWORDS.has(name) ? schemaType : undefined;
      const code = schemaCode(value, inner, !byName && (name === "properties" || name === "$defs"));
      const typed = byName && schemaType !== undefined && OBJECT_MEMBER_NAMES.has(name) && isJsonObject(value);
      return `${name === "__proto__" ? `[${literal(name)}]` : literal(name)}:${typed ? `${code} satisfies ${schemaType()}` : code}`;
    });
  return `{${members.join(",")}}`;
}

/**
 * Code for the JSON Schema of a tool's result, usable as an MCP tool's `outputSchema`: the record
 * schema comes from the resource module and the marker schemas from the runtime, so each is written once.
 */
export function toolOutputSchemaCode(module: ModuleWriter, tool: ToolModel): string {
  const record = module.value(resourceModule(tool.resource.name).path, resultSchemaName(tool.resource.typeName));
  const markers = module.runtime("MARKER_SCHEMAS");
  const defs = `$defs: { ...${markers}, ${tool.resource.typeName}: ${record} }`;
  const schema = module.runtimeType("JsonSchema");
  if (tool.list === undefined) return `{ ...${record}, $defs: ${markers} } satisfies ${schema}`;
  const recordRef = { $ref: `#/$defs/${tool.resource.typeName}` };
  const nullable = !tool.many && tool.rowsNullable;
  const properties: Schema = {
    [tool.list]: tool.many ? { type: "array", items: recordRef } : nullable ? { anyOf: [recordRef, NULL] } : recordRef,
  };
  for (const page of tool.page)
    properties[page.key] = page.mode === "presence" ? { type: "boolean" } : { anyOf: [shapeSchema(page.shape), NULL, marker("unusable")] };
  if (tool.next) properties["next"] = NEXT_RESULT_SCHEMA;
  if (tool.budget && tool.many) {
    properties["truncated"] = {
      description: "false, or how many whole records the budget let through out of how many the response had",
      anyOf: [
        { const: false },
        {
          type: "object",
          properties: { shown: { type: "integer" }, total: { type: "integer" } },
          required: ["shown", "total"],
          additionalProperties: false,
        },
      ],
    };
  }
  return `{ type: "object", properties: ${schemaCode(properties, () => schema, true)}, required: ${literal(Object.keys(properties))}, additionalProperties: false, ${defs} } satisfies ${schema}`;
}
