import { jsonApiFields, restFields, type SpecField } from "../model/fields.js";
import { listOperations, operationLabel, successBody, type Operation } from "../model/operations.js";
import { findRows, jsonApiTypes } from "../model/rows.js";
import { SchemaReader, type SchemaAt } from "../spec/schema.js";
import { guessField, labelAttribute, type Guess } from "./guess.js";

export interface DraftOptions {
  /** operationIds or "GET /path"; all GET operations when absent. */
  operations?: string[];
  tag?: string;
}

export interface DraftTool {
  operation: string;
  resource: string;
  /** Set when the records' resource cannot be told from the spec alone. */
  explicitResource: boolean;
  page: [key: string, path: string][];
}

export interface DraftResource {
  schema?: string;
  fields: [name: string, guess: Guess][];
}

export interface Draft {
  resolvers: Map<string, { type?: string; label?: string }>;
  resources: Map<string, DraftResource>;
  tools: Map<string, DraftTool>;
  skipped: { operation: string; reason: string }[];
}

/** `GetTeamMemberships`, `listIncidents`, `get /users/{id}` to `get_team_memberships`, `list_incidents`, `get_users_id`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

/** `Albums_Resource_Object` and `Incident` to `albums` and `incident`. */
const resourceNameOf = (schemaName: string) => snakeCase(schemaName.replace(/[_-]?(Resource[_-]?Object|Resource|Object|Data)$/i, "") || schemaName);

const singular = (name: string) => name.replace(/ies$/, "y").replace(/(s|x|ch|sh)es$/, "$1").replace(/([^s])s$/, "$1");

function selected(op: Operation, options: DraftOptions): boolean {
  if (op.method !== "get") return false;
  if (options.operations && !options.operations.some((o) => o === op.operationId || o.toLowerCase() === operationLabel(op).toLowerCase())) return false;
  if (options.tag !== undefined) {
    const tags = op.at.schema["tags"];
    if (!Array.isArray(tags) || !tags.includes(options.tag)) return false;
  }
  return true;
}

function pageGuess(reader: SchemaReader, response: SchemaAt, jsonapi: boolean): [string, string][] {
  const has = (path: string[]) => {
    let at: SchemaAt | undefined = reader.unwrapNullable(response);
    for (const segment of path) at = at ? reader.property(at, segment)?.at : undefined;
    return at;
  };
  const page: [string, string][] = [];
  const totals = jsonapi ? [["meta", "page", "total"], ["meta", "pagination", "total"], ["meta", "total"], ["meta", "page", "total_count"]] : [["total"], ["total_count"], ["count"]];
  const total = totals.find((path) => {
    const at = has(path);
    return at && reader.kind(at) === "integer";
  });
  if (total) page.push(["total", total.join(".")]);
  if (jsonapi && has(["links", "next"])) page.push(["more", "links.next"]);
  else {
    const more = [["more"], ["has_more"], ["next_cursor"], ["links", "next"]].find((path) => has(path));
    if (more) page.push([more[0] === "next_cursor" ? "next_cursor" : "more", more.join(".")]);
  }
  return page;
}

/**
 * Guesses an annotation for the JSON responses of a spec's GET operations: one tool per operation,
 * one resource per kind of record, every field with a role and a reason.
 */
export function draftAnnotation(reader: SchemaReader, options: DraftOptions): Draft {
  const draft: Draft = { resolvers: new Map(), resources: new Map(), tools: new Map(), skipped: [] };
  const labels = new Map<string, string>();
  for (const [type, at] of jsonApiTypes(reader)) {
    const attributes = reader.property(at, "attributes");
    const label = attributes ? labelAttribute(reader.properties(attributes.at).map((p) => p.name)) : undefined;
    if (label) labels.set(type, label);
  }
  const sources = new Map<string, { at: SchemaAt; jsonapi: boolean }>();
  const singleReaders = new Map<string, string[]>();
  for (const op of listOperations(reader).filter((o) => selected(o, options))) {
    const reference = op.operationId ?? operationLabel(op);
    const body = successBody(reader, op);
    if (!body) {
      draft.skipped.push({ operation: reference, reason: "no JSON success response" });
      continue;
    }
    const base = snakeCase(op.operationId ?? `${op.method} ${op.path}`);
    let toolName = base;
    for (let n = 2; draft.tools.has(toolName); n++) toolName = `${base}_${n}`;
    const rows = findRows(reader, { name: toolName, operation: reference, page: [], inputs: [], path: [] }, body.schema, body.mediaType, []);
    if ("problem" in rows) {
      draft.skipped.push({ operation: reference, reason: rows.problem });
      continue;
    }
    const refName = reader.refName(rows.item) ?? reader.refName(reader.unwrapNullable(rows.item));
    const fromPath = rows.path.length ? singular(rows.path[rows.path.length - 1]!) : undefined;
    const named = rows.resourceName ?? (refName ? resourceNameOf(refName) : fromPath && fromPath !== "data" ? fromPath : `${toolName}_record`);
    const explicitResource = (rows.resourceName === undefined || rows.resourceName === null) && (rows.jsonapi || !refName);
    if (rows.jsonapi && rows.resourceName === null && !refName) {
      draft.skipped.push({ operation: reference, reason: "its records' type does not say which resource they are" });
      continue;
    }
    const item = reader.unwrapNullable(rows.item);
    if (!sources.has(named)) sources.set(named, { at: item, jsonapi: rows.jsonapi });
    if (!rows.jsonapi && refName && !draft.resources.has(named)) draft.resources.set(named, { schema: refName, fields: [] });
    draft.tools.set(toolName, { operation: reference, resource: named, explicitResource, page: rows.many ? pageGuess(reader, body.schema, rows.jsonapi) : [] });
    if (!rows.many && /\}$/.test(op.path)) singleReaders.set(named, [...(singleReaders.get(named) ?? []), toolName]);
  }
  for (const [name, source] of sources) {
    const fields: SpecField[] = source.jsonapi ? jsonApiFields(reader, source.at) : restFields(reader, source.at);
    const resource = draft.resources.get(name) ?? { fields: [] };
    resource.fields = fields.map((field) => {
      const guess = guessField(field, { reader, idTools: singleReaders.get(name) ?? [], labels });
      if (guess.resolver && !draft.resolvers.has(guess.resolver.name)) {
        const type = guess.resolver.type;
        const label = type ? labels.get(type) : undefined;
        draft.resolvers.set(guess.resolver.name, type && label ? { type, label } : {});
      }
      return [field.name, guess];
    });
    draft.resources.set(name, resource);
  }
  return draft;
}

