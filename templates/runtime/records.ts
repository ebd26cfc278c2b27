// A record and its parts: the record object, JSON:API sections, nested objects, lifted parts.

import {
  passIssuesOn,
  type Context,
  type FieldRead,
  type ProjectOptions,
  type ValueRead,
} from "./context.js";
import { absent, issueValue, report, unusable } from "./issues.js";
import { asObject, read, type Json } from "./json.js";
import { hold, placesSoFar } from "./labels-later.js";
import type { Unusable } from "./markers.js";
import { apiMessage, printable, typeName } from "./quoting.js";

/** Where a tool's records sit in its response, as the spec declares them. */
export interface RecordsPlace {
  readonly tool: string;
  /** The resource the records are, as a message names them. */
  readonly resource: string;
  /** The keys from the body to the record, or to the list of records. */
  readonly path: readonly string[];
  /** The spec lets that place, or an object on the way to it, be `null`: then there is no record. */
  readonly nullable: boolean;
  /**
   * The keys the spec declares for a record, of which an object must hold one to be it: for one
   * record, one not null; for a list's item, one at all (a row whose every value is null is the API's).
   */
  readonly keys?: readonly string[];
  /** The JSON:API type each record must carry: a record of another type is not this tool's. */
  readonly type?: string;
  /** Of `error` and `errors`, those the spec declares beside a plain body's records: its data, not an error. */
  readonly declaredErrorKeys?: readonly string[];
  /**
   * The members of an error the spec's union allows beside the records (`oneOf: [Thing, Problem]`,
   * or a list's `items: { anyOf: [Thing, Problem] }`) that neither a record nor the body around it
   * has: a body or an item holding something under one is that error.
   */
  readonly errorKeys?: readonly string[];
}

/**
 * A 2xx body that is not what the spec declares (no record where one belongs, something else where
 * a list belongs, or an error document): there is no result, and a tool call answers `{ error }`.
 */
export class ResponseShapeError extends Error {
  readonly tool: string;
  /** What the body is, as the words after "its body": `is not one ticket record at data (data is null)`. */
  readonly problem: string;
  constructor(tool: string, problem: string) {
    super(`${tool}: the response body ${problem}`);
    this.name = "ResponseShapeError";
    this.tool = tool;
    this.problem = problem;
  }
}

/**
 * The most records a list response may hold. Every row costs a result at least one character, so a
 * page with more could never fit `MAX_RESULT_TEXT`: it is refused before any row is projected.
 */
export const MAX_ROWS = 100_000;

/** What stands at a path of the body, or the first thing on the way that is not an object, and where. */
interface Reached {
  readonly where: string;
  readonly value: unknown;
  /** The path was followed to its end: `value` is what stands there. */
  readonly atEnd: boolean;
}

function reached(body: unknown, path: readonly string[]): Reached {
  let value = body;
  for (let i = 0; i < path.length; i++) {
    const object = asObject(value);
    if (!object)
      return {
        where: path.slice(0, i).join(".") || "the body",
        value,
        atEnd: false,
      };
    value = read(object, path[i]!);
  }
  return { where: path.join(".") || "the body", value, atEnd: true };
}

/**
 * The one record of a response: the object at `place.path` holding one of `place.keys`; `null`
 * where the spec lets the place be null and it is. Anything else is reported through `onIssue` and
 * thrown as a {@link ResponseShapeError}, never projected as a record with every field null.
 */
