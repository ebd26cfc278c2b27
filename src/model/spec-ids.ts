// What the spec declares a field's ids and URLs to be: names and schemas that make a value an opaque
// id, what a value kept whole carries of them, and the ids a relationship or a join key holds.

import { child, isJsonObject, members, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import type { IdFacts } from "../rules/types.js";

/** The words that say "an id", one or several, as each writing spells them: `id`, `Uuid`, `GUIDs`. */
const ID_WORDS_LOWER = "ids?|gids?|uuids?|guids?|uids?|sids?";
const ID_WORDS_TITLE = "Ids?|Gids?|Uuids?|Guids?|Uids?|Sids?";
const ID_WORDS_CAPS = "IDs?|GIDs?|UUIDs?|GUIDs?|UIDs?|SIDs?";

/**
 * Opaque ids: kept only as an argument, a join key, or a fact with its reason. A name that is one of
 * the words, or ends with one after `_` or `-`, or after a letter in camel case (`groupId`,
 * `groupID`): never `paid` or `PAID`.
 */
export const ID_LIKE = new RegExp(
  `^(${ID_WORDS_LOWER}|Id|${ID_WORDS_CAPS})$|[_-](${ID_WORDS_LOWER}|${ID_WORDS_CAPS})$|[A-Za-z0-9](${ID_WORDS_TITLE})$|[a-z0-9](${ID_WORDS_CAPS})$`,
);

/** The end of a name that says it is an id, as {@link ID_LIKE} reads it: `_id`, `-ids`, `Id`, `ID`, `Uuid`, `_SID`. */
export const ID_SUFFIX = new RegExp(`([_-](${ID_WORDS_LOWER}|${ID_WORDS_CAPS})|${ID_WORDS_TITLE}|${ID_WORDS_CAPS})$`);

/** What makes a value an id beyond its name: the component schemas, patterns and formats the spec's own id-named values use. */
export interface IdSchemas {
  refs: ReadonlySet<string>;
  patterns: ReadonlySet<string>;
  formats: ReadonlySet<string>;
}

/** Formats that say how a value is written, never that it is an id, whatever the fields using them are named. */
const PLAIN_FORMATS = new Set([
  ...["int32", "int64", "integer", "number", "float", "double", "decimal", "string", "text", "byte", "binary", "password"],
  ...["date", "date-time", "time", "duration", "uri", "url", "uri-reference", "iri", "email", "hostname", "ipv4", "ipv6"],
]);

const idSchemasByDocument = new WeakMap<object, IdSchemas>();

/**
 * The schemas the spec writes its ids with, read once per document: a component schema (`$ref`),
 * a `pattern` or a `format` that id-named properties and parameters use at least as often as
 * others do, and `format: uuid` always. A value written with one is an id whatever its name:
 * Discord's `mention_roles` holds its snowflake ids, Twilio's `call_sid_to_coach` a call's `CA…` sid.
 */
export function idSchemas(reader: SchemaReader): IdSchemas {
  const known = idSchemasByDocument.get(reader.document);
  if (known) return known;
  const tallies = { refs: new Map<string, number>(), patterns: new Map<string, number>(), formats: new Map<string, number>() };
  const tally = (name: string, value: unknown) => {
    if (!isJsonObject(value)) return;
    const schema = value["type"] === "array" && isJsonObject(value["items"]) ? value["items"] : value;
    const vote = ID_LIKE.test(name) ? 1 : -1;
    const count = (map: Map<string, number>, key: unknown) => {
      if (typeof key === "string") map.set(key, (map.get(key) ?? 0) + vote);
    };
    const ref = typeof schema["$ref"] === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(schema["$ref"])?.[1] : undefined;
    count(tallies.refs, ref);
    count(tallies.patterns, schema["pattern"]);
    count(tallies.formats, schema["format"]);
  };
  const walk = (value: unknown, depth: number) => {
    if (depth > 64) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    if (!isJsonObject(value)) return;
    const properties = value["properties"];
    if (isJsonObject(properties)) for (const [name, schema] of Object.entries(properties)) tally(name, schema);
    if (typeof value["name"] === "string" && typeof value["in"] === "string") tally(value["name"], value["schema"]);
    for (const inner of Object.values(value)) walk(inner, depth + 1);
  };
  walk(reader.document, 0);
  const chosen = (map: Map<string, number>) => new Set([...map].filter(([, votes]) => votes >= 0).map(([key]) => key));
  const formats = chosen(tallies.formats);
  for (const format of PLAIN_FORMATS) formats.delete(format);
  formats.add("uuid");
  const found: IdSchemas = { refs: chosen(tallies.refs), patterns: chosen(tallies.patterns), formats };
  idSchemasByDocument.set(reader.document, found);
  return found;
}

/** Whether a string or integer is written with one of the spec's id schemas ({@link idSchemas}). */
export function isIdSchema(reader: SchemaReader, at: SchemaAt): boolean {
  const ids = idSchemas(reader);
  // Through a `$ref`, a nullable `oneOf` and a one-member `allOf` (a description beside the ref).
  let node: SchemaAt | undefined = at;
  for (let steps = 0; node !== undefined && steps < 8; steps++) {
    const name = reader.refName(node) ?? reader.refName(reader.unwrapNullable(node));
    if (name !== undefined && ids.refs.has(name)) return true;
    const wrapped = members(reader.unwrapNullable(node), "allOf");
    node = wrapped.length === 1 ? wrapped[0] : undefined;
  }
  const kind = reader.kind(at);
  if (kind !== "string" && kind !== "integer") return false;
  const schema = reader.unwrapNullable(at).schema;
  return (
    (typeof schema["pattern"] === "string" && ids.patterns.has(schema["pattern"])) ||
    (typeof schema["format"] === "string" && ids.formats.has(schema["format"]))
  );
}

/** A list whose items are ids by their schema (`mention_roles: [snowflake]`). */
export function isIdList(reader: SchemaReader, at: SchemaAt): boolean {
  if (reader.kind(at) !== "array") return false;
  const items = reader.items(at);
  return items !== undefined && isIdSchema(reader, items);
}

/** How many carried paths of each kind a schema node keeps: a message names a few, and only emptiness decides. */
const CARRIED_SHOWN = 12;

interface Carried {
  ids: string[];
  urls: string[];
}

const carriedByDocument = new WeakMap<object, Map<string, Carried>>();

/**
 * Paths inside a schema, at any depth and through arrays, that hold ids (by their names or by the
 * spec's id schemas) or URLs. Each schema node is walked once per document, however many fields
 * share it: a spec whose records all embed one deep schema would otherwise be walked once a field.
 */
export function carriedIdsAndUrls(reader: SchemaReader, at: SchemaAt, name: string): Carried {
  const memo = carriedByDocument.get(reader.document) ?? new Map<string, Carried>();
  carriedByDocument.set(reader.document, memo);
  const found = carriedFrom(reader, at, memo);
  return { ids: found.ids.map((path) => name + path), urls: found.urls.map((path) => name + path) };
}

/** Adds what `from` carries, under `label`, to what `into` does, up to {@link CARRIED_SHOWN} paths of each kind. */
function add(into: Carried, label: string, from: Carried) {
  for (const path of from.ids) if (into.ids.length < CARRIED_SHOWN) into.ids.push(label + path);
  for (const path of from.urls) if (into.urls.length < CARRIED_SHOWN) into.urls.push(label + path);
}

interface Edge {
  label: string;
  to: string;
}

/**
 * What a node carries, from the nodes it reaches. Nodes on a cycle (a user whose manager is a
 * user) reach each other, so they are settled together once the walk leaves their cycle, as
 * Tarjan's algorithm finds it: each then carries what it holds itself, or failing that, one path
 * through the cycle to a node that holds something.
 */
function carriedFrom(reader: SchemaReader, at: SchemaAt, memo: Map<string, Carried>): Carried {
  const start = reader.unwrapNullable(at);
  const done = memo.get(start.pointer);
  if (done) return done;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const edges = new Map<string, Edge[]>();
  const own = new Map<string, Carried>();
  const visit = (node: SchemaAt) => {
    const pointer = node.pointer;
    index.set(pointer, index.size);
    low.set(pointer, index.get(pointer)!);
    stack.push(pointer);
    onStack.add(pointer);
    const held: Carried = { ids: [], urls: [] };
    const out: Edge[] = [];
    const follow = (label: string, target: SchemaAt) => {
      const next = reader.unwrapNullable(target);
      const settled = memo.get(next.pointer);
      if (settled) return add(held, label, settled);
      if (!index.has(next.pointer)) {
        visit(next);
        const after = memo.get(next.pointer);
        if (after) return add(held, label, after);
        low.set(pointer, Math.min(low.get(pointer)!, low.get(next.pointer)!));
      } else if (onStack.has(next.pointer)) low.set(pointer, Math.min(low.get(pointer)!, index.get(next.pointer)!));
      out.push({ label, to: next.pointer });
    };
    const kind = reader.kind(node);
    if (kind === "array") {
      const items = reader.items(node);
      if (items && isIdSchema(reader, items)) held.ids.push("[]");
      else if (items) follow("[]", items);
    } else if (kind === "object" || kind === undefined) {
      // A `oneOf`/`anyOf` of objects has no single type, but its branches' properties are still carried.
      for (const p of reader.properties(node)) {
        const label = `.${p.name}`;
        if (ID_LIKE.test(p.name) || isIdSchema(reader, p.at)) held.ids.push(label);
        else if (isIdList(reader, p.at)) held.ids.push(`${label}[]`);
        else if (isUrl(reader, p.name, p.at)) held.urls.push(label);
        else follow(label, p.at);
      }
    }
    own.set(pointer, held);
    edges.set(pointer, out);
    if (low.get(pointer) !== index.get(pointer)) return;
    const cycle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      cycle.push(member);
    } while (member !== pointer);
    settleCycle(cycle, own, edges, memo);
  };
  visit(start);
  return memo.get(start.pointer)!;
}

