import { child, isJsonObject, members, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { compareNames } from "./order.js";
import { CUT_SCHEMA, type Budgeted, type SchemaBudget, withinBudget } from "./schema-budget.js";
import type { JsonSchema } from "./types.js";

const MAX_DEPTH = 8;

const TYPE_NAMES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const isTypeName = (type: unknown) => TYPE_NAMES.has(type as string);
const isText = (value: unknown) => typeof value === "string";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);
const isBound = (value: unknown) => typeof value === "boolean" || isNumber(value);
const anyValue = () => true;

/**
 * The JSON Schema keywords the definitions carry and the generated validator checks, in the order
 * they are written; others are left out. Each is kept where its value is of the type JSON Schema
 * gives it: the definitions are typed for the consumers' own schema types (`JSONSchema7`, zod's), so
 * a value of another type, which a lax spec may hold (`minimum: "1"`, `type: file`), is left out
 * rather than break their compile.
 */
const KEPT: readonly (readonly [keyword: string, fits: (value: unknown) => boolean])[] = [
  ["type", (value) => (Array.isArray(value) ? value.every(isTypeName) : isTypeName(value))],
  ["enum", Array.isArray],
  ["const", anyValue],
  ["description", isText],
  ["default", anyValue],
  ["format", isText],
  ["pattern", isText],
  ["minimum", isNumber],
  ["maximum", isNumber],
  ["exclusiveMinimum", isBound],
  ["exclusiveMaximum", isBound],
  ["minLength", isNumber],
  ["maxLength", isNumber],
  ["minItems", isNumber],
  ["maxItems", isNumber],
  ["required", (value) => Array.isArray(value) && value.every(isText)],
];

export interface PlainSchemaOptions {
  /**
   * A request body: properties the server sets (`readOnly`) are not the caller's to send, and an object
   * that names its properties takes no others where the spec leaves `additionalProperties` unsaid
   * ({@link closesUnsaid}).
   */
  writing?: boolean;
  /** A pattern the generated validator cannot compile; it is left out of the schema. */
  onBadPattern?: (pattern: string, pointer: string) => void;
  /** What the schema may still take ({@link boundedPlainSchema}). */
  budget?: SchemaBudget;
}

/** A schema, or an OpenAPI 3.1 boolean subschema (`true` accepts anything, `false` nothing). */
export type SubschemaAt = SchemaAt | boolean;

/** The subschema at `segments` below `at`, boolean ones included. */
export function subschema(at: SchemaAt, ...segments: (string | number)[]): SubschemaAt | undefined {
  let node: unknown = at.schema;
  for (const segment of segments)
    node = Array.isArray(node) ? node[Number(segment)] : isJsonObject(node) ? node[String(segment)] : undefined;
  return typeof node === "boolean" ? node : child(at, ...segments);
}

/** Whether a pattern compiles as the generated validator compiles it: `new RegExp(pattern, "u")`. */
function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * A schema with its `$ref`s inlined, `allOf` merged and only {@link KEPT} keywords (plus items,
 * properties, anyOf), as a tool definition carries it: valid JSON Schema 2020-12 that Anthropic's
 * and OpenAI's tool formats accept. A `composed` schema is an `allOf` part or an `anyOf`/`oneOf`
 * branch: whether its object takes members it does not name is the composing schema's to say.
 */
