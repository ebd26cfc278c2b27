import type { ResolverAnnotation, ResourceAnnotation, YamlPath } from "../annotation/types.js";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import type { SchemaAt, SchemaReader } from "../openapi/schema.js";
import { didYouMean } from "../suggest.js";
import { findOperation, noOperation, operationLabel, operationParameters, successBody, type Operation } from "./operations.js";
import { declaredErrorKeys, findRows } from "./rows.js";
import type { ResolverSource } from "./types.js";

/** How many requests a resolver from the spec has in flight, unless it says `concurrency`. */
export const DEFAULT_CONCURRENCY = 4;
/** How many ids one request carries, unless `max` or the parameter's `maxItems` says. */
export const DEFAULT_BATCH = 50;

interface SourceContext {
  reader: SchemaReader;
  operations: Operation[];
  resources: ResourceAnnotation[];
  diagnostics: Diagnostic[];
  locate: (path: YamlPath, part?: "key" | "value") => SourceLocation;
  locateSpec: (pointer: string) => SourceLocation;
}

/**
 * How `createResolvers` implements a resolver that names an operation: a list operation whose
 * query parameter `ids` takes a batch of ids, or a get-by-id operation whose one path parameter
 * takes one; either returns records carrying the resolver's label. Undefined, with the problem
 * reported, when the operation cannot serve.
 */
export function resolverSource(ctx: SourceContext, resolver: ResolverAnnotation): ResolverSource | undefined {
  if (resolver.operation === undefined) return undefined;
  const { reader } = ctx;
  const error = (code: Diagnostic["code"], message: string, help: string, path: YamlPath, related?: string) => {
    ctx.diagnostics.push({
      code,
      severity: "error",
      message: `resolver ${resolver.name}: ${message}`,
      help,
      location: ctx.locate(path, "key"),
      ...(related !== undefined ? { related: ctx.locateSpec(related) } : {}),
    });
    return undefined;
  };
  const op = findOperation(ctx.operations, resolver.operation);
  if (!op) {
    const { message, help } = noOperation(ctx.operations, resolver.operation);
    return error("PRJ065", message, help, [...resolver.path, "operation"]);
  }
  const label = operationLabel(op);
  const parameters = operationParameters(reader, op);
  const pathParameters = parameters.filter((p) => p.in === "path");
  let parameter: ResolverSource["parameter"];
  let max: number | undefined;
  if (resolver.ids !== undefined) {
    const queries = parameters.filter((p) => p.in === "query");
    const found = queries.find((p) => p.name === resolver.ids);
    const names = queries.map((p) => p.name);
    if (!found)
      return error(
        "PRJ066",
        `${label} has no query parameter "${resolver.ids}"${didYouMean(resolver.ids, names)}`,
        names.length
          ? `its query parameters: ${names.join(", ")}; \`ids\` names the one that takes a list of ids`
          : "choose a list operation with a query parameter that takes a list of ids, or a get-by-id operation without `ids`",
        [...resolver.path, "ids"],
        op.at.pointer,
      );
    if (reader.kind(found.at) !== "array")
      return error(
        "PRJ066",
        `"${found.name}" of ${label} takes one value, not a list of ids`,
        "`ids` names a query parameter of type array; for an operation that gets one record by id, leave `ids` out",
        [...resolver.path, "ids"],
        found.declaration.pointer,
      );
    if (pathParameters.length > 0)
      return error(
        "PRJ067",
        `${label} takes path parameters (${pathParameters.map((p) => p.name).join(", ")}) a resolver cannot fill`,
        "a batch resolver sends only the ids; choose a list operation without path parameters",
        [...resolver.path, "operation"],
        op.at.pointer,
      );
    const maxItems = reader.deref(found.at).schema["maxItems"];
    const limit = typeof maxItems === "number" && Number.isInteger(maxItems) && maxItems > 0 ? maxItems : undefined;
    if (resolver.max !== undefined && limit !== undefined && resolver.max > limit)
      return error(
        "PRJ069",
        `max ${resolver.max} is more than the ${limit} ids "${found.name}" takes (its maxItems)`,
        `write \`max: ${limit}\` or less, or leave \`max\` out to send ${limit} ids a request`,
        [...resolver.path, "max"],
        found.declaration.pointer,
      );
    max = resolver.max ?? limit ?? DEFAULT_BATCH;
    parameter = { name: found.name, in: "query", ...(found.serialization ? { serialization: found.serialization } : {}) };
  } else if (pathParameters.length !== 1) {
    const arrays = parameters.filter((p) => p.in === "query" && reader.kind(p.at) === "array").map((p) => p.name);
    return error(
      "PRJ067",
      `${label} takes ${pathParameters.length === 0 ? "no path parameter" : `${pathParameters.length} path parameters (${pathParameters.map((p) => p.name).join(", ")})`}, so it cannot get one record by id`,
      arrays.length
        ? `a list operation needs \`ids\`: the query parameter taking the ids, e.g. \`ids: "${arrays[0]}"\``
        : "name an operation with exactly one path parameter, the id (`GET /users/{id}`), or a list operation with `ids`",
      [...resolver.path, "operation"],
      op.at.pointer,
    );
  } else parameter = { name: pathParameters[0]!.name, in: "path" };
  const records = recordsOf(ctx, resolver, op, resolver.ids !== undefined);
  if ("problem" in records)
    return error("PRJ068", records.problem, records.help, records.key ? [...resolver.path, records.key] : resolver.path, records.pointer);
  return {
    method: op.method,
    path: op.path,
    parameter,
    ...(max !== undefined ? { max } : {}),
    concurrency: resolver.concurrency ?? DEFAULT_CONCURRENCY,
    ...records,
  };
}