/**
 * Settles the nodes of one cycle (or a lone node): what each holds itself and through nodes
 * outside the cycle was gathered while walking; members with nothing of their own take one path
 * to a member that has something, found by walking the cycle's edges backwards from those members.
 */
function settleCycle(cycle: string[], own: Map<string, Carried>, edges: Map<string, Edge[]>, memo: Map<string, Carried>) {
  const members = new Set(cycle);
  const empty = (c: Carried) => c.ids.length === 0 && c.urls.length === 0;
  const into = new Map<string, { from: string; label: string }[]>();
  for (const member of cycle) {
    for (const edge of edges.get(member)!) {
      if (!members.has(edge.to)) continue;
      into.set(edge.to, [...(into.get(edge.to) ?? []), { from: member, label: edge.label }]);
    }
  }
  const queue = cycle.filter((member) => !empty(own.get(member)!));
  for (let i = 0; i < queue.length; i++) {
    const reached = queue[i]!;
    for (const { from, label } of into.get(reached) ?? []) {
      const carried = own.get(from)!;
      if (!empty(carried)) continue;
      add(carried, label, own.get(reached)!);
      queue.push(from);
    }
  }
  for (const member of cycle) memo.set(member, own.get(member)!);
}

const URL_FORMATS = new Set(["uri", "url", "uri-reference", "iri", "iri-reference", "uri-map"]);

