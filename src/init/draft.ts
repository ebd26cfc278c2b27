import { jsonApiTypeFields, restFields, type SpecField } from "../model/fields.js";
import { listOperations, operationLabel, successBody, type Operation } from "../model/operations.js";
import type { ResourceAnnotation } from "../annotation/types.js";
import { findRows, identityOf, jsonApiTypes, namesOneRecord, sideBySideLists, unreadMembers, type Rows } from "../model/rows.js";
import type { SchemaReader, SchemaAt } from "../openapi/schema.js";
import {
  kindAnsweredWhole,
  collectionKinds,
  kindOf,
  nearerCollection,
  foreignArgument,
  matchingOf,
  ownArguments,
  ownTakers,
  pathShape,
  recordKindOfPath,
  snakeCase,
  takerOf,
  unionBranches,
  type OwnTakers,
  type Taker,
  unique,
} from "./arguments.js";
import { LONGEST_TOOL_NAME, singular } from "../naming.js";
import { guessField, labelAttribute, someOf, type Guess, type ResolverGuess } from "./guess.js";
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
  /** Where the records sit, written where the response holds members the result leaves out, and those members. */
  rows?: { path: string; unread: string[] };
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

/** A resolver as drafted: what is written under `resolvers:`, and why its label, written beside it. */
export type DraftResolver = Omit<ResolverGuess, "name">;

export interface Draft {
  resolvers: Map<string, DraftResolver>;
  resources: Map<string, DraftResource>;
  tools: Map<string, DraftTool>;
  skipped: { operation: string; reason: string }[];
}

/** The collection a path reads from: itself for a list, the list it names one record of for a fetch (`/Accounts/{Sid}.json`, `/Accounts.json`: `/Accounts`). */
const collectionOf = (path: string) => pathShape(path.replace(/\/+$/, "").replace(/\/\{[^}/]+\}[^/]*$/, ""));

/**
 * Whether two resources are one kind of record told in more or less detail, as their names say word
 * for word: `simplified_track` and `track`, a Twilio `incoming_phone_number_local` and its
 * `incoming_phone_number`; never `aws_account` and `okta_account`.
 */
const variantOf = (a: string, b: string) =>
  a === b || a.endsWith(`_${b}`) || b.endsWith(`_${a}`) || a.startsWith(`${b}_`) || b.startsWith(`${a}_`);

/** The end of a resource's name where it is named after its tool, the spec naming no schema for its records. */
const TOOL_RECORD = "_record";

/** `Albums_Resource_Object` and `Incident` to `albums` and `incident`. */
const resourceNameOf = (schemaName: string) =>
  snakeCase(schemaName.replace(/[_-]?(Resource[_-]?Object|Resource|Object|Data)$/i, "") || schemaName);

function selected(op: Operation, options: DraftOptions): boolean {
  if (op.method !== "get") return false;
  if (options.operations && !options.operations.some((o) => o === op.operationId || o.toLowerCase() === operationLabel(op).toLowerCase()))
    return false;
  const tags = op.at.schema["tags"];
  return options.tag === undefined || (Array.isArray(tags) && tags.includes(options.tag));
}

