import type { ResourceAnnotation, ToolAnnotation } from "../annotation/types.js";
import { withArticle } from "../indefinite-article.js";
import { nameWords, squeezed } from "../naming.js";
import { child, members, type Property, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { walk } from "./next-page.js";

/** Where a tool's records sit in its response, and what they are. */
export interface Rows {
  item: SchemaAt;
  many: boolean;
  path: string[];
  jsonapi: boolean;
  resourceName?: string;
  /**
   * The errors a union allows beside the records, in the response's place (with the body as it
   * stands without them) or in an item's: their members.
   */
  errorBranches?: { members: string[]; recordBody?: SchemaAt };
}

/**
 * A JSON:API resource object: a `type`, and attributes or relationships (or just an id, when the
 * response is served as JSON:API). Its kind is the type's single enum/const value, else its default;
 * `null` when the schema does not say. Examples are not trusted: real specs copy one example into
 * every resource's `type`.
 */
export function jsonApiType(reader: SchemaReader, at: SchemaAt, servedAsJsonApi = false): string | null | undefined {
  const type = reader.property(at, "type");
  if (!type) return undefined;
  const shaped =
    reader.property(at, "attributes") || reader.property(at, "relationships") || (servedAsJsonApi && reader.property(at, "id"));
  if (!shaped) return undefined;
  const values = reader.enumValues(type.at);
  if (values && values.length === 1 && typeof values[0] === "string") return values[0];
  const schema = reader.deref(type.at).schema;
  return typeof schema["default"] === "string" && schema["default"] !== "" ? schema["default"] : null;
}

const NO_RECORDS_HELP = "projector projects records (objects); choose an operation that returns them, or name their list with `rows:`";

/** The kinds a value that is no record may be, as a list of them is named. */
const NOT_RECORDS = { string: "texts", integer: "integers", number: "numbers", boolean: "booleans", array: "lists" } as const;

/**
 * Where a tool's records sit in its response. Values that are no records (Spotify's list of
 * booleans for "is it saved?") are a problem: every answer the spec allows would fail to project.
 */
export function findRows(
  reader: SchemaReader,
  tool: Pick<ToolAnnotation, "rows" | "resource">,
  response: SchemaAt,
  mediaType: string,
  resources: ResourceAnnotation[],
  operationPath: string,
): Rows | { problem: string; help: string } {
  const errorBranches = withoutErrorBranches(reader, response);
  const located = locateRows(reader, tool, errorBranches?.recordBody ?? response, mediaType, resources, operationPath);
  if ("problem" in located) return located;
  const rows: Rows = errorBranches ? { ...located, errorBranches } : located;
  const kind = reader.kind(rows.item);
  const place = rows.path.length ? rows.path.join(".") : "response";
  if (kind === undefined || kind === "object") {
    // Records, or lists of them, keyed by their names (`{ records: { a: {...}, b: {...} } }`) are
    // neither one record nor a list of them.
    const item = reader.unwrapNullable(rows.item);
    const patterns = child(item, "patternProperties");
    const keyed = [child(item, "additionalProperties"), ...Object.keys(patterns?.schema ?? {}).map((p) => child(patterns!, p))];
    const holdsRecords = (value: SchemaAt | undefined) =>
      value !== undefined && (reader.objectLike(value) || reader.kind(value) === "array");
    if (rows.jsonapi || reader.properties(item).length > 0 || !keyed.some(holdsRecords)) return rows;
    return {
      problem: `its ${place} is a map of records by key, not a record or a list of them`,
      help: NO_RECORDS_HELP,
    };
  }
  return {
    problem: rows.many
      ? `its ${place} is a list of ${NOT_RECORDS[kind]}, not of records`
      : `its ${place} is ${withArticle(kind)}, not a record`,
    help: NO_RECORDS_HELP,
  };
}

/** The last word of a schema's name that says it is an error's: `Problem`, `NotFoundError`, `APIError`, `ServiceFault`. */
const ERROR_NAME_WORDS = new Set(["error", "errors", "problem", "problems", "fault", "failure", "exception"]);
/** A word after it that still names the error, not a record of errors: `ErrorResponse`, `ProblemDetails`, `ErrorBody`. */
const ERROR_NAME_ENDINGS = new Set(["response", "body", "details", "detail", "info", "object", "model", "message", "payload", "result"]);
/** The members an error written inline holds and nothing else, written without case or separators. */
const ERROR_MEMBERS = new Set([
  ...["error", "errors", "code", "message", "status", "statuscode", "detail", "details", "title", "type", "instance", "reason"],
  ...["errorcode", "errormessage", "errordescription", "errordetails", "erroruri", "requestid", "traceid", "timestamp", "path"],
  ...["moreinfo", "documentationurl", "hint", "ok", "success"],
]);
/** Of those, the members that carry an error's words: a body of only codes is no error's. */
const ERROR_WORDS = new Set(["error", "errors", "message", "detail", "errormessage", "errordescription", "reason"]);

/**
 * Whether a branch of a response's union is an error the API may answer with a success status
 * (`oneOf: [Thing, Problem]`): a component named for an error (its last word, or the one before a
 * `Response` or `Details`), or, written inline, one with no identity that holds nothing but an
 * error's members, words among them. A component named otherwise (`ReportPending`) is a record.
 */
function isErrorBranch(reader: SchemaReader, branch: SchemaAt): boolean {
  const name = reader.refName(branch);
  if (name !== undefined) {
    const words = nameWords(name);
    const last = words.at(-1) ?? "";
    return ERROR_NAME_WORDS.has(last) || (ERROR_NAME_ENDINGS.has(last) && ERROR_NAME_WORDS.has(words.at(-2) ?? ""));
  }
  if (hasIdentity(reader, branch)) return false;
  const members = reader.properties(branch).map((p) => squeezed(p.name));
  return members.length > 0 && members.every((m) => ERROR_MEMBERS.has(m)) && members.some((m) => ERROR_WORDS.has(m));
}

/**
 * The error branches of a response's union, set aside (a body that is one is an error, never a
 * record of nulls): the members they hold, by which the run time tells one, and the body as the
 * records stand in it. Undefined for a union of no errors or of nothing but errors.
 */
function withoutErrorBranches(reader: SchemaReader, response: SchemaAt): Rows["errorBranches"] {
  const whole = reader.unwrapNullable(response);
  for (const key of ["oneOf", "anyOf"]) {
    const branches = members(whole, key).filter((branch) => !reader.isNullSchema(branch));
    const errors = branches.filter((branch) => isErrorBranch(reader, branch));
    const records = branches.filter((branch) => !errors.includes(branch));
    if (errors.length === 0 || records.length === 0) continue;
    const { [key]: _all, ...beside } = whole.schema;
    // Several records stay a union, at the place of its branches: no component's name, which is the error's too.
    const recordBody =
      records.length === 1
        ? records[0]!
        : { schema: { ...beside, [key]: records.map((r) => r.schema) }, pointer: `${whole.pointer}/${key}` };
    const errorMembers = new Set(errors.flatMap((branch) => reader.properties(branch).map((p) => p.name)));
    return { members: [...errorMembers].sort(), recordBody };
  }
  return undefined;
}

function locateRows(
  reader: SchemaReader,
  tool: Pick<ToolAnnotation, "rows" | "resource">,
  response: SchemaAt,
  mediaType: string,
  resources: ResourceAnnotation[],
  operationPath: string,
): Rows | { problem: string; help: string } {
  const servedAsJsonApi = mediaType.toLowerCase().startsWith("application/vnd.api+json");
  const body = reader.unwrapNullable(response);
  const rowsAt = (at: SchemaAt, path: string[], jsonapi: boolean): Rows => {
    const many = reader.kind(at) === "array";
    // Records or an error, where a list's items or a wrapped record are (`items: { anyOf: [Thing, Problem] }`, `data: { oneOf: [...] }`): the records'.
    const errors = jsonapi ? undefined : withoutErrorBranches(reader, many ? (reader.items(at) ?? at) : at);
    const item = errors?.recordBody ?? (many ? (reader.items(at) ?? at) : at);
    const single = reader.unwrapNullable(item);
    const type = jsonapi ? jsonApiType(reader, single, true) : undefined;
    const named = reader.refName(item) ?? reader.refName(single);
    const bySchema = resources.find((r) => r.schema !== undefined && r.schema === named)?.name;
    const resourceName = type ?? bySchema;
    return {
      item,
      many,
      path,
      jsonapi,
      ...(resourceName !== undefined ? { resourceName } : {}),
      ...(errors ? { errorBranches: { members: errors.members } } : {}),
    };
  };
  if (tool.rows !== undefined) {
    const found = walk(reader, body, tool.rows.split("."));
    const { at } = found;
    if ("missing" in found) {
      const names = reader.properties(at).map((p) => p.name);
      return {
        problem: `the response has no "${tool.rows}"`,
        help: `\`rows\` is the dotted path to the records; the response declares ${names.join(", ")}`,
      };
    }
    const rows = rowsAt(at, tool.rows.split("."), false);
    return rows.resourceName === undefined && jsonApiType(reader, reader.unwrapNullable(rows.item), servedAsJsonApi) !== undefined
      ? rowsAt(at, tool.rows.split("."), true)
      : rows;
  }
  const data = reader.property(body, "data");
  if (data) {
    const dataBody = reader.unwrapNullable(data.at);
    const item = reader.kind(dataBody) === "array" ? reader.items(dataBody) : dataBody;
    if (item) {
      const itemBody = reader.unwrapNullable(item);
      const variants = ["oneOf", "anyOf"].flatMap((key) => members(itemBody, key));
      const kinds = variants.map((v) => jsonApiType(reader, reader.unwrapNullable(v), servedAsJsonApi));
      if (variants.length > 1 && kinds.every((k) => k !== undefined)) {
        const chosen = variants[kinds.indexOf(tool.resource ?? null)];
        if (chosen)
          return { item: chosen, many: reader.kind(dataBody) === "array", path: ["data"], jsonapi: true, resourceName: tool.resource! };
        return {
          problem: `its data mixes several resource types (${kinds.join(", ")})`,
          help: "projector projects one resource type per tool; add `resource: NAME` to pick one, or split the tool",
        };
      }
      if (jsonApiType(reader, itemBody, servedAsJsonApi) !== undefined) return rowsAt(data.at, ["data"], true);
    }
  }
  if (reader.kind(body) === "array") return rowsAt(body, [], false);
  const schemaOf = (at: SchemaAt) => {
    const name = reader.refName(at);
    return name === undefined ? undefined : resources.find((r) => r.schema === name);
  };
  const direct = schemaOf(response) ?? schemaOf(body);
  if (direct) return { ...rowsAt(body, [], false), resourceName: direct.name };
  // A response with an identity of its own is the record, whatever lists or objects it holds.
  if (hasIdentity(reader, body)) return rowsAt(body, [], false);
  const wrapped = wrappedRecord(reader, body);
  // The path names one record (`/customers/{customer}`): its lists are its fields, never the records.
  if (namesOneRecord(operationPath)) return wrapped ? rowsAt(wrapped.at, [wrapped.name], false) : rowsAt(body, [], false);
  const arrays = recordLists(reader, body);
  if (arrays.length === 1) return rowsAt(arrays[0]!.at, [arrays[0]!.name], false);
  const annotated = arrays.filter((p) => {
    const items = reader.items(p.at);
    return items !== undefined && (schemaOf(items) ?? schemaOf(reader.unwrapNullable(items))) !== undefined;
  });
  if (annotated.length === 1) return rowsAt(annotated[0]!.at, [annotated[0]!.name], false);
  if (wrapped) {
    // An envelope around a page (`{ message, playlists: { items: [...], total, next } }`): the page's list is the records.
    const list = pageList(reader, wrapped.at);
    return list ? rowsAt(list.at, [wrapped.name, list.name], false) : rowsAt(wrapped.at, [wrapped.name], false);
  }
  return rowsAt(body, [], false);
}

/** An object's properties that are lists of records. */
function recordLists(reader: SchemaReader, at: SchemaAt): Property[] {
  return reader.properties(at).filter((p) => {
    const items = reader.kind(p.at) === "array" ? reader.items(p.at) : undefined;
    return items !== undefined && reader.objectLike(items);
  });
}

/** Members that say an object is a page of a longer list: where it stands in it, or where the rest is. */
const PAGING_MEMBERS = new Set([
  ...["total", "total_count", "count", "offset", "limit", "page", "page_size", "per_page"],
  ...["next", "next_cursor", "next_page", "next_page_token", "cursor", "has_more", "more", "previous", "prev"],
]);

/**
 * The one list of records a page holds beside its paging members (`items`, with `total` and
 * `next`). A record with an id is no page, nor is an object whose list stands beside no paging
 * member (an ownership `schema` holding its `rules`): it is the record.
 */
function pageList(reader: SchemaReader, at: SchemaAt): Property | undefined {
  if (hasIdentity(reader, at)) return undefined;
  const properties = reader.properties(at);
  if (!properties.some((p) => PAGING_MEMBERS.has(p.name))) return undefined;
  const lists = recordLists(reader, at);
  return lists.length === 1 ? lists[0] : undefined;
}

/**
 * The lists of records a response holds side by side, each directly or as a page's list
 * (Spotify's search: `tracks.items`, `artists.items`, ...), as dotted paths.
 */
export function sideBySideLists(reader: SchemaReader, body: SchemaAt): string[] {
  const direct = new Set(recordLists(reader, body).map((list) => list.name));
  return reader.properties(body).flatMap((p) => {
    if (direct.has(p.name)) return [p.name];
    const list = reader.kind(p.at) === "object" ? pageList(reader, p.at) : undefined;
    return list ? [`${p.name}.${list.name}`] : [];
  });
}

/**
 * The members of a response beside the records' path that the result does not carry: neither on the
 * way to the records, nor a page key's source, nor an envelope member the result leaves out unsaid.
 */
export function unreadMembers(
  reader: SchemaReader,
  response: SchemaAt,
  rowsPath: readonly string[],
  pageSources: readonly string[],
): string[] {
  const unread: string[] = [];
  let at = reader.unwrapNullable(response);
  for (const [depth, segment] of rowsPath.entries()) {
    const prefix = rowsPath.slice(0, depth);
    for (const property of reader.properties(at)) {
      const path = [...prefix, property.name].join(".");
      const read = property.name === segment || pageSources.some((source) => source === path || source.startsWith(`${path}.`));
      if (!read && !UNSAID_MEMBERS.has(property.name)) unread.push(path);
    }
    const next = reader.property(at, segment);
    if (!next) break;
    at = reader.unwrapNullable(next.at);
  }
  return unread;
}

/** Whether the spec lets the place at `path` of the response, or an object on the way to it, be `null`. */
export function mayBeNull(reader: SchemaReader, response: SchemaAt, path: readonly string[]): boolean {
  let at = response;
  for (const segment of path) {
    if (reader.nullable(at)) return true;
    const property = reader.property(at, segment);
    if (!property) return false;
    at = property.at;
  }
  return reader.nullable(at);
}

/** Names a record's own id goes by; `key` counts only where the record has none of the others. */
export const IDENTITY_NAMES = ["id", "gid", "uuid", "sid"] as const;

/** The property holding a record's own identity (`id`, `gid`, `uuid`, else `key`), if it declares one. */
export function identityOf(reader: SchemaReader, record: SchemaAt): string | undefined {
  const names = reader.properties(record).map((p) => p.name);
  return IDENTITY_NAMES.find((n) => names.includes(n)) ?? (names.includes("key") ? "key" : undefined);
}

/** A record with an id of its own; a union of records (a customer or its deleted stub) is one, with the union's fields. */
const hasIdentity = (reader: SchemaReader, at: SchemaAt) => reader.objectLike(at) && identityOf(reader, at) !== undefined;

/** Whether a path's last segment is a parameter (`/customers/{customer}`, `/Messages/{Sid}.json`, `/pokemon/{id}/`): it fetches one record. */
export const namesOneRecord = (path: string): boolean => /\{[^}/]+\}[^/{}]*\/?$/.test(path);