export function plainSchema(
  reader: SchemaReader,
  at: SubschemaAt,
  options: PlainSchemaOptions = {},
  depth = 0,
  composed = false,
): JsonSchema {
  if (at === true) return {};
  if (at === false) return { not: {} };
  if (depth > MAX_DEPTH) return {};
  if (options.budget?.cuts(depth)) return { ...CUT_SCHEMA };
  const resolved = reader.deref(at);
  const schema = resolved.schema;
  const out: JsonSchema = {};
  for (const [key, fits] of KEPT) if (key in schema && fits(schema[key])) out[key] = schema[key];
  // OpenAPI 3.0's `nullable` is JSON Schema's null type.
  if (schema["nullable"] === true && typeof out["type"] === "string") out["type"] = [out["type"], "null"];
  exclusiveBounds(out);
  if (typeof out["pattern"] === "string" && !compiles(out["pattern"])) {
    options.onBadPattern?.(out["pattern"], `${resolved.pointer}/pattern`);
    delete out["pattern"];
  }
  options.budget?.chargeSchema(out, schema);
  const items = subschema(resolved, "items");
  if (items !== undefined) out["items"] = plainSchema(reader, items, options, depth + 1);
  // OpenAI refuses an array schema without `items`.
  else if ([out["type"]].flat().includes("array")) out["items"] = {};
  const properties = child(resolved, "properties");
  if (properties) {
    const kept: [string, JsonSchema][] = [];
    for (const name of Object.keys(properties.schema)) {
      const property = subschema(properties, name)!;
      // `false` admits no value, and the server sets a `readOnly` property: neither is the caller's to send.
      if (property === false) continue;
      if (options.writing && property !== true && reader.deref(property).schema["readOnly"] === true) {
        withServerMembers.add(out);
        continue;
      }
      kept.push([name, plainSchema(reader, property, options, depth + 1)]);
    }
    // In name order: reordering the spec's properties changes no byte of the output.
    out["properties"] = Object.fromEntries(kept.sort(([a], [b]) => compareNames(a, b)));
  }
  // Members the spec does not name: none (`false`), or each of the declared schema; `true` and `{}` take any.
  const additional = subschema(resolved, "additionalProperties");
  if (additional === false) out["additionalProperties"] = false;
  else if (additional !== undefined && additional !== true) {
    const members = plainSchema(reader, additional, options, depth + 1);
    if (Object.keys(members).length > 0) out["additionalProperties"] = members;
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    // A nullable object written `anyOf: [{ $ref }, { type: "null" }]` is that one object, closed as it is.
    const composing = members(resolved, key).filter((branch) => !reader.isNullSchema(branch)).length > 1;
    out["anyOf"] = branches.flatMap((_, i) => {
      const branch = subschema(resolved, key, i);
      return branch === undefined ? [] : [plainSchema(reader, branch, options, depth + 1, composing)];
    });
  }
  const parts = schema["allOf"];
  if (Array.isArray(parts))
    parts.forEach((_, i) => {
      const part = subschema(resolved, "allOf", i);
      if (part === undefined) return;
      const merged = plainSchema(reader, part, options, depth + 1, true);
      if (withServerMembers.has(merged)) withServerMembers.add(out);
      mergeInto(out, merged);
    });
  // A property left out above cannot be required; the merged properties are known only now.
  const kept = out["properties"] as JsonSchema | undefined;
  if (kept && Array.isArray(out["required"]))
    out["required"] = out["required"].filter((name) => typeof name === "string" && Object.hasOwn(kept, name));
  if (options.writing && !composed && closesUnsaid(reader, resolved, out)) out["additionalProperties"] = false;
  return out;
}

/**
 * The request body objects a `readOnly` property was left out of. The spec may yet ask for one:
 * PagerDuty's references, `{ id, type }`, require the `id` its base object says the server sets.
 */
const withServerMembers = new WeakSet<JsonSchema>();

/**
 * A request body's object is sent whole: a member the model adds that the spec does not name
 * (`is_admin: true` beside a comment's `subject`) reaches the API with the user's credentials. So an
 * object that names its properties, itself or through its `allOf` parts (whose properties add up),
 * takes no others where none of them says `additionalProperties`. A spec that says it (`true`, a
 * schema, `false`) is taken at its word. An object with `anyOf`/`oneOf` branches is left open, and
 * so is each branch: branches are often meant to be merged (a base and its variant's members), and
 * closing each would refuse the merge. An object naming no properties is a free map, as OpenAPI
 * reads it. An object a `readOnly` property was left out of is left open too, since the schema cannot
 * both leave the property out and admit it ({@link withServerMembers}).
 */
function closesUnsaid(reader: SchemaReader, at: SchemaAt, out: JsonSchema): boolean {
  if (!isJsonObject(out["properties"]) || "additionalProperties" in out || "anyOf" in out) return false;
  if (withServerMembers.has(out)) return false;
  if ("type" in out && ![out["type"]].flat().includes("object")) return false;
  const rest = out["allOf"];
  if (Array.isArray(rest) && rest.some((part) => isJsonObject(part) && "anyOf" in part)) return false;
  return !saysAdditional(reader, at, 0);
}

/** Whether a schema or one of its `allOf` parts, at any depth, says `additionalProperties`. */
function saysAdditional(reader: SchemaReader, at: SchemaAt, depth: number): boolean {
  if (depth > MAX_DEPTH) return true;
  const resolved = reader.deref(at);
  if ("additionalProperties" in resolved.schema) return true;
  return members(resolved, "allOf").some((part) => saysAdditional(reader, part, depth + 1));
}