export function recordAt(
  body: unknown,
  place: RecordsPlace,
  onIssue: ProjectOptions["onIssue"],
): Json | null {
  if (errorBesideRecords(body, place) || declaredError(body, place))
    throw refused(body, place, "", "", body, onIssue);
  const found = reached(body, place.path);
  const record = found.atEnd ? asObject(found.value) : undefined;
  const keyed =
    record !== undefined &&
    (!place.keys?.length ||
      place.keys.some((key) => read(record, key) != null));
  const otherType = keyed ? typeProblem(record, place) : undefined;
  // Where the record is wrapped (`data`), the error the spec allows there instead.
  const error =
    record !== undefined && record !== body && declaredError(record, place);
  if (keyed && !otherType && !error) return record;
  if (found.value === null && place.nullable) return null;
  const got = !record
    ? gotAt(found)
    : error
      ? `${found.where} is an error${problemWords(record)}`
      : otherType
        ? `${found.where} is ${otherType}`
        : `${found.where} is ${noneOfTheKeys(place)}`;
  throw refused(
    body,
    place,
    `one ${place.resource} record`,
    got,
    found.value,
    onIssue,
  );
}

/**
 * The records of a list response: the array at `place.path`; none where the spec lets the place be
 * null and it is. Anything else is reported through `onIssue` and thrown as a
 * {@link ResponseShapeError}, never projected as an empty list.
 */
export function listAt(
  body: unknown,
  place: RecordsPlace,
  onIssue: ProjectOptions["onIssue"],
): unknown[] {
  if (errorBesideRecords(body, place) || declaredError(body, place))
    throw refused(body, place, "", "", body, onIssue);
  const found = reached(body, place.path);
  const declared = `a list of ${place.resource} records`;
  if (found.atEnd && Array.isArray(found.value)) {
    const list = found.value;
    if (list.length > MAX_ROWS)
      throw refused(
        body,
        place,
        declared,
        `${list.length} items, more than the ${MAX_ROWS} a page may have`,
        list,
        onIssue,
      );
    // One item that is no record of this tool's makes the page no list of them: never a row of nulls.
    for (let i = 0; i < list.length; i++) {
      const record = asObject(list[i]);
      const notRecord = !record
        ? `${kindOf(list[i])}, not a record`
        : (typeProblem(record, place) ??
          (declaredError(record, place)
            ? `an error${problemWords(record)}`
            : holdsAKey(record, place)
              ? undefined
              : noneOfTheKeys(place)));
      if (notRecord)
        throw refused(
          body,
          place,
          declared,
          `item ${i} is ${notRecord}`,
          list[i],
          onIssue,
        );
    }
    return list;
  }
  if (found.value === null && place.nullable) return [];
  throw refused(body, place, declared, gotAt(found), found.value, onIssue);
}

/** Whether a list's item holds any key the spec declares for its record, null or not. */
const holdsAKey = (record: Json, place: RecordsPlace): boolean =>
  !holdsNoneOf(record, place.keys);

function noneOfTheKeys(place: RecordsPlace): string {
  return `an object with none of the keys a ${place.resource} has`;
}

/**
 * What a record is when it does not say it is of this tool's JSON:API type, or undefined. The type
 * it says is not quoted: it is API text no rule keeps. JSON:API names a record by type and id, so a
 * record with no text type is no more this tool's than one of another type.
 */
function typeProblem(record: Json, place: RecordsPlace): string | undefined {
  if (place.type === undefined) return undefined;
  const type = read(record, "type");
  if (type !== place.type)
    return typeof type === "string"
      ? `a record of another type, not ${place.type}`
      : `a record without a text type, not ${place.type}`;
  return (
    unreadableSection(record, "attributes") ??
    unreadableSection(record, "relationships")
  );
}

/**
 * What a JSON:API record is when its `attributes` or `relationships` is there but no object
 * (`"attributes": ["subject"]`), or undefined: nothing of the record could be read from it, and
 * showing its fields as the API's nulls would say the API sent none. A null section stays a section
 * with nothing in it, reported as the record is projected.
 */
function unreadableSection(
  record: Json,
  key: "attributes" | "relationships",
): string | undefined {
  const value = read(record, key);
  return value === undefined || value === null || asObject(value) !== undefined
    ? undefined
    : `a record whose ${key} is ${kindOf(value)}, not an object`;
}

/** What stands where the records belong, by its JSON type alone: the body's text is not quoted. */
function gotAt(found: Reached): string {
  const { where, value } = found;
  return value === undefined
    ? `${where} is missing`
    : `${where} is ${kindOf(value)}`;
}