/** Whether a property holds a URL, or a map or list of them (Twilio's `subresource_uris`), by its format or its name. */
export function isUrl(reader: SchemaReader, name: string, at: SchemaAt): boolean {
  const format = reader.unwrapNullable(at).schema["format"];
  return (
    (typeof format === "string" && URL_FORMATS.has(format)) ||
    /(^|[_-])(url|uri|href|urls|uris|hrefs|URL|URI|HREF|URLS|URIS)$|(Url|Uri|Urls|Uris)$|[a-z0-9](URL|URI|URLs|URIs|HREF)$|^self$/.test(
      name,
    )
  );
}

/** What the spec declares of the ids the field at `at` holds: a relationship's in its `data`, else a join key's. */
export function idFacts(reader: SchemaReader, at: SchemaAt, relationship: boolean): IdFacts {
  /** One item of the value at `of`, through a list; undefined for a list of no declared items. */
  const itemOf = (of: SchemaAt) => {
    const value = reader.unwrapNullable(of);
    const items = reader.kind(value) === "array" ? reader.items(value) : value;
    return items && reader.unwrapNullable(items);
  };
  /** The schema of one resource identifier in a relationship's `data`. */
  const linkage = () => {
    const data = reader.property(reader.unwrapNullable(at), "data");
    return data && itemOf(data.at);
  };
  const idKind = (idKey: string) => {
    if (relationship) return "string";
    const one = itemOf(at);
    if (!one) return undefined;
    const kind = reader.kind(one);
    if (kind !== "object" && kind !== undefined) return kind;
    const id = reader.property(one, idKey);
    return id ? reader.kind(id.at) : undefined;
  };
  const data = relationship ? child(reader.unwrapNullable(at), "properties", "data") : undefined;
  return {
    many: relationship ? data !== undefined && reader.kind(data) === "array" : reader.kind(at) === "array",
    idKind,
    textIds(idKey) {
      if (!relationship) return idKind(idKey) === "string";
      const one = linkage();
      const id = one && reader.property(one, "id");
      return id !== undefined && reader.kind(id.at) === "string";
    },
    plainIds() {
      const one = itemOf(at);
      const kind = one && reader.kind(one);
      return kind === "string" || kind === "integer" || kind === "number";
    },
    declaredTypes() {
      const one = linkage();
      const type = one && reader.property(one, "type");
      return type && reader.enumValues(type.at)?.filter((value) => typeof value === "string");
    },
  };
}
