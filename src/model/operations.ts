import { child, escapePointer, isJsonObject, members, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { didYouMean } from "../suggest.js";
import type { QuerySerialization, QueryStyle } from "./types.js";

export interface Operation {
  method: string;
  path: string;
  operationId?: string;
  at: SchemaAt;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of the spec, in the document's order. */
export function listOperations(reader: SchemaReader): Operation[] {
  const operations: Operation[] = [];
  const paths = reader.document["paths"];
  if (!isJsonObject(paths)) return operations;
  for (const [path, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    const resolvedItem = reader.deref({ schema: item, pointer: `/paths/${escapePointer(path)}` });
    for (const method of METHODS) {
      const at = child(resolvedItem, method);
      if (!at) continue;
      const id = at.schema["operationId"];
      operations.push({ method, path, at, ...(typeof id === "string" ? { operationId: id } : {}) });
    }
  }
  return operations;
}

/** `searchTickets`, or `GET /tickets`. */
export function findOperation(operations: Operation[], reference: string): Operation | undefined {
  const match = /^([A-Za-z]+)\s+(\/.*)$/.exec(reference.trim());
  if (match) {
    const method = match[1]!.toLowerCase();
    return operations.find((op) => op.method === method && op.path === match[2]);
  }
  return operations.find((op) => op.operationId === reference);
}

export const operationLabel = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

/** The problem of a reference no operation answers to, naming the nearest operationId or label. */
export function noOperation(operations: Operation[], reference: string): { message: string; help: string } {
  const names = operations.flatMap((o) => (o.operationId ? [o.operationId] : [])).concat(operations.map(operationLabel));
  return {
    message: `no operation "${reference}" in the spec${didYouMean(reference, names)}`,
    help: 'name an operationId, or write `"GET /path"` exactly as the spec declares the path',
  };
}

/** The parameter names a path template sends: `id` and `note` in `/notes/{note}/tags/{id}`. */
export const templateNames = (path: string) => [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);

export interface ResponseBody {
  status: string;
  mediaType: string;
  schema: SchemaAt;
}

/** How a media type ranks as JSON, JSON:API first; -1 for one that is not JSON. */
export const jsonRank = (mediaType: string): number => {
  const type = mediaType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/vnd.api+json") return 0;
  if (type === "application/json") return 1;
  if (type.endsWith("+json")) return 2;
  if (type.includes("json")) return 3;
  return -1;
};

/** The JSON body of the operation's first success response. */
export function successBody(reader: SchemaReader, op: Operation): ResponseBody | undefined {
  const responses = child(op.at, "responses");
  if (!responses) return undefined;
  const statuses = Object.keys(responses.schema)
    .filter((s) => /^2(\d\d|XX)$/i.test(s))
    .sort();
  for (const status of statuses) {
    const declared = child(responses, status);
    if (!declared) continue;
    const response = reader.deref(declared);
    const content = child(response, "content");
    if (!content) continue;
    const mediaTypes = Object.keys(content.schema)
      .filter((m) => jsonRank(m) >= 0)
      .sort((a, b) => jsonRank(a) - jsonRank(b));
    for (const mediaType of mediaTypes) {
      const schema = child(content, mediaType, "schema");
      if (schema) return { status, mediaType, schema };
    }
  }
  return undefined;
}

/** The spec's own example of a response body, if it gives one. */
export function responseExample(reader: SchemaReader, op: Operation): unknown {
  const body = successBody(reader, op);
  if (!body) return undefined;
  const mediaPointer = body.schema.pointer.replace(/\/schema$/, "");
  const media = reader.pointer(mediaPointer);
  if (!media) return undefined;
  if ("example" in media.schema) return media.schema["example"];
  const examples = child(media, "examples");
  const first = examples && Object.keys(examples.schema)[0];
  const declared = first === undefined ? undefined : child(examples!, first);
  const example = declared && reader.deref(declared);
  if (example && "value" in example.schema) return example.schema["value"];
  return reader.deref(body.schema).schema["example"];
}

/** A parameter an operation declares: its own, or its path item's where it declares none of that name and place. */
export interface DeclaredParameter {
  name: string;
  in: string;
  required: boolean;
  /** The parameter's schema. */
  at: SchemaAt;
  /** The parameter object itself, `$ref` followed. */
  declaration: SchemaAt;
  description?: string;
  /** How a query parameter is written in the URL. */
  serialization?: QuerySerialization;
}

const QUERY_STYLES: readonly QueryStyle[] = ["form", "spaceDelimited", "pipeDelimited", "deepObject"];

/**
 * How a query parameter is written, as its declaration says: OpenAPI's default is `form`, and
 * `explode` defaults to true for `form` only. A style that is not a query style is read as `form`.
 */
export function querySerialization(parameter: { [key: string]: unknown }): QuerySerialization {
  const declared = parameter["style"];
  const style = QUERY_STYLES.find((s) => s === declared) ?? "form";
  const explode = typeof parameter["explode"] === "boolean" ? parameter["explode"] : style === "form";
  return { style, explode };
}

/** Every parameter of the operation, in declaration order, the path item's first. */
export function operationParameters(reader: SchemaReader, op: Operation): DeclaredParameter[] {
  const declared: DeclaredParameter[] = [];
  const pathItem = reader.pointer(op.at.pointer.replace(/\/[^/]+$/, ""));
  for (const owner of [pathItem, op.at]) {
    for (const declaredAt of owner ? members(owner, "parameters") : []) {
      const declaration = reader.deref(declaredAt);
      const { name, in: where, required, description } = declaration.schema;
      if (typeof name !== "string" || typeof where !== "string") continue;
      const entry: DeclaredParameter = {
        name,
        in: where,
        required: required === true || where === "path",
        at: child(declaration, "schema") ?? { schema: {}, pointer: declaration.pointer },
        declaration,
        ...(typeof description === "string" ? { description } : {}),
        ...(where === "query" ? { serialization: querySerialization(declaration.schema) } : {}),
      };
      // An operation's parameter overrides the path item's of the same name and place.
      const same = declared.findIndex((d) => d.name === name && d.in === where);
      if (same >= 0) declared[same] = entry;
      else declared.push(entry);
    }
  }
  return declared;
}