/** A value by its JSON type alone, as an error says it: `null`, `a list`, `an object`, `a number`. */
function kindOf(value: unknown): string {
  const type = typeName(value);
  return type === "null"
    ? "null"
    : type === "array"
      ? "a list"
      : type === "object"
        ? "an object"
        : `a ${type}`;
}

/** The error for a body that is not what the spec declares, told to `onIssue` first. */
function refused(
  body: unknown,
  place: RecordsPlace,
  declared: string,
  got: string,
  value: unknown,
  onIssue: ProjectOptions["onIssue"],
): ResponseShapeError {
  const at = place.path.length ? ` at ${place.path.join(".")}` : "";
  const problem =
    errorsDocument(body) || errorBesideRecords(body, place)
      ? `is an error document${errorWords(body, place)}`
      : declaredError(body, place)
        ? `is an error document${problemWords(body)}`
        : `is not ${declared}${at} (${got})`;
  const error = new ResponseShapeError(place.tool, problem);
  passIssuesOn(onIssue, [
    {
      kind: "unusable",
      resource: place.tool,
      field: place.path.join("."),
      value: issueValue(value),
      message: printable(error.message),
    },
  ]);
  return error;
}

/** A body that is one of the errors the spec's union allows: something under a member only that error has. */
function declaredError(body: unknown, place: RecordsPlace): boolean {
  const object = asObject(body);
  return (
    object !== undefined &&
    (place.errorKeys ?? []).some((key) => holdsSomething(read(object, key)))
  );
}

/** A JSON:API errors document: an `errors` list and no `data`, whatever its status. */
function errorsDocument(body: unknown): boolean {
  const object = asObject(body);
  return (
    object !== undefined &&
    Array.isArray(read(object, "errors")) &&
    !Object.hasOwn(object, "data")
  );
}

/** What tells an error document holding records from the records' own data. */
export type ErrorSigns = Pick<
  RecordsPlace,
  "path" | "type" | "declaredErrorKeys"
> & {
  /** JSON:API records, whether or not the spec fixes their type. */
  readonly jsonapi?: boolean;
};

/**
 * A body that is an error document as well as holding records, answered as the error it is, never
 * shown as a result (an empty page, say): a JSON:API document holding `data` and an `errors` or a
 * non-empty `error` (JSON:API says `data` and `errors` must not coexist, and has no `error`), or a
 * plain body holding, beside its records or as the record itself, an `error` or `errors` with
 * something in it that its spec does not declare. One the spec declares is the API's own data.
 */
export function errorBesideRecords(body: unknown, place: ErrorSigns): boolean {
  if (place.jsonapi || place.type !== undefined) return dataAndErrors(body);
  return undeclaredErrorKey(body, place) !== undefined;
}

/**
 * Whether a response says by its Content-Type that its body is a problem document (RFC 9457's
 * `application/problem+json`): an error, whatever its status and whatever its body holds.
 */
export function problemDocument(response: unknown): boolean {
  const headers = asObject(asObject(response)?.["headers"]);
  const get = headers?.["get"];
  if (typeof get !== "function") return false;
  const type: unknown = get.call(headers, "content-type");
  return (
    typeof type === "string" &&
    type.split(";")[0]!.trim().toLowerCase() === "application/problem+json"
  );
}

/** What a body holds under the `error` or `errors` that makes it an error document. */
function errorValue(body: unknown, place: ErrorSigns): unknown {
  const object = asObject(body);
  return object === undefined
    ? undefined
    : read(object, undeclaredErrorKey(object, place) ?? "errors");
}

/** The first of `error` and `errors` a plain body holds something under that its spec does not declare. */
function undeclaredErrorKey(
  body: unknown,
  place: ErrorSigns,
): string | undefined {
  const object = asObject(body);
  return object === undefined
    ? undefined
    : ERROR_KEYS.find(
        (key) =>
          !place.declaredErrorKeys?.includes(key) &&
          holdsSomething(read(object, key)),
      );
}