/** Members of a response envelope that say something about the call, never a record. */
const ENVELOPE_MEMBERS = new Set(["links", "_links", "meta", "pagination", "included", "errors", "warnings", "jsonapi"]);

/**
 * Envelope members a result leaves out without saying so: links the model cannot open, the records
 * resolvers read names from, errors and the JSON:API version. `meta`, `pagination` and `warnings`
 * may say what the model would want (a count, a deprecation), so they are named where unread.
 */
const UNSAID_MEMBERS = new Set(["links", "_links", "included", "errors", "jsonapi"]);

/**
 * The one record a response envelope wraps (`{ ticket: {...} }`, `{ data: {...}, links: {...} }`):
 * its only object property besides links and meta. A body with an id of its own is never an envelope.
 */
export function wrappedRecord(reader: SchemaReader, body: SchemaAt): { name: string; at: SchemaAt } | undefined {
  if (hasIdentity(reader, body)) return undefined;
  const objects = reader.properties(body).filter((p) => !ENVELOPE_MEMBERS.has(p.name) && isWrappable(reader, p.at));
  return objects.length === 1 ? { name: objects[0]!.name, at: objects[0]!.at } : undefined;
}

/** An object, or the records a union with an error allows there (`oneOf: [Thing, Gadget, Problem]`): what an envelope may wrap. */
function isWrappable(reader: SchemaReader, at: SchemaAt): boolean {
  const records = withoutErrorBranches(reader, at)?.recordBody;
  return records ? reader.objectLike(records) : reader.kind(at) === "object";
}