type Records =
  | Pick<ResolverSource, "records" | "jsonapi" | "ids" | "label" | "declaredErrorKeys">
  | { problem: string; help: string; pointer?: string; key?: string };

/** Where the operation's records are and the label's path in them, checked against the schema. */
function recordsOf(ctx: SourceContext, resolver: ResolverAnnotation, op: Operation, many: boolean): Records {
  const { reader } = ctx;
  const label = operationLabel(op);
  if (resolver.label === undefined)
    return {
      problem: `names an operation but no \`label\`: the key of the name in the records of ${label}`,
      help: "add `label: name` (a dotted path into the record, under `attributes` for JSON:API)",
    };
  const body = successBody(reader, op);
  if (!body)
    return {
      problem: `${label} has no JSON success response to read labels from`,
      help: "choose an operation that returns its records as JSON",
      pointer: op.at.pointer,
    };
  const rows = findRows(reader, resolver.type ? { resource: resolver.type } : {}, body.schema, body.mediaType, ctx.resources, op.path);
  if ("problem" in rows) return { problem: `${label}: ${rows.problem}`, help: rows.help, pointer: body.schema.pointer };
  if (rows.many !== many)
    return {
      problem: many ? `${label} returns one record, not a list to look ids up in` : `${label} returns a list, not the one record of an id`,
      help: many ? "a resolver with `ids` names a list operation" : 'a list operation filtered by ids needs `ids: "PARAMETER"`',
      pointer: body.schema.pointer,
    };
  const record = reader.unwrapNullable(rows.item);
  const idKey = rows.jsonapi ? "id" : (resolver.id ?? "id");
  const id = reader.property(record, idKey);
  if (!id)
    return {
      problem: `the records of ${label} declare no \`${idKey}\` to match the ids with`,
      help: rows.jsonapi ? "the records must be JSON:API resource objects with an id" : "write `id: KEY` naming the key of the records' id",
      pointer: record.pointer,
    };
  const segments = resolver.label.split(".");
  let at: SchemaAt | undefined = rows.jsonapi ? reader.property(record, "attributes")?.at : record;
  for (const [i, segment] of segments.entries()) {
    const property = at ? reader.property(at, segment) : undefined;
    if (!property) {
      const names = at ? reader.properties(at).map((p) => p.name) : [];
      const where = [rows.jsonapi ? "attributes" : "", ...segments.slice(0, i)].filter(Boolean).join(".");
      return {
        problem: `the records of ${label} carry no ${[...(rows.jsonapi ? ["attributes"] : []), ...segments.slice(0, i + 1)].join(".")}${didYouMean(segment, names)}`,
        help: names.length ? `${where || "a record"} declares: ${names.join(", ")}` : "name the key of the records' names with `label`",
        pointer: (at ?? record).pointer,
        key: "label",
      };
    }
    at = property.at;
  }
  // An answer's id is read as the spec declares it: a number is no text id, text no integer one.
  const idKind = rows.jsonapi ? undefined : reader.kind(id.at);
  return {
    records: rows.path,
    jsonapi: rows.jsonapi,
    ...(idKind === "string" ? { ids: "text" as const } : idKind === "integer" ? { ids: "integer" as const } : {}),
    label: segments,
    declaredErrorKeys: declaredErrorKeys(reader, body.schema, rows.jsonapi),
  };
}