/** The keys a plain body holds an error under. */
const ERROR_KEYS = ["error", "errors"];

/**
 * Whether an `error` or `errors` tells of an error: not absent, null, false, 0 (a count of none),
 * empty text or text saying one of those (`"0"`, `"false"`, `"none"`), an empty list or object.
 */
function holdsSomething(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0)
    return false;
  if (typeof value === "string") return !NOTHING_WRITTEN.test(value);
  if (Array.isArray(value)) return value.length > 0;
  const object = asObject(value);
  return object === undefined || Object.keys(object).length > 0;
}

/** Text that says there is no error. */
const NOTHING_WRITTEN = /^\s*(?:0+|false|null|none)?\s*$/i;

/** Whether a body holds `data` and `errors`, or `data` and an `error` with something in it: for a JSON:API document, an error document. */
function dataAndErrors(body: unknown): boolean {
  const object = asObject(body);
  return (
    object !== undefined &&
    Object.hasOwn(object, "data") &&
    (Object.hasOwn(object, "errors") || holdsSomething(read(object, "error")))
  );
}

/**
 * The API's words for an error document, as a message ends with them: `: words`, or ` with no
 * message`. Where the body is the record itself they come from its `error` or `errors` alone (its
 * text, or the words of it or its first item): the record's own `title` or `message` beside them
 * are its data, not the error's words.
 */
export function errorWords(body: unknown, place: ErrorSigns): string {
  return endingWith(
    apiMessage(place.path.length > 0 ? body : errorValue(body, place)),
  );
}

/** A problem document's words, its `detail` or `title` as {@link apiMessage} finds them, as a message ends with them. */
export function problemWords(body: unknown): string {
  return endingWith(apiMessage(body));
}

function endingWith(words: string | undefined): string {
  return words === undefined ? " with no message" : `: ${words}`;
}

/** The record as an object, or undefined with a report when it is something else. */
export function recordObject(record: unknown, ctx: Context): Json | undefined {
  const found = asObject(record);
  if (found === undefined) notARecord(record, ctx);
  return found;
}

/** A JSON:API section (`attributes`, `relationships`), or undefined with a report when it is not an object. */
export function section(
  value: unknown,
  key: "attributes" | "relationships",
  ctx: Context,
): Json | undefined {
  // The caller reads the key: one keyed read here, seeing both names, would go megamorphic.
  const object = asObject(value);
  // JSON:API says a section present is an object: null is no more an empty one than a list is.
  if (object === undefined && value !== undefined) notASection(value, key, ctx);
  return object;
}

// The reports kept apart so that the two readers above are small enough to inline.

function notARecord(record: unknown, ctx: Context): void {
  report(
    ctx,
    "unusable",
    "",
    record,
    `${ctx.resource}: the record is ${typeName(record)}, not an object`,
  );
}

function notASection(value: unknown, key: string, ctx: Context): void {
  report(
    ctx,
    "unusable",
    key,
    value,
    `${ctx.resource}.${key}: expected an object, got ${typeName(value)}`,
  );
}

/** An object whose parts are classified one by one. */
export function nested<T>(
  value: unknown,
  { ctx, field, required, keys }: ObjectRead,
  build: (object: Json) => T,
): T | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  const object = asObject(value);
  if (!object)
    return unusable(
      ctx,
      field,
      value,
      `expected an object, got ${typeName(value)}`,
    );
  if (holdsNoneOf(object, keys))
    return unusable(ctx, field, value, NONE_OF_ITS_KEYS);
  // Any label its parts wait for is filled into this object once the resolvers answer.
  const from = placesSoFar();
  return hold(build(object), from);
}

/** What a reader of an object's parts is told besides the field: the keys the spec declares for the object. */
export interface ObjectRead extends ValueRead {
  readonly keys?: readonly string[];
}

/**
 * Whether an object holds none of the keys the spec declares for it (an error object, `{}`): its
 * parts would read as the API's own nulls.
 */