/**
 * {@link plainSchema} within the schema budget: spelled out less deep when it would be larger, so a
 * schema that refers to itself through many properties is never built whole. A bad pattern is
 * reported once, from the schema kept, however often the schema repeats it.
 */
export function boundedPlainSchema(reader: SchemaReader, at: SubschemaAt, options: PlainSchemaOptions = {}): Budgeted<JsonSchema> {
  const badPatterns = new Map<string, string>();
  const bounded = withinBudget(
    MAX_DEPTH,
    (budget) => {
      badPatterns.clear();
      return plainSchema(reader, at, { ...options, budget, onBadPattern: (pattern, pointer) => badPatterns.set(pointer, pattern) });
    },
    { ...CUT_SCHEMA },
  );
  if (bounded.levels === 0) badPatterns.clear();
  for (const [pointer, pattern] of badPatterns) options.onBadPattern?.(pattern, pointer);
  return bounded;
}

/** Bounds of which the smaller holds when two `allOf` members set one, and those of which the larger does. */
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);
const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);

/**
 * `allOf`: the merged schema takes what every member takes and no more. Properties and required
 * names add up, a property both declare holding both; of two bounds the stricter holds, of two
 * enums the codes both list; any other keyword two members set differently (two patterns, two
 * types) is kept from each, the second under `allOf`, which validators and the tool check alike.
 */
function mergeInto(out: JsonSchema, part: JsonSchema): void {
  for (const [key, value] of Object.entries(part)) {
    const mine = out[key];
    if (key === "properties") {
      const merged: JsonSchema = { ...(mine as JsonSchema | undefined) };
      for (const [name, schema] of Object.entries(value as JsonSchema)) {
        const both = merged[name];
        if (both === undefined) merged[name] = schema;
        else {
          const combined = { ...(both as JsonSchema) };
          mergeInto(combined, schema as JsonSchema);
          merged[name] = combined;
        }
      }
      out["properties"] = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => compareNames(a, b)));
    } else if (key === "required") out["required"] = [...new Set([...((mine as string[] | undefined) ?? []), ...(value as string[])])];
    else if (mine === undefined) out[key] = value;
    else if (JSON.stringify(mine) === JSON.stringify(value)) continue;
    else if (typeof mine === "number" && typeof value === "number" && UPPER_BOUNDS.has(key)) out[key] = Math.min(mine, value);
    else if (typeof mine === "number" && typeof value === "number" && LOWER_BOUNDS.has(key)) out[key] = Math.max(mine, value);
    else if (key === "enum" && Array.isArray(mine) && Array.isArray(value))
      out["enum"] = mine.filter((code) => value.some((other) => JSON.stringify(other) === JSON.stringify(code)));
    else if (key === "description" || key === "title" || key === "default" || key === "examples") continue;
    else out["allOf"] = [...((out["allOf"] as JsonSchema[] | undefined) ?? []), { [key]: value }];
  }
}

/** OpenAPI 3.0 writes an exclusive bound as `minimum: 0, exclusiveMinimum: true`; JSON Schema 2020-12 as `exclusiveMinimum: 0`. */
function exclusiveBounds(out: JsonSchema): void {
  for (const [exclusive, inclusive] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive] === true && typeof out[inclusive] === "number") {
      out[exclusive] = out[inclusive];
      delete out[inclusive];
    } else delete out[exclusive];
  }
}

/**
 * A URL has no way to carry null, so a path or query parameter takes no null: an optional one the
 * model leaves out is not sent, and the schema says so rather than accepting a null the request drops.
 */
export function withoutNull(schema: JsonSchema): JsonSchema {
  const out = { ...schema };
  if (Array.isArray(out["type"])) {
    const types = out["type"].filter((t) => t !== "null");
    out["type"] = types.length === 1 ? types[0] : types;
  }
  if (Array.isArray(out["enum"])) out["enum"] = out["enum"].filter((v) => v !== null);
  if (Array.isArray(out["anyOf"])) {
    const branches = (out["anyOf"] as JsonSchema[]).filter((b) => b["type"] !== "null" && b["const"] !== null);
    if (branches.length === 1) {
      delete out["anyOf"];
      Object.assign(out, { ...branches[0], ...out });
    } else out["anyOf"] = branches;
  }
  return out;
}