/** Every JSON:API type the spec's component schemas declare, with the best schema for each. */
export function jsonApiTypes(reader: SchemaReader): Map<string, SchemaAt> {
  const found = new Map<string, SchemaAt>();
  const schemas = child({ schema: reader.document, pointer: "" }, "components", "schemas");
  if (!schemas) return found;
  const score = (s: SchemaAt) => (reader.property(s, "id") ? 2 : 0) + (reader.property(s, "attributes") ? 1 : 0);
  for (const name of Object.keys(schemas.schema).sort()) {
    const at = child(schemas, name);
    if (!at) continue;
    const type = jsonApiType(reader, at);
    if (type === undefined || type === null) continue;
    const current = found.get(type);
    if (!current || score(at) > score(current)) found.set(type, at);
  }
  return found;
}

/** The keys a plain body holds an error under beside its records. */
const ERROR_KEYS = ["error", "errors"];

/**
 * Of `error` and `errors`, those a success body's schema declares, or may hold as data being open
 * to any key: the run time reads them as the API's data, and any other holding something as the
 * sign of an error document. A JSON:API body declares none: its errors are never data.
 */
export function declaredErrorKeys(reader: SchemaReader, body: SchemaAt, jsonapi: boolean): string[] {
  if (jsonapi) return [];
  if (openToAnyKey(reader, body)) return [...ERROR_KEYS];
  return ERROR_KEYS.filter((name) => reader.property(body, name) !== undefined);
}

/**
 * A body schema open to keys it does not name (`additionalProperties` true or a schema), itself or
 * through `allOf`: an `error` or `errors` in such a body may be its data, as a declared one is.
 */
function openToAnyKey(reader: SchemaReader, at: SchemaAt, seen = new Set<string>()): boolean {
  const resolved = reader.deref(at);
  if (seen.has(resolved.pointer)) return false;
  seen.add(resolved.pointer);
  const additional = resolved.schema["additionalProperties"];
  if (additional === true || (typeof additional === "object" && additional !== null)) return true;
  return members(resolved, "allOf").some((branch) => openToAnyKey(reader, branch, seen));
}