const holdsNoneOf = (object: Json, keys: readonly string[] | undefined) =>
  keys !== undefined &&
  keys.length > 0 &&
  !keys.some((key) => Object.hasOwn(object, key));

const NONE_OF_ITS_KEYS =
  "expected an object holding one of the keys the spec declares for it, got one holding none of them";

/**
 * How many more items the lists inside the records of the result being projected may hold: the
 * objects of lists of objects, the items of lists kept whole, and the items and members of a value
 * kept whole with no declared type; no bound outside a tool's projection. Each costs the result's
 * text at least one character, so together they can never show more than {@link MAX_ROWS} either,
 * and past that each list is marked before its items are read.
 */
let itemsLeft: number | undefined;

/** Runs a tool result's projection with its records' lists holding at most {@link MAX_ROWS} items together. */
export function withinItemBudget<T>(project: () => T): T {
  const outer = itemsLeft;
  itemsLeft = MAX_ROWS;
  try {
    return project();
  } finally {
    itemsLeft = outer;
  }
}

/** Takes `count` items from the result's budget: false, and the budget spent, when fewer are left. */
function takeItems(count: number): boolean {
  if (itemsLeft === undefined) return true;
  if (count > itemsLeft) {
    itemsLeft = 0;
    return false;
  }
  itemsLeft -= count;
  return true;
}

const PAST_ITEM_BUDGET = `the lists of this result hold more than the ${MAX_ROWS} items a result could show`;

/**
 * Why a list of `count` objects or items, or an object of `count` members the data decides (a
 * map's, an untyped value's), cannot be read, or undefined, having taken its parts from the
 * result's budget: past {@link MAX_ROWS} it is unusable even on its own.
 */
export function partsProblem(
  count: number,
  parts: "objects" | "items" | "members",
): string | undefined {
  if (count > MAX_ROWS)
    return `${parts === "members" ? "an object" : "a list"} of ${count} ${parts}, more than the ${MAX_ROWS} a result could show`;
  return takeItems(count) ? undefined : PAST_ITEM_BUDGET;
}

/**
 * An array of objects whose parts are classified one by one: each item projected alike; an item
 * that is `null` stays `null`, anything else that is not an object is marked.
 */
export function objects<T>(
  value: unknown,
  { ctx, field, required, keys }: ObjectRead,
  build: (object: Json) => T,
): (T | null | Unusable)[] | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  if (!Array.isArray(value))
    return unusable(
      ctx,
      field,
      value,
      `expected a list of objects, got ${typeName(value)}`,
    );
  const tooMany = partsProblem(value.length, "objects");
  if (tooMany !== undefined) return unusable(ctx, field, value, tooMany);
  return value.map((item: unknown, i) => {
    if (item === null) return null;
    const object = asObject(item);
    if (!object)
      return unusable(
        ctx,
        `${field}[${i}]`,
        item,
        `expected an object, got ${typeName(item)}`,
      );
    if (holdsNoneOf(object, keys))
      return unusable(ctx, `${field}[${i}]`, item, NONE_OF_ITS_KEYS);
    const from = placesSoFar();
    return hold(build(object), from);
  });
}

/**
 * A part lifted to the top of the result (`source.author.name` as `author`). Where an object on
 * the way is absent or null, so is the part; where one is something else, the part is marked.
 */
export function lifted<T>(
  root: Json | undefined,
  { path, ctx, field }: FieldRead & { readonly path: readonly string[] },
  project: (value: unknown) => T,
): T | null | Unusable {
  let object = root;
  for (let i = 0; i < path.length - 1; i++) {
    const value = read(object, path[i]!);
    if (value === undefined || value === null) return null;
    object = asObject(value);
    if (!object)
      return unusable(
        ctx,
        field,
        value,
        `${path.slice(0, i + 1).join(".")} is ${typeName(value)}, not an object`,
      );
  }
  return project(read(object, path[path.length - 1]!));
}
