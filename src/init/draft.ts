import { jsonApiFields, restFields, type SpecField } from "../model/fields.js";
import { listOperations, operationLabel, successBody, type Operation } from "../model/operations.js";
import type { ResourceAnnotation } from "../annotation/types.js";
import { findRows, identityOf, jsonApiTypes } from "../model/rows.js";
import { isJsonObject, type SchemaReader, type SchemaAt } from "../openapi/schema.js";
import { guessField, labelAttribute, type Guess } from "./guess.js";
import { draftInputs, type DraftInput } from "./inputs.js";
import { draftNext, type DraftNext } from "./next-page.js";

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
  /** `page.next`, where the spec shows the tool pages. */
  next?: DraftNext;
  /** Set where the spec's example reads in fewer tokens as a table than as JSON: the figures, for the comment beside it. */
  table?: { json: number; table: number };
  /** The operation's path and query parameters, as the model will pass them. */
  inputs?: DraftInput[];
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
const resourceNameOf = (schemaName: string) =>
  snakeCase(schemaName.replace(/[_-]?(Resource[_-]?Object|Resource|Object|Data)$/i, "") || schemaName);

const singular = (name: string) =>
  name
    .replace(/ies$/, "y")
    .replace(/(s|x|ch|sh)es$/, "$1")
    .replace(/([^s])s$/, "$1");