/** The page keys a list's response shows beside its records (`total`, `more`), read where the list sits: `playlists.total` beside `playlists.items`. */
function pageGuess(reader: SchemaReader, response: SchemaAt, rows: Rows): [string, string][] {
  const { jsonapi } = rows;
  const beside = jsonapi ? [] : rows.path.slice(0, -1);
  const has = (path: string[]) => {
    let at: SchemaAt | undefined = reader.unwrapNullable(response);
    for (const segment of [...beside, ...path]) at = at ? reader.property(at, segment)?.at : undefined;
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
    : [
        ["total"],
        ["total_count"],
        ["count"],
        ["meta", "total"],
        ["meta", "total_count"],
        ["meta", "pagination", "total"],
        ["pagination", "total"],
      ];
  const total = totals.find((path) => {
    const at = has(path);
    return at && reader.kind(at) === "integer";
  });
  if (total) page.push(["total", [...beside, ...total].join(".")]);
  if (jsonapi && has(["links", "next"])) page.push(["more", "links.next"]);
  else {
    const more = [["more"], ["has_more"], ["next_cursor"], ["links", "next"]].find((path) => has(path));
    if (more) page.push([more[0] === "next_cursor" ? "next_cursor" : "more", [...beside, ...more].join(".")]);
  }
  return page;
}

/**
 * Guesses an annotation for the JSON responses of a spec's GET operations: one tool per operation,
 * one resource per kind of record, every field with a role and a reason.
 */
export function draftAnnotation(reader: SchemaReader, options: DraftOptions): Draft {
  const labels = new Map<string, string>();
  for (const [type, at] of jsonApiTypes(reader)) {
    const attributes = reader.property(at, "attributes");
    const label = attributes ? labelAttribute(reader.properties(attributes.at).map((p) => p.name)) : undefined;
    if (label) labels.set(type, label);
  }
  const operations = listOperations(reader);
  const chosen = operations.filter((o) => selected(o, options));
  const kindsListed = collectionKinds(operations);
  // Where generate finds a tool's records depends on the resources the annotation names, so the
  // tools are drafted twice: the second time against the resources the first time drafted.
  const first = draftTools(reader, chosen, [], kindsListed);
  const resources = [...first.draft.resources].flatMap(([name, r]) =>
    r.schema !== undefined ? [{ name, schema: r.schema, fields: [], path: [] }] : [],
  );
  const { draft, sources, kinds, lists, wrappers } = draftTools(reader, chosen, resources, kindsListed);
  const operationOf = new Map(chosen.map((op) => [op.operationId ?? operationLabel(op), op]));
  for (const tool of draft.tools.values()) {
    const op = operationOf.get(tool.operation);
    if (op) tool.inputs = draftInputs(reader, op);
  }
  const toolOf = new Map([...draft.tools].map(([name, tool]) => [tool.operation, name]));
  const takers = chosen.flatMap((op) => {
    const tool = toolOf.get(op.operationId ?? operationLabel(op));
    if (tool === undefined) return [];
    const taker = takerOf(reader, op, { name: tool, lists: lists.has(tool), reads: draft.tools.get(tool)!.resource }, kindsListed);
    return taker ? [taker] : [];
  });
  const matching = matchingOf(reader, operations);
  // The collections each resource is listed or fetched from (`/conversations` for both), and the resources read from each.
  const collections = new Map<string, Set<string>>();
  const readersOf = new Map<string, string[]>();
  for (const [name, tool] of draft.tools) {
    const path = operationOf.get(tool.operation)?.path;
    if (path === undefined || wrappers.has(name)) continue;
    const collection = collectionOf(path);
    collections.set(tool.resource, (collections.get(tool.resource) ?? new Set()).add(collection));
    const readers = readersOf.get(collection) ?? [];
    if (!readers.includes(tool.resource)) readersOf.set(collection, [...readers, tool.resource]);
  }
  // A record named after its tool says nothing of its kind: it reads as no other kind than any.
  const namedReadersOf = new Map(
    [...readersOf].map(([collection, readers]) => [collection, readers.filter((r) => !r.endsWith(TOOL_RECORD))]),
  );
  // A record every tool reads as what holds its collection's records (a status beside `agents`), by the list it holds:
  // its first tool's, kept while each other tool's holds one too.
  const heldBy = new Map<string, string | undefined>();
  for (const [name, tool] of draft.tools) {
    const held = wrappers.get(name);
    if (!heldBy.has(tool.resource) || held === undefined) heldBy.set(tool.resource, held);
  }
  const takersByKind = new Map<string, Taker[]>();
  for (const taker of takers) takersByKind.set(taker.kind, [...(takersByKind.get(taker.kind) ?? []), taker]);
  for (const [name, source] of sources) {
    const fields = sourceFields(reader, source);
    const resource = draft.resources.get(name) ?? { fields: [] };
    const branchResources = unionBranches(reader, source.at).flatMap((schema) =>
      [...draft.resources].flatMap(([branch, r]) => (r.schema === schema ? [branch] : [])),
    );
    const branches = branchResources.flatMap((branch) => kinds.get(branch) ?? []);
    // What a tool whose id names one record of a collection reads, by who else is read from there:
    // `/conversations/{id}` this conversation `/conversations` lists in brief; `/tracks/{id}` a variant
    // of a `simplified_track`; `/okta/accounts/{id}` and `/okta/accounts/{id}/logs` another kind than an AWS account.
    const readFrom = new Set([name, ...branchResources].flatMap((resource) => [...(collections.get(resource) ?? [])]));
    const reads = (taker: Taker) => {
      if (readFrom.size === 0 || readFrom.has(taker.collection)) return "this";
      const readers = readersOf.get(taker.collection) ?? [];
      if (readers.length === 0) return "this";
      // A record named after its tool (`get_project_record`, where the spec names no schema) says nothing of its kind.
      const unnamed = (resource: string) => resource.endsWith(TOOL_RECORD);
      return unnamed(name) || readers.some((resource) => unnamed(resource) || variantOf(resource, name)) ? "a variant" : "another";
    };
    const own = ownTakers([...(kinds.get(name) ?? []), ...branches], takersByKind, reads);
    const identity = source.jsonapi ? "id" : restIdentity(reader, fields, source.at);
    const ctx = {
      reader,
      identity,
      arguments: source.jsonapi ? jsonApiArguments(own) : ownArguments(matching, fields, own, identity),
      takersOf: (field: SpecField) =>
        foreignArgument(
          matching,
          field,
          takersByKind,
          takers,
          (kind, chosen) => nearerCollection(readFrom, kindsListed.get(kind) ?? new Set(), chosen, namedReadersOf),
          fields,
        ),
      labels,
      record: name,
      holdsItsCollection: heldBy.get(name),
    };
    resource.fields = fields.flatMap((field) => entriesOf(field.name, guessField(field, ctx), draft.resolvers, labels));
    draft.resources.set(name, resource);
  }
  return draft;
}

/** A plain-REST record's own id: `id`, `gid`, `uuid`, Twilio's `sid`, or a `key` that is text (Spotify's audio analysis has a musical `key`, 0 to 11). */
function restIdentity(reader: SchemaReader, fields: SpecField[], record: SchemaAt): string | undefined {
  const named = identityOf(reader, record) ?? (fields.some((f) => f.name === "sid") ? "sid" : undefined);
  const field = fields.find((f) => f.name === named);
  return named === "key" && field && reader.kind(field.at) !== "string" ? undefined : named;
}

/** A JSON:API record's `id` is what every tool taking an id of its type takes; a kind its type only ends with is another type. */
function jsonApiArguments({ takers, likeKind, elsewhere }: OwnTakers): Map<string, Guess> {
  const tools = (likeKind === undefined ? takers : [])
    .filter((t) => t.namedAsId)
    .map((t) => t.tool)
    .filter(unique);
  const reason = elsewhere
    ? `an id of its type ${someOf(tools)} ${tools.length === 1 ? "takes" : "take"}, of a collection this record is never read from: check it is this one`
    : `an id the model passes to ${someOf(tools)}`;
  return new Map(tools.length ? [["id", { rule: { argument: tools }, reason, sure: elsewhere !== true }]] : []);
}

/** A field's entries: itself, or its parts under dotted names; each resolver a join goes through declared on the way. */
function entriesOf(
  name: string,
  guess: Guess,
  resolvers: Map<string, DraftResolver>,
  labels: ReadonlyMap<string, string>,
): [string, Guess][] {
  if (guess.parts) return guess.parts.flatMap(([part, inner]) => entriesOf(`${name}.${part}`, inner, resolvers, labels));
  if (guess.resolver) {
    const declared = declareResolver(resolvers, guess.resolver, labels);
    if (declared !== guess.resolver.name && typeof guess.rule === "object") guess.rule = { ...guess.rule, join: declared };
  }
  return [[name, guess]];
}

/**
 * Declares the resolver a join goes through, or finds the one already declared that reads the
 * same records: a name already taken by a resolver reading another label (one API's `owner` is
 * a user with a `login`, another's an organization with a `name`) gets a number.
 */
function declareResolver(resolvers: Map<string, DraftResolver>, wanted: ResolverGuess, labels: ReadonlyMap<string, string>): string {
  const { name: base, ...entry } = wanted;
  if (entry.type !== undefined) {
    const label = labels.get(entry.type);
    if (!resolvers.has(base)) resolvers.set(base, label ? { type: entry.type, label } : {});
    return base;
  }
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}_${n}`;
    const declared = resolvers.get(name);
    if (!declared) {
      resolvers.set(name, entry);
      return name;
    }
    // A join of plain ids reads no label, so any resolver of the name serves; the first join of embedded records gives it theirs.
    if (entry.label === undefined && entry.id === undefined) return name;
    if (declared.label === undefined && declared.type === undefined && declared.id === undefined) {
      resolvers.set(name, entry);
      return name;
    }
    if (declared.label === entry.label && declared.id === entry.id) return name;
  }
}

/** The schema a resource's records are read from; for a JSON:API type, every schema its tools declare them as. */
interface RecordSource {
  at: SchemaAt;
  jsonapi: boolean;
  others: SchemaAt[];
}

/** A resource's fields: a JSON:API type's as every schema of its records declares them, as generate classifies them. */
const sourceFields = (reader: SchemaReader, source: RecordSource): SpecField[] =>
  source.jsonapi ? jsonApiTypeFields(reader, [source.at, ...source.others]).fields : restFields(reader, source.at);

/**
 * The list a GET's one object holds around its collection's records, as a member, in JSON:API an
 * attribute, or in a page it holds (`page.items`): one named for them (`agents` at `/fleet/agents`
 * or `/fleet/agent`), or one of the records the collection's fetches read (`items` of agents beside
 * `/fleet/agents/{agent_id}`). An order holding its line `items` is an order.
 */
function listAround(reader: SchemaReader, record: SchemaAt, kind: string, fetched: ReadonlySet<string>): string | undefined {
  const attributes = reader.property(record, "attributes");
  const members = [record, ...(attributes ? [reader.unwrapNullable(attributes.at)] : [])].flatMap((at) => reader.properties(at));
  const pages = members
    .filter((member) => reader.kind(member.at) === "object")
    .flatMap((page) => reader.properties(reader.unwrapNullable(page.at)));
  const lists = [...members, ...pages].filter((member) => reader.kind(member.at) === "array");
  const ofFetched = (list: (typeof lists)[number]) => {
    const items = reader.items(reader.unwrapNullable(list.at));
    return items !== undefined && fetched.has(reader.unwrapNullable(items).pointer);
  };
  return (lists.find((list) => kindOf(list.name) === kind) ?? lists.find(ofFetched))?.name;
}

interface DraftedTools {
  draft: Draft;
  sources: Map<string, RecordSource>;
  /** The kinds of record each resource is (`conversation`), from its name and the paths that return it. */
  kinds: Map<string, string[]>;
  /** The tools whose records are a list. */
  lists: Set<string>;
  /** The tools whose one record wraps their collection's records, by the list of them it holds: it is none of them. */
  wrappers: Map<string, string>;
}

function draftTools(
  reader: SchemaReader,
  operations: Operation[],
  resources: ResourceAnnotation[],
  kindsListed: ReadonlyMap<string, ReadonlySet<string>>,
): DraftedTools {
  const draft: Draft = { resolvers: new Map(), resources: new Map(), tools: new Map(), skipped: [] };
  const sources = new Map<string, RecordSource>();
  const kinds = new Map<string, string[]>();
  const listing = new Set<string>();
  const wrappers = new Map<string, string>();
  const reads: { tool: string; resource: string; op: Operation; item: SchemaAt; many: boolean }[] = [];
  const owners = new Map<string, string>();
  const namesByRecord = new Map<string, string>();
  for (const op of operations) {
    const reference = op.operationId ?? operationLabel(op);
    const body = successBody(reader, op);
    if (!body) {
      draft.skipped.push({ operation: reference, reason: "no JSON success response" });
      continue;
    }
    // Within the length function-calling APIs take, a number told apart from the name it is cut from.
    const base = snakeCase(op.operationId ?? `${op.method} ${op.path}`).slice(0, LONGEST_TOOL_NAME);
    let toolName = base;
    for (let n = 2; draft.tools.has(toolName); n++) toolName = `${base.slice(0, LONGEST_TOOL_NAME - `_${n}`.length)}_${n}`;
    const rows = findRows(reader, {}, body.schema, body.mediaType, resources, op.path);
    if ("problem" in rows) {
      draft.skipped.push({ operation: reference, reason: rows.problem });
      continue;
    }
    // Lists side by side (Spotify's search: tracks, artists, albums) are no one record, and a tool reads one list.
    const lists = rows.many || rows.path.length > 0 || namesOneRecord(op.path) ? [] : sideBySideLists(reader, body.schema);
    if (lists.length > 1 && identityOf(reader, rows.item) === undefined) {
      draft.skipped.push({
        operation: reference,
        reason: `its response holds several lists of records (${lists.join(", ")}); projector reads one list a tool: write a tool for each with \`rows:\``,
      });
      continue;
    }
    const refName = reader.refName(rows.item) ?? reader.refName(reader.unwrapNullable(rows.item));
    const fromPath = rows.path.length ? singular(rows.path[rows.path.length - 1]!) : undefined;
    const item = reader.unwrapNullable(rows.item);
    let named =
      rows.resourceName ?? (refName ? resourceNameOf(refName) : fromPath && fromPath !== "data" ? fromPath : `${toolName}${TOOL_RECORD}`);
    // A plain-REST resource is one schema: another schema that would take the same name gets the tool's.
    if (!rows.jsonapi) {
      const owner = owners.get(named);
      named = namesByRecord.get(item.pointer) ?? (owner !== undefined && owner !== item.pointer ? `${toolName}${TOOL_RECORD}` : named);
      owners.set(named, item.pointer);
      namesByRecord.set(item.pointer, named);
    }
    let explicitResource = (rows.resourceName === undefined || rows.resourceName === null) && (rows.jsonapi || !refName);
    if (rows.jsonapi && rows.resourceName === null && !refName) {
      draft.skipped.push({ operation: reference, reason: "its records' type does not say which resource they are" });
      continue;
    }
    const source = sources.get(named);
    if (!source) sources.set(named, { at: item, jsonapi: rows.jsonapi, others: [] });
    else if (rows.jsonapi && ![source.at, ...source.others].some((at) => at.pointer === item.pointer)) {
      // A schema declaring a member otherwise than the type's others (a relationship for an attribute, another type) is another resource, the tool's.
      if (jsonApiTypeFields(reader, [source.at, ...source.others, item]).clashes.length === 0) source.others.push(item);
      else {
        named = `${toolName}${TOOL_RECORD}`;
        explicitResource = true;
        sources.set(named, { at: item, jsonapi: true, others: [] });
      }
    }
    if (!rows.jsonapi && refName && !draft.resources.has(named)) draft.resources.set(named, { schema: refName, fields: [] });
    const next = rows.many ? draftNext(reader, op, body, rows) : undefined;
    const page = rows.many ? pageGuess(reader, body.schema, rows) : [];
    const read = [...page.map(([, path]) => path), ...(typeof next?.rule === "string" ? [next.rule] : [])];
    // JSON:API's members beside `data` are its envelope, read by generate as such.
    const unread = rows.jsonapi ? [] : unreadMembers(reader, rows.errorBranches?.recordBody ?? body.schema, rows.path, read);
    draft.tools.set(toolName, {
      operation: reference,
      resource: named,
      explicitResource,
      page,
      ...(unread.length ? { rows: { path: rows.path.join("."), unread } } : {}),
      ...(next ? { next } : {}),
    });
    if (rows.many) listing.add(toolName);
    reads.push({ tool: toolName, resource: named, op, item, many: rows.many });
  }
  // The records each collection's fetches read (`/fleet/agents/{agent_id}`: an agent), by the collection.
  const fetched = new Map<string, Set<string>>();
  for (const { op, item, many } of reads) {
    if (many || !namesOneRecord(op.path)) continue;
    const collection = collectionOf(op.path);
    fetched.set(collection, (fetched.get(collection) ?? new Set()).add(reader.unwrapNullable(item).pointer));
  }
  for (const { tool, resource, op, item, many } of reads) {
    // `/fleet/agents` answering a status around its `agents` answers none of them: its id is no agent's.
    const kind = kindAnsweredWhole(op, many);
    const around = kind === undefined ? undefined : listAround(reader, item, kind, fetched.get(collectionOf(op.path)) ?? new Set());
    if (around !== undefined) wrappers.set(tool, around);
    const pathKind = around === undefined ? recordKindOfPath(op.path, many, kindsListed) : undefined;
    kinds.set(resource, [...(kinds.get(resource) ?? [singular(resource)]), ...(pathKind ? [pathKind] : [])].filter(unique));
  }
  return { draft, sources, kinds, lists: listing, wrappers };
}