function selected(op: Operation, options: DraftOptions): boolean {
  if (op.method !== "get") return false;
  if (options.operations && !options.operations.some((o) => o === op.operationId || o.toLowerCase() === operationLabel(op).toLowerCase()))
    return false;
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
  const totals = jsonapi
    ? [
        ["meta", "page", "total"],
        ["meta", "pagination", "total"],
        ["meta", "total"],
        ["meta", "page", "total_count"],
      ]
    : [["total"], ["total_count"], ["count"]];
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
  const chosen = listOperations(reader).filter((o) => selected(o, options));
  // Where generate finds a tool's records depends on the resources the annotation names, so the
  // tools are drafted twice: the second time against the resources the first time drafted.
  const first = draftTools(reader, chosen, []);
  const resources = [...first.draft.resources].flatMap(([name, r]) =>
    r.schema !== undefined ? [{ name, schema: r.schema, fields: [], path: [] }] : [],
  );
  const { draft: drafted, sources, kinds } = draftTools(reader, chosen, resources);
  Object.assign(draft, { resources: drafted.resources, tools: drafted.tools, skipped: drafted.skipped });
  const operationOf = new Map(chosen.map((op) => [op.operationId ?? operationLabel(op), op]));
  for (const tool of draft.tools.values()) {
    const op = operationOf.get(tool.operation);
    if (op) tool.inputs = draftInputs(reader, op);
  }
  const takers = idTakers(chosen, drafted);
  for (const [name, source] of sources) {
    const fields: SpecField[] = source.jsonapi ? jsonApiFields(reader, source.at) : restFields(reader, source.at);
    const resource = draft.resources.get(name) ?? { fields: [] };
    resource.fields = fields.map((field) => {
      const guess = guessField(field, {
        reader,
        identity: source.jsonapi ? "id" : identityOf(reader, source.at),
        idTools:
          kinds
            .get(name)
            ?.flatMap((k) => takers.get(k) ?? [])
            .filter(unique) ?? [],
        takers,
        labels,
      });
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

const unique = <T>(value: T, index: number, all: T[]) => all.indexOf(value) === index;

interface DraftedTools {
  draft: Draft;
  sources: Map<string, { at: SchemaAt; jsonapi: boolean }>;
  /** The kinds of record each resource is (`conversation`), from its name and the paths that return it. */
  kinds: Map<string, string[]>;
}

function draftTools(reader: SchemaReader, operations: Operation[], resources: ResourceAnnotation[]): DraftedTools {
  const draft: Draft = { resolvers: new Map(), resources: new Map(), tools: new Map(), skipped: [] };
  const sources = new Map<string, { at: SchemaAt; jsonapi: boolean }>();
  const kinds = new Map<string, string[]>();
  const owners = new Map<string, string>();
  const namesByRecord = new Map<string, string>();
  for (const op of operations) {
    const reference = op.operationId ?? operationLabel(op);
    const body = successBody(reader, op);
    if (!body) {
      draft.skipped.push({ operation: reference, reason: "no JSON success response" });
      continue;
    }
    const base = snakeCase(op.operationId ?? `${op.method} ${op.path}`);
    let toolName = base;
    for (let n = 2; draft.tools.has(toolName); n++) toolName = `${base}_${n}`;
    const rows = findRows(
      reader,
      { name: toolName, operation: reference, page: [], inputs: [], path: [] },
      body.schema,
      body.mediaType,
      resources,
      op.path,
    );
    if ("problem" in rows) {
      draft.skipped.push({ operation: reference, reason: rows.problem });
      continue;
    }
    const refName = reader.refName(rows.item) ?? reader.refName(reader.unwrapNullable(rows.item));
    const fromPath = rows.path.length ? singular(rows.path[rows.path.length - 1]!) : undefined;
    const item = reader.unwrapNullable(rows.item);
    let named =
      rows.resourceName ?? (refName ? resourceNameOf(refName) : fromPath && fromPath !== "data" ? fromPath : `${toolName}_record`);
    // A plain-REST resource is one schema: another schema that would take the same name gets the tool's.
    if (!rows.jsonapi) {
      const owner = owners.get(named);
      named = namesByRecord.get(item.pointer) ?? (owner !== undefined && owner !== item.pointer ? `${toolName}_record` : named);
      owners.set(named, item.pointer);
      namesByRecord.set(item.pointer, named);
    }
    const explicitResource = (rows.resourceName === undefined || rows.resourceName === null) && (rows.jsonapi || !refName);
    if (rows.jsonapi && rows.resourceName === null && !refName) {
      draft.skipped.push({ operation: reference, reason: "its records' type does not say which resource they are" });
      continue;
    }
    if (!sources.has(named)) sources.set(named, { at: item, jsonapi: rows.jsonapi });
    if (!rows.jsonapi && refName && !draft.resources.has(named)) draft.resources.set(named, { schema: refName, fields: [] });
    const next = rows.many ? draftNext(reader, op, body, rows) : undefined;
    draft.tools.set(toolName, {
      operation: reference,
      resource: named,
      explicitResource,
      page: rows.many ? pageGuess(reader, body.schema, rows.jsonapi) : [],
      ...(next ? { next } : {}),
    });
    const kind = recordKindOfPath(op.path, rows.many);
    kinds.set(named, [...(kinds.get(named) ?? [singular(named)]), ...(kind ? [kind] : [])].filter(unique));
  }
  return { draft, sources, kinds };
}

const kindOf = (word: string) => singular(snakeCase(word));
const IDENTITY_PARAMETER = /^(id|gid|uuid|key|slug|number)$/i;
const KIND_PARAMETER = /^(.+?)(?:_id_or_slug|_id_or_key|_id_or_name|_ids?|_gid|_uuid|_key|_slug|_number|Id|Gid|Uuid|Key)$/;

/** The kind of record a path returns: `/users/{id}/tickets` lists tickets, `/tickets/{ticket_id}` gets one. */
function recordKindOfPath(path: string, many: boolean): string | undefined {
  const segments = path.split("/").filter(Boolean);
  const last = segments[segments.length - 1];
  if (last === undefined) return undefined;
  if (!many && /^\{.*\}$/.test(last)) {
    const before = segments[segments.length - 2];
    if (before !== undefined && !/^\{/.test(before)) return kindOf(before);
    const named = KIND_PARAMETER.exec(last.slice(1, -1));
    return named ? kindOf(named[1]!) : undefined;
  }
  return /^\{/.test(last) ? undefined : kindOf(last);
}

/**
 * The kinds of record whose ids an operation takes to say what it reads: its last path parameter
 * (`{ticket_id}`, or `{id}` after `/tickets/`) and its `?ticket_id=` query parameters. The
 * parameters before the last only scope it (`/organizations/{org}/...`): every call under an
 * organization takes one, and naming them all would bury the tool that reads the record.
 */
function kindsTaken(op: Operation): string[] {
  const kinds: string[] = [];
  const segments = op.path.split("/").filter(Boolean);
  const last = segments.map((segment) => /^\{(.+)\}$/.test(segment)).lastIndexOf(true);
  const parameter = last === -1 ? undefined : segments[last]!.slice(1, -1);
  const named = parameter === undefined ? null : KIND_PARAMETER.exec(parameter);
  // The collection a parameter follows names the kind: `/synthetics/tests/{public_id}` takes a test's id.
  const collection = last > 0 && !/^\{/.test(segments[last - 1]!) ? kindOf(segments[last - 1]!) : undefined;
  if (collection !== undefined && (named || IDENTITY_PARAMETER.test(parameter!))) kinds.push(collection);
  else if (named) kinds.push(kindOf(named[1]!));
  const parameters = op.at.schema["parameters"];
  for (const parameter of Array.isArray(parameters) ? parameters : []) {
    if (!isJsonObject(parameter) || parameter["in"] !== "query" || typeof parameter["name"] !== "string") continue;
    const named = /^(.+?)(?:_ids?|Ids?)(\[\])?$/.exec(parameter["name"]);
    if (named) kinds.push(kindOf(named[1]!));
  }
  return kinds.filter(unique);
}

/** For each kind of record, the drafted tools that take an id of it, in the spec's order. */
function idTakers(operations: Operation[], draft: Draft): Map<string, string[]> {
  const toolOf = new Map([...draft.tools].map(([name, tool]) => [tool.operation, name]));
  const takers = new Map<string, string[]>();
  for (const op of operations) {
    const tool = toolOf.get(op.operationId ?? operationLabel(op));
    if (tool === undefined) continue;
    for (const kind of kindsTaken(op)) takers.set(kind, [...(takers.get(kind) ?? []), tool]);
  }
  return takers;
}
