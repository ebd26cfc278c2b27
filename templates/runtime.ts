// The fixed run-time pieces every generated projector uses. Copied verbatim into the output folder,
// so the generated code needs no runtime package.

/** A join id the resolver gave no label for. Keeps the (shortened) id, so it is never mistaken for a name or for null. */
export interface Unresolved {
  readonly unresolved: string;
}

/** A coded value with no word in its legend. Keeps the raw code rather than guessing a word. */
export interface UnknownCode {
  readonly unknown_code: string | number;
}

/** A value that does not match the spec (a wrong type, an unreadable date); says why. */
export interface Unusable {
  readonly unusable: string;
}

export interface ProjectionIssue {
  readonly kind: "unresolved" | "unknown_code" | "unusable" | "missing";
  readonly resource: string;
  /** The field as the annotation names it. */
  readonly field: string;
  /**
   * The offending value only, bounded: a number, boolean, null or undefined as it was, a string cut
   * to {@link ISSUE_VALUE_CHARACTERS} characters, and in place of an object or array its JSON type
   * (`"object"`, `"array"`), so that no record, and nothing the annotation drops, rides along.
   */
  readonly value: unknown;
  readonly resolver?: string;
  readonly message: string;
}

export interface RecordOptions {
  /** Called for every marker written and every promised value that is missing. */
  readonly onIssue?: ((issue: ProjectionIssue) => void) | undefined;
  /**
   * The short form to give each id, where it is not the plain {@link shortId}: a Map from
   * {@link shortenIds}, or a function. The tools pass one so that no two ids of a result collide.
   */
  readonly shortIds?: ShortIds | undefined;
}

/** A Map's ids missing from it get the plain {@link shortId}. */
export type ShortIds = ReadonlyMap<string, string> | ((id: string) => string);

export interface ProjectOptions {
  readonly onIssue?: (issue: ProjectionIssue) => void;
  /** Aborting it fails the call with a {@link ResolverError} naming a resolver still unanswered. */
  readonly signal?: AbortSignal;
  /**
   * How long the call waits for its resolvers, in milliseconds, before failing with a
   * {@link ResolverError}; {@link DEFAULT_RESOLVER_TIMEOUT_MS} when not given, `Infinity` to wait for ever.
   */
  readonly timeoutMs?: number;
  /** Counts the tokens of a serialized result, for tools with a token budget; defaults to {@link conservativeTokenCount}. */
  readonly countTokens?: (text: string) => number;
}

/** `false`, or how many whole records a budget let through out of how many the response had. */
export type Truncated = false | { readonly shown: number; readonly total: number };

/**
 * Half the UTF-8 byte length: an over-estimate for JSON under o200k_base and cl100k_base, which
 * run near one token per 2.5 to 4 bytes, so a result that fits by this count fits by theirs.
 * Pass a real tokenizer's count as `countTokens` to use the budget fully.
 */
export function conservativeTokenCount(text: string): number {
  return Math.ceil(new TextEncoder().encode(text).length / 2);
}

/**
 * Keeps the most whole records that fit the token budget, and says so when it had to cut. `total`
 * is how many records the response had, when a row budget already took some off before projecting.
 */
export function fitBudget<R, T>(
  records: readonly R[],
  build: (records: R[], truncated: Truncated) => T,
  tokens: number | undefined,
  countTokens: (text: string) => number = conservativeTokenCount,
  total: number = records.length,
): T {
  const attempt = (n: number) => build(records.slice(0, n), n < total ? { shown: n, total } : false);
  const fits = (n: number) => tokens === undefined || countTokens(serializeToolResult(attempt(n))) <= tokens;
  let high = records.length;
  if (fits(high)) return attempt(high);
  let low = 0;
  while (low < high - 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return attempt(low);
}

/** Labels by id (or by code, for a legend looked up at run time). An `Error` marks that one id as failed. */
export type Labels = ReadonlyMap<string, string | Error>;

/** Called at most once per tool call, with the distinct ids still unnamed; never with an empty list. */
export type Resolver = (ids: readonly string[]) => Promise<Labels> | Labels;

/**
 * A resolver rejected, returned something other than a Map, did not answer within the call's
 * timeout, or the call was aborted; the whole tool call fails with it.
 */
export class ResolverError extends Error {
  readonly resolver: string;
  constructor(resolver: string, cause: unknown) {
    super(`resolver "${resolver}" failed: ${messageOf(cause)}`, { cause });
    this.name = "ResolverError";
    this.resolver = resolver;
  }
}

/** How long a tool call waits for its resolvers by default: 30 seconds. */
export const DEFAULT_RESOLVER_TIMEOUT_MS = 30_000;

/** The most characters of a string an issue's `value` keeps, and of a resolver's error message a message quotes. */
export const ISSUE_VALUE_CHARACTERS = 200;

/** The most characters of a string a marker or an issue's message quotes. */
const QUOTED_CHARACTERS = 40;

/** The longest string taken for a code: a longer one is no code, and is not copied into a marker. */
const CODE_CHARACTERS = 64;

function clipped(text: string, most: number): string {
  return text.length <= most ? text : `${text.slice(0, most)}… (${text.length} characters)`;
}

/**
 * What was thrown, as text, whatever it is: an object without a prototype, or an Error whose
 * `message` getter throws, must not turn a resolver's failure into a TypeError.
 */
function messageOf(thrown: unknown): string {
  try {
    const message: unknown = thrown instanceof Error ? thrown.message : thrown;
    if (typeof message === "string") return clipped(message, ISSUE_VALUE_CHARACTERS);
    if (typeof message === "object" && message !== null) return `a thrown ${typeName(message)}`;
    return clipped(String(message), ISSUE_VALUE_CHARACTERS);
  } catch {
    return "an error that cannot be read";
  }
}

/** JSON Schemas of the markers, the `$defs` every tool's output schema refers to. */
export const MARKER_SCHEMAS = {
  unresolved: {
    type: "object",
    description: "An id the lookup could not name; the short id is kept.",
    properties: { unresolved: { type: "string" } },
    required: ["unresolved"],
    additionalProperties: false,
  },
  unknown_code: {
    type: "object",
    description: "A code with no word in its legend; the raw code is kept.",
    properties: { unknown_code: { type: ["string", "number"] } },
    required: ["unknown_code"],
    additionalProperties: false,
  },
  unusable: {
    type: "object",
    description: "A value that did not match the API's schema; says why.",
    properties: { unusable: { type: "string" } },
    required: ["unusable"],
    additionalProperties: false,
  },
} as const;

/**
 * The text a tool sends the model: use it for the tool_result block and MCP text content alike.
 * Compact JSON, or a table for a tool annotated `text: table`: known from the result when it came
 * straight from the tool's projector, or from `tool` when the result was copied on the way.
 */
export function serializeToolResult(result: unknown, tool?: string): string {
  const layout =
    (typeof result === "object" && result !== null ? MARKED_LAYOUTS.get(result) : undefined) ??
    (tool === undefined ? undefined : TABLE_LAYOUTS.get(tool));
  return (layout && tableText(result, layout)) ?? JSON.stringify(result);
}

export interface Context {
  readonly resource: string;
  readonly onIssue: ((issue: ProjectionIssue) => void) | undefined;
  readonly shortIds: ShortIds | undefined;
}

export function context(resource: string, options: RecordOptions): Context {
  return { resource, onIssue: options.onIssue, shortIds: options.shortIds };
}

/** The options a tool passes to each record's projection, made in this one place so that they share one layout. */
function recordOptions(onIssue: RecordOptions["onIssue"], shortIds: ShortIds | undefined): RecordOptions {
  return { onIssue, shortIds };
}

/**
 * V8 forgets an object layout in a full GC once no object has it, and throws away the optimized
 * code that checks for it, so the first page after every full GC ran unoptimized (13 to 21 ms
 * instead of 10 to 11 for 10,000 records). The objects made per call and read per record (the
 * options, each record's context, the lookups) keep their layouts through one object of each.
 */
const KEPT_LAYOUTS = new Map<string, object>([
  ["options", recordOptions(undefined, undefined)],
  ["context", context("", {})],
]);

type Json = Record<string, unknown>;

function report(ctx: Context, kind: ProjectionIssue["kind"], field: string, value: unknown, message: string, resolver?: string): void {
  if (!ctx.onIssue) return;
  const shown = issueValue(value);
  ctx.onIssue(
    resolver === undefined
      ? { kind, resource: ctx.resource, field, value: shown, message }
      : { kind, resource: ctx.resource, field, value: shown, message, resolver },
  );
}

/** An issue's `value`, as {@link ProjectionIssue.value} describes it. */
function issueValue(value: unknown): unknown {
  if (typeof value === "string") return clipped(value, ISSUE_VALUE_CHARACTERS);
  return typeof value === "object" && value !== null
    ? typeName(value)
    : typeof value === "function" || typeof value === "symbol"
      ? typeof value
      : value;
}

/** The JSON type of a value, or for a number JSON cannot write, that number (`Infinity`, `NaN`). */
function typeName(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/**
 * A value as a marker or message may name it: a primitive as JSON writes it, a string cut to
 * {@link QUOTED_CHARACTERS} characters; an object or array by its type alone, never its content.
 */
function described(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.slice(0, QUOTED_CHARACTERS)) + (value.length > QUOTED_CHARACTERS ? `… (${value.length} characters)` : "");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeName(value);
}

function unusable(ctx: Context, field: string, value: unknown, reason: string): Unusable {
  report(ctx, "unusable", field, value, `${ctx.resource}.${field}: ${reason}`);
  return { unusable: reason };
}

/** Absent and null both project to null; the schema's promise of a value is reported when broken. */
function absent(ctx: Context, field: string, value: unknown, required: boolean): null {
  if (required)
    report(
      ctx,
      "missing",
      field,
      value,
      `${ctx.resource}.${field}: the spec promises a value, the record has ${value === null ? "null" : "none"}`,
    );
  return null;
}

export function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The record as an object, or undefined with a report when it is something else. */
export function recordObject(record: unknown, ctx: Context): Json | undefined {
  const found = asObject(record);
  if (!found) report(ctx, "unusable", "", record, `${ctx.resource}: the record is ${typeName(record)}, not an object`);
  return found;
}

/** A JSON:API section (`attributes`, `relationships`), or undefined with a report when it is not an object. */
export function section(value: unknown, key: "attributes" | "relationships", ctx: Context): Json | undefined {
  // The caller reads the key: one keyed read here, seeing both names, would go megamorphic.
  const object = asObject(value);
  if (!object && value !== undefined && value !== null)
    report(ctx, "unusable", key, value, `${ctx.resource}.${key}: expected an object, got ${typeName(value)}`);
  return object;
}

/** An object whose parts are classified one by one. */
export function nested<T>(value: unknown, ctx: Context, field: string, required: boolean, build: (object: Json) => T): T | null | Unusable {
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  const object = asObject(value);
  return object ? build(object) : unusable(ctx, field, value, `expected an object, got ${typeName(value)}`);
}

/**
 * An array of objects whose parts are classified one by one: each item projected alike; an item
 * that is `null` stays `null`, anything else that is not an object is marked.
 */
export function objects<T>(
  value: unknown,
  ctx: Context,
  field: string,
  required: boolean,
  build: (object: Json) => T,
): (T | null | Unusable)[] | null | Unusable {
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  if (!Array.isArray(value)) return unusable(ctx, field, value, `expected a list of objects, got ${typeName(value)}`);
  return value.map((item: unknown, i) => {
    if (item === null) return null;
    const object = asObject(item);
    return object ? build(object) : unusable(ctx, `${field}[${i}]`, item, `expected an object, got ${typeName(item)}`);
  });
}

/** The object items of a list, for collecting the ids its parts need. */
export function objectsIn(value: unknown): Json[] {
  if (!Array.isArray(value)) return [];
  const found: Json[] = [];
  for (const item of value as unknown[]) {
    const object = asObject(item);
    if (object) found.push(object);
  }
  return found;
}

/**
 * A part lifted to the top of the result (`source.author.name` as `author`). Where an object on
 * the way is absent or null, so is the part; where one is something else, the part is marked.
 */
export function lifted<T>(
  root: Json | undefined,
  path: readonly string[],
  ctx: Context,
  field: string,
  project: (value: unknown) => T,
): T | null | Unusable {
  let object = root;
  for (let i = 0; i < path.length - 1; i++) {
    const value = read(object, path[i]!);
    if (value === undefined || value === null) return null;
    object = asObject(value);
    if (!object) return unusable(ctx, field, value, `${path.slice(0, i + 1).join(".")} is ${typeName(value)}, not an object`);
  }
  return project(read(object, path[path.length - 1]!));
}

/** True when a page field (a `links.next`) is there and not null or empty. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

export function read(object: Json | undefined, key: string): unknown {
  return object === undefined || !Object.hasOwn(object, key) ? undefined : object[key];
}

export function string(value: unknown, ctx: Context, field: string, required: boolean): string | null | Unusable {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  return unusable(ctx, field, value, `expected a string, got ${typeName(value)}`);
}

export function number(value: unknown, ctx: Context, field: string, required: boolean, integer: boolean): number | null | Unusable {
  if (typeof value === "number" && Number.isFinite(value) && (!integer || Number.isInteger(value))) return value;
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  return unusable(ctx, field, value, `expected ${integer ? "an integer" : "a number"}, got ${typeName(value)}`);
}

export function boolean(value: unknown, ctx: Context, field: string, required: boolean): boolean | null | Unusable {
  if (typeof value === "boolean") return value;
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  return unusable(ctx, field, value, `expected true or false, got ${typeName(value)}`);
}

/**
 * What the spec declares a value kept whole to be, as the result schema states it: a type or an
 * enum (`{}` takes anything), each nullable property as `{ anyOf: [schema, { type: "null" }] }`.
 */
export interface ValueSchema {
  readonly type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  readonly enum?: readonly unknown[];
  readonly items?: ValueSchema;
  readonly properties?: { readonly [name: string]: ValueSchema | { readonly anyOf: readonly [ValueSchema, unknown] } };
}

const NOT_CONFORMING = Symbol("not conforming");

/**
 * The value as its schema declares it: objects keep only their declared properties (so a key the
 * spec does not declare never rides along inside a kept object), arrays and scalars are checked
 * all the way down. Returns the reason instead when the value does not fit.
 */
function conform(value: unknown, schema: ValueSchema, path: string): unknown {
  const fail = (expected: string) => ({ [NOT_CONFORMING]: `${path ? `${path}: ` : ""}expected ${expected}, got ${typeName(value)}` });
  if (schema.enum) return schema.enum.includes(value) ? value : fail(`one of ${JSON.stringify(schema.enum)}`);
  switch (schema.type) {
    case "string":
    case "boolean":
      return typeof value === schema.type ? value : fail(`a ${schema.type}`);
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? value : fail("a number");
    case "integer":
      return Number.isInteger(value) ? value : fail("an integer");
    case "array": {
      if (!Array.isArray(value)) return fail("an array");
      const items: unknown[] = [];
      for (const [i, item] of value.entries()) {
        const kept = conform(item, schema.items ?? {}, `${path}[${i}]`);
        if (typeof kept === "object" && kept !== null && NOT_CONFORMING in kept) return kept;
        items.push(kept);
      }
      return items;
    }
    case "object": {
      const object = asObject(value);
      if (!object) return fail("an object");
      const kept: Json = {};
      for (const [name, declared] of Object.entries(schema.properties ?? {})) {
        const nullable = "anyOf" in declared;
        const inner = read(object, name);
        if (inner === undefined || (inner === null && nullable)) {
          if (inner === null) kept[name] = null;
          continue;
        }
        const result = conform(inner, nullable ? declared.anyOf[0] : declared, path ? `${path}.${name}` : name);
        if (typeof result === "object" && result !== null && NOT_CONFORMING in result) return result;
        Object.defineProperty(kept, name, { value: result, enumerable: true, writable: true, configurable: true });
      }
      return kept;
    }
    default:
      return value;
  }
}

/** A value the annotation keeps whole: checked against the spec's schema, and trimmed to it. */
export function whole<T>(value: unknown, ctx: Context, field: string, required: boolean, schema: ValueSchema): T | null | Unusable {
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  const kept = conform(value, schema, "");
  if (typeof kept === "object" && kept !== null && NOT_CONFORMING in kept)
    return unusable(ctx, field, value, (kept as Record<symbol, string>)[NOT_CONFORMING]!);
  return kept as T;
}

/** An enum kept as its own values: one outside the spec's list is marked, not passed off as valid. */
export function member<T extends string | number | boolean>(
  value: unknown,
  allowed: ReadonlySet<unknown>,
  ctx: Context,
  field: string,
  required: boolean,
): T | null | UnknownCode | Unusable {
  if (allowed.has(value)) return value as T;
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  return unknownCode(ctx, field, value);
}

/**
 * A code the legend does not know. An object or array in a coded field is no code at all, nor is a
 * number JSON cannot write (`1e400` parses to Infinity) or a string too long to be a code.
 */
function unknownCode(ctx: Context, field: string, value: unknown, resolver?: string): UnknownCode | Unusable {
  if (typeof value === "number" ? !Number.isFinite(value) : typeof value !== "string" && typeof value !== "boolean") {
    return unusable(ctx, field, value, `expected a code, got ${typeName(value)}`);
  }
  if (typeof value === "string" && value.length > CODE_CHARACTERS)
    return unusable(ctx, field, value, `expected a code, got a string of ${value.length} characters`);
  const code = typeof value === "number" ? value : String(value);
  report(ctx, "unknown_code", field, value, `${ctx.resource}.${field}: no word for code ${described(code)}`, resolver);
  return { unknown_code: code };
}

/** A coded value expanded to its word. */
export function legend<W extends string>(
  value: unknown,
  words: ReadonlyMap<unknown, W>,
  ctx: Context,
  field: string,
  required: boolean,
): W | null | UnknownCode | Unusable {
  const word = words.get(value);
  if (word !== undefined) return word;
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  return unknownCode(ctx, field, value);
}

/** A coded value whose word comes from a resolver at run time. */
export function legendLookup(
  value: unknown,
  labels: Labels,
  resolver: string,
  ctx: Context,
  field: string,
  required: boolean,
): string | null | UnknownCode | Unusable {
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  const word =
    (typeof value === "string" && value.length <= CODE_CHARACTERS) || (typeof value === "number" && Number.isFinite(value))
      ? labels.get(String(value))
      : undefined;
  return typeof word === "string" ? word : unknownCode(ctx, field, value, resolver);
}

/**
 * Unix epoch seconds below 100,000,000,000 (up to the year 5138), milliseconds from there on (any
 * time after March 1973): the two read alike for every timestamp an API sends today.
 */
const EPOCH_MILLISECONDS_FROM = 1e11;

/** Epoch digits in a string: nine or more, so that a compact date (`20260211`) is never read as seconds. */
const EPOCH_TEXT = /^-?\d{9,}(\.\d+)?$/;

function fromEpoch(value: number): Date {
  return new Date(Math.abs(value) < EPOCH_MILLISECONDS_FROM ? value * 1000 : value);
}

function toDate(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (typeof value === "number" && Number.isFinite(value)) date = fromEpoch(value);
  else if (typeof value === "string" && EPOCH_TEXT.test(value)) date = fromEpoch(Number(value));
  else if (typeof value === "string") {
    // A date-time without an offset is read as UTC, so the output never depends on the host's zone.
    const zoned = /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? `${value}T00:00:00Z`
      : /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(value)
        ? `${value}Z`
        : value;
    date = /^\d{4}-\d{2}-\d{2}/.test(zoned) ? new Date(zoned) : undefined;
    // Date rolls 2026-02-30 over to March; a calendar day that does not exist is not a date.
    if (
      date &&
      !Number.isNaN(date.getTime()) &&
      /^\d{4}-\d{2}-\d{2}T/.test(zoned) &&
      !/[+-]\d{2}:?\d{2}$/.test(zoned) &&
      date.toISOString().slice(0, 10) !== zoned.slice(0, 10)
    ) {
      date = undefined;
    }
  }
  // Outside years 0 to 9999 an ISO text is no longer YYYY-MM-DD: such a value is out of range.
  return date && !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 0 && date.getUTCFullYear() <= 9999 ? date : undefined;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number two ASCII digits at `at` write, or -1. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

/**
 * Whether the text is a real UTC date (`2026-02-11`) or date-time (`2026-02-11T09:14:22.481Z`),
 * so the text itself can be cut. Checked by hand, without a Date or a RegExp and reading each
 * character once: this is the hot path of a page.
 */
export function isUtcIso(value: string): boolean {
  const length = value.length;
  if (length !== 10 && (length < 17 || value.charCodeAt(length - 1) !== 90) /* Z */) return false;
  if (value.charCodeAt(4) !== 45 /* - */ || value.charCodeAt(7) !== 45) return false;
  const century = twoDigits(value, 0);
  const yearOfCentury = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  if (century < 0 || yearOfCentury < 0 || month < 1 || month > 12 || day < 1) return false;
  if (day > DAYS[month - 1]!) {
    const year = century * 100 + yearOfCentury;
    if (!(month === 2 && day === 29 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return false;
  }
  if (length === 10) return true;
  if (value.charCodeAt(10) !== 84 /* T */ || value.charCodeAt(13) !== 58 /* : */) return false;
  const hour = twoDigits(value, 11);
  const minute = twoDigits(value, 14);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return false;
  if (length === 17) return true;
  const second = twoDigits(value, 17);
  if (value.charCodeAt(16) !== 58 || second < 0 || second > 60) return false;
  if (length === 20) return true;
  if (value.charCodeAt(19) !== 46 /* . */ || length < 22) return false;
  for (let i = 20; i < length - 1; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
  }
  return true;
}

/** `2026-02-11`, in UTC. */
export function date(value: unknown, ctx: Context, field: string, required: boolean): string | null | Unusable {
  if (typeof value === "string" && isUtcIso(value)) return value.slice(0, 10);
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  const parsed = toDate(value);
  return parsed ? parsed.toISOString().slice(0, 10) : unusable(ctx, field, value, `not a date: ${described(value)}`);
}

/** `2026-02-14T16:02Z`: minute precision, in UTC. */
export function datetime(value: unknown, ctx: Context, field: string, required: boolean): string | null | Unusable {
  if (typeof value === "string" && value.length > 10 && isUtcIso(value)) return `${value.slice(0, 16)}Z`;
  if (value === undefined || value === null) return absent(ctx, field, value, required);
  const parsed = toDate(value);
  return parsed ? `${parsed.toISOString().slice(0, 16)}Z` : unusable(ctx, field, value, `not a date-time: ${described(value)}`);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** `tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90` to `tkt_9f3a71c4`: the prefix and the UUID's first eight digits. */
export function shortId(id: string): string {
  return shortForm(id, uuidDigits(id));
}

/** {@link shortId}, given what {@link uuidDigits} found for the id. */
function shortForm(id: string, digits: number): string {
  // Most ids are a prefix and a UUID: their shape is checked at the first dash before any regex.
  if (digits >= 0) return id.slice(0, id.indexOf("-"));
  const match = UUID.exec(id);
  return match ? id.slice(0, match.index + 8) : id;
}

/**
 * The number the eight hex digits before the first dash write, when the id is a prefix and a UUID
 * (`tkt_9f3a71c4-2d18-4b6e-...`), or -1 for an id of another shape.
 */
function uuidDigits(id: string): number {
  const dash = id.indexOf("-");
  if (
    dash < 8 ||
    id.length < dash + 28 ||
    id.charCodeAt(dash + 5) !== 45 /* - */ ||
    !isHex(id, dash + 1, dash + 5) ||
    (dash > 8 && isHex(id, dash - 9, dash - 8))
  )
    return -1;
  return eightHexDigits(id, dash - 8);
}

/** The number the eight hex digits at `from` write, or -1. */
function eightHexDigits(text: string, from: number): number {
  if (from < 0) return -1;
  let value = 0;
  for (let i = from; i < from + 8; i++) {
    const digit = hexDigit(text.charCodeAt(i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

function hexDigit(code: number): number {
  const lower = code | 0x20;
  return code >= 48 && code <= 57 ? code - 48 : lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

function isHex(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (hexDigit(text.charCodeAt(i)) < 0) return false;
  return true;
}

/**
 * Whether `short` is `id` or a short form of it that a result can give the model: `id` cut no
 * shorter than {@link shortId} cuts it. Use it when the model passes an id back to a tool, on the
 * rows that `id LIKE short || '%'` finds; a truncated or made-up prefix matches nothing.
 */
export function matchesShortId(id: string, short: string): boolean {
  return id === short || (id.startsWith(short) && short.length >= shortId(id).length);
}

/**
 * Short forms for the ids of one result that would collide, lengthened just enough to tell them
 * apart. Ids missing from the map keep their plain short form: the common case costs one pass.
 */
export function shortenIds(ids: Iterable<string>): Map<string, string> {
  const firstBy = new Map<string, string>();
  // Grouped by short form, each group a Set: a page of ids sharing one short form costs time linear in their number.
  const collisions = new Map<string, Set<string>>();
  for (const id of ids) {
    const short = shortId(id);
    const first = firstBy.get(short);
    if (first === undefined) firstBy.set(short, id);
    else if (first !== id) {
      const group = collisions.get(short);
      if (group) group.add(id);
      else collisions.set(short, new Set([first, id]));
    }
  }
  const result = new Map<string, string>();
  for (const [short, group] of collisions) {
    const length = distinguishingLength(group, short.length);
    for (const id of group) {
      let cut = length;
      while (cut < id.length && id[cut - 1] === "-") cut++;
      const longer = id.slice(0, cut);
      // A lengthened form must not be some other id's plain short form; then only the full id is safe.
      const owner = firstBy.get(longer);
      result.set(id, owner !== undefined && owner !== id ? id : longer);
    }
  }
  return result;
}

/**
 * The fewest leading characters that tell distinct ids apart, given that they agree on their first
 * `from`: one past their longest common prefix. Read one position at a time, and only among ids not
 * yet told apart, so that the work is the characters it takes to tell each id apart, never a
 * rereading of every id's prefix for each added character.
 */
function distinguishingLength(ids: Iterable<string>, from: number): number {
  let undecided: string[][] = [[...ids]];
  let at = from;
  while (undecided.length > 0) {
    const next: string[][] = [];
    for (const alike of undecided) {
      const byCharacter = new Map<number, string[]>();
      for (const id of alike) {
        // An id that ends here differs from every other: no two ids of a group are equal.
        if (at >= id.length) continue;
        const code = id.charCodeAt(at);
        const same = byCharacter.get(code);
        if (same) same.push(id);
        else byCharacter.set(code, [id]);
      }
      for (const same of byCharacter.values()) if (same.length > 1) next.push(same);
    }
    undecided = next;
    at++;
  }
  return at;
}

/**
 * Hands out plain short forms and notes each one, so a tool can tell, without a second pass over
 * its records, whether two ids of one result got the same short form. A table of 32-bit hashes with
 * linear probing: a Map keyed by the short strings cost more per page than projecting the rest.
 */
function shortIdCheck(expectedIds: number) {
  // The state lives in this closure, not in an object: V8 may drop an object's layout in a full GC
  // once no object has it, and with it the optimized code that checks for it, so that the next
  // page ran unoptimized. Sized so that the expected ids fill at most three quarters: probing stays
  // short, and a 10,000-id page's table stays in the young generation, where stores are cheap.
  let size = Math.max(256, 2 ** Math.ceil(Math.log2((expectedIds * 4) / 3 + 1)));
  let slots = new Array<string | undefined>(size);
  let hashes = new Int32Array(size);
  let count = 0;
  let collided = false;
  // Once two ids share a short form the result is projected again anyway; from then on ids are only
  // listed, not probed, since ids sharing a short form share a hash and probing past them all for
  // each new one took time quadratic in their number.
  const afterCollision: string[] = [];

  const grow = () => {
    const [oldSlots, oldHashes] = [slots, hashes];
    size *= 2;
    slots = new Array<string | undefined>(size);
    hashes = new Int32Array(size);
    for (let i = 0; i < oldSlots.length; i++) {
      if (oldSlots[i] === undefined) continue;
      let at = oldHashes[i]! & (size - 1);
      while (slots[at] !== undefined) at = (at + 1) & (size - 1);
      slots[at] = oldSlots[i];
      hashes[at] = oldHashes[i]!;
    }
  };

  const note = (id: string): string => {
    const digits = uuidDigits(id);
    const short = shortForm(id, digits);
    if (collided) {
      afterCollision.push(id);
      return short;
    }
    const hash = hashOfShort(short, digits >= 0 ? digits : eightHexDigits(short, short.length - 8));
    let at = hash & (size - 1);
    for (let taken = slots[at]; taken !== undefined; taken = slots[at]) {
      if (hashes[at] === hash) {
        if (taken === id) return short;
        // Another id has this short form; note this one too, so the lengthened forms cover both.
        if (shortId(taken) === short) collided = true;
      }
      at = (at + 1) & (size - 1);
    }
    slots[at] = id;
    hashes[at] = hash;
    if (++count * 4 > size * 3) grow();
    return short;
  };

  return { note, collided: () => collided, ids: () => [...slots.filter((id): id is string => id !== undefined), ...afterCollision] };
}

/**
 * The hash of a short form, which must depend on nothing else. One that ends in eight hex digits
 * (every form {@link shortId} cuts, and some ids it keeps whole) hashes from their value, `digits`,
 * which a prefix-and-UUID id's shape check has already read, so the usual form is not read twice.
 */
function hashOfShort(short: string, digits: number): number {
  return digits >= 0 ? mixed(digits ^ Math.imul(short.charCodeAt(0), 0x9e3779b1) ^ short.length) : hashOf(short);
}

/** FNV-1a with a final mix, so that ids differing only in their last digits spread over the table. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return mixed(hash);
}

function mixed(hash: number): number {
  const spread = hash ^ (hash >>> 16);
  return Math.imul(spread, 0x45d9f3b) ^ (spread >>> 13);
}

/**
 * Projects a whole tool result with plain short ids; in the rare result where two ids share a short
 * form, projects it again with {@link shortenIds} over all of them. Every id given a short form
 * counts, those kept in unresolved markers too. Issues reach `onIssue` once, from the projection
 * that is kept, or from one that threw. `expectedIds`: how many ids will be shortened.
 */
export function withDistinctShortIds<T>(
  onIssue: ProjectOptions["onIssue"],
  expectedIds: number,
  project: (options: RecordOptions) => T,
): T {
  const check = shortIdCheck(expectedIds);
  const issues: ProjectionIssue[] = [];
  const passOn = () => {
    if (onIssue) for (const issue of issues) onIssue(issue);
  };
  let result: T;
  try {
    result = project(recordOptions(onIssue && ((issue) => issues.push(issue)), check.note));
  } catch (error) {
    passOn();
    throw error;
  }
  if (check.collided()) return project(recordOptions(onIssue, shortenIds(check.ids())));
  passOn();
  return result;
}

function short(id: string, ctx: Context): string {
  const given = ctx.shortIds;
  const short = typeof given === "function" ? given(id) : (given?.get(id) ?? shortId(id));
  return idBookInUse ? noteShortId(short, id) : short;
}

/** An id the model can pass to a tool, shortened when the annotation says so. */
export function argumentId(value: unknown, ctx: Context, field: string, required: boolean, shorten: boolean): string | null | Unusable {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  const id = string(value, ctx, field, required);
  return shorten && typeof id === "string" ? short(id, ctx) : id;
}

/** An integer id the model can pass to a tool: it stays a number, as the spec declares it. */
export function integerId(value: unknown, ctx: Context, field: string, required: boolean): number | null | Unusable {
  if (typeof value === "string" && /^-?\d{1,15}$/.test(value)) return Number(value);
  return number(value, ctx, field, required, true);
}

/** A related id that is there but cannot be read as one; becomes an {@link Unusable} marker where it is projected. */
export class Unreadable {
  constructor(
    readonly value: unknown,
    readonly reason: string,
  ) {}
}

/** The ids of a relationship or a foreign key: one, several, none (`null`), or what could not be read. */
export type Ids = string | Unreadable | Array<string | Unreadable> | null;

/** The ids in a JSON:API relationship: one, several, or none (`data: null`, or no data at all). */
export function relationshipIds(relationship: unknown): Ids {
  if (relationship === undefined || relationship === null) return null;
  const object = asObject(relationship);
  if (!object) return new Unreadable(relationship, `expected a relationship object, got ${typeName(relationship)}`);
  const data = object["data"];
  if (Array.isArray(data)) return data.map(linkageId);
  if (data === undefined || data === null) return null;
  return linkageId(data);
}

function linkageId(linkage: unknown): string | Unreadable {
  const object = asObject(linkage);
  const id = idOf(object?.["id"]);
  if (id !== undefined) return id;
  const got = !object
    ? typeName(linkage)
    : object["id"] === undefined
      ? "an object without an id"
      : `an id that is ${typeName(object["id"])}`;
  return new Unreadable(linkage, `expected a resource identifier { type, id }, got ${got}`);
}

function idOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

export function addIds(target: Set<string>, ids: Ids): void {
  if (ids === null || ids instanceof Unreadable) return;
  if (typeof ids === "string") target.add(ids);
  else for (const id of ids) if (typeof id === "string") target.add(id);
}

/** Codes for a legend looked up at run time, as the resolver receives them. */
export function addCode(target: Set<string>, value: unknown): void {
  if ((typeof value === "string" && value.length <= CODE_CHARACTERS) || (typeof value === "number" && Number.isFinite(value)))
    target.add(String(value));
}

function label(id: string, labels: Labels, resolver: string, ctx: Context, field: string): string | Unresolved {
  const found = labels.get(id);
  if (typeof found === "string") return found;
  const why =
    found instanceof Error ? `resolver "${resolver}" failed for it: ${messageOf(found)}` : `resolver "${resolver}" has no label for it`;
  report(ctx, "unresolved", field, id, `${ctx.resource}.${field}: ${clipped(id, ISSUE_VALUE_CHARACTERS)}: ${why}`, resolver);
  return { unresolved: short(id, ctx) };
}

function labelOrMarker(
  id: string | Unreadable,
  labels: Labels,
  resolver: string,
  ctx: Context,
  field: string,
): string | Unresolved | Unusable {
  return typeof id === "string" ? label(id, labels, resolver, ctx, field) : unusable(ctx, field, id.value, id.reason);
}

const ONE_GOT_LIST = "expected one related record, got a list";

export function joinOne(ids: Ids, labels: Labels, resolver: string, ctx: Context, field: string): string | null | Unresolved | Unusable {
  if (ids === null) return null;
  if (Array.isArray(ids)) return unusable(ctx, field, ids, ONE_GOT_LIST);
  return labelOrMarker(ids, labels, resolver, ctx, field);
}

const LIST_GOT_ONE = "expected a list of related records, got one";

export function joinMany(
  ids: Ids,
  labels: Labels,
  resolver: string,
  ctx: Context,
  field: string,
): (string | Unresolved | Unusable)[] | null | Unusable {
  if (ids === null) return null;
  if (ids instanceof Unreadable) return unusable(ctx, field, ids.value, ids.reason);
  // A to-many relationship holding one identifier is not read as a list of one: never a silent guess.
  if (typeof ids === "string") return unusable(ctx, field, ids, LIST_GOT_ONE);
  return ids.map((id) => labelOrMarker(id, labels, resolver, ctx, field));
}

function relatedId(id: string | Unreadable, ctx: Context, field: string, shorten: boolean): string | Unusable {
  if (typeof id !== "string") return unusable(ctx, field, id.value, id.reason);
  return shorten ? short(id, ctx) : id;
}

export function relatedOne(ids: Ids, ctx: Context, field: string, shorten: boolean): string | null | Unusable {
  if (ids === null) return null;
  if (Array.isArray(ids)) return unusable(ctx, field, ids, ONE_GOT_LIST);
  return relatedId(ids, ctx, field, shorten);
}

export function relatedMany(ids: Ids, ctx: Context, field: string, shorten: boolean): (string | Unusable)[] | null | Unusable {
  if (ids === null) return null;
  if (ids instanceof Unreadable) return unusable(ctx, field, ids.value, ids.reason);
  if (typeof ids === "string") return unusable(ctx, field, ids, LIST_GOT_ONE);
  return ids.map((id) => relatedId(id, ctx, field, shorten));
}

/**
 * How a resolver reads an embedded record (`{ "gid": "12345", "name": "Greg Sanchez" }`): the key
 * of its id, and the key of its name when the record carries one.
 */
export interface RecordKeys {
  readonly id: string;
  readonly label?: string;
}

/** The name an embedded record carries itself, which makes asking the resolver needless. */
function carriedLabel(object: Json, keys: RecordKeys): string | undefined {
  if (keys.label === undefined) return undefined;
  const found = read(object, keys.label);
  return typeof found === "string" ? found : undefined;
}

function addRef(target: Set<string>, value: unknown, keys: RecordKeys): void {
  const id = idOf(value);
  if (id !== undefined) target.add(id);
  const object = asObject(value);
  if (!object || carriedLabel(object, keys) !== undefined) return;
  const embedded = idOf(read(object, keys.id));
  if (embedded !== undefined) target.add(embedded);
}

/** Adds the ids of a foreign key (an id, an embedded record, or a list of either) that came without a name. */
export function addRefs(target: Set<string>, value: unknown, keys: RecordKeys): void {
  if (Array.isArray(value)) for (const item of value) addRef(target, item, keys);
  else addRef(target, value, keys);
}

/** One foreign key's name: the one its embedded record carries, else the resolver's; a value with no readable id is marked. */
function refLabel(
  value: unknown,
  labels: Labels,
  resolver: string,
  keys: RecordKeys,
  ctx: Context,
  field: string,
): string | Unresolved | Unusable {
  const id = idOf(value);
  if (id !== undefined) return label(id, labels, resolver, ctx, field);
  const object = asObject(value);
  if (!object) return unusable(ctx, field, value, `expected an id or a record with \`${keys.id}\`, got ${typeName(value)}`);
  const carried = carriedLabel(object, keys);
  if (carried !== undefined) return carried;
  const embedded = idOf(read(object, keys.id));
  if (embedded !== undefined) return label(embedded, labels, resolver, ctx, field);
  // The marker names what was missing, never the object's own keys: they are the API's, not the annotation's.
  return unusable(
    ctx,
    field,
    value,
    `expected a record with \`${keys.id}\`${keys.label === undefined ? "" : ` or \`${keys.label}\``}, got an object without ${keys.label === undefined ? "it" : "either"}`,
  );
}

/** A foreign key holding one record: an id, or an embedded record. */
export function refOne(
  value: unknown,
  labels: Labels,
  resolver: string,
  keys: RecordKeys,
  ctx: Context,
  field: string,
): string | null | Unresolved | Unusable {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return unusable(ctx, field, value, "expected one id or record, got a list");
  return refLabel(value, labels, resolver, keys, ctx, field);
}

/** A foreign key holding a list of ids or records. */
export function refMany(
  value: unknown,
  labels: Labels,
  resolver: string,
  keys: RecordKeys,
  ctx: Context,
  field: string,
): (string | Unresolved | Unusable)[] | null | Unusable {
  if (value === undefined || value === null) return null;
  // One id or record where the spec declares a list is not read as a list of one: never a silent guess.
  if (!Array.isArray(value)) return unusable(ctx, field, value, `expected a list of ids or records, got ${typeName(value)}`);
  return value.map((item) => refLabel(item, labels, resolver, keys, ctx, field));
}

/** Labels already present in a JSON:API `included` array, per resolver. */
export function includedLabels(
  response: unknown,
  sources: readonly { resolver: string; type: string; label: string }[],
): Map<string, Map<string, string>> {
  const result = new Map<string, Map<string, string>>();
  for (const source of sources) result.set(source.resolver, new Map());
  const included = asObject(response)?.["included"];
  if (!Array.isArray(included)) return result;
  for (const item of included) {
    const record = asObject(item);
    if (!record) continue;
    const id = idOf(record["id"]);
    if (id === undefined) continue;
    for (const source of sources) {
      if (record["type"] !== source.type) continue;
      const text = asObject(record["attributes"])?.[source.label];
      if (typeof text === "string") result.get(source.resolver)!.set(id, text);
    }
  }
  return result;
}

/**
 * Calls each resolver at most once, concurrently, with the ids `included` did not already name.
 * Labels the resolver returns for ids it was not asked about are ignored. Fails with a
 * {@link ResolverError} when the resolvers have not all answered within `options.timeoutMs`, or
 * when `options.signal` aborts first.
 */
export async function resolveLabels<K extends string>(
  wanted: Readonly<Record<K, Set<string>>>,
  resolvers: Readonly<Record<K, Resolver>>,
  known: ReadonlyMap<string, ReadonlyMap<string, string>>,
  options: Pick<ProjectOptions, "signal" | "timeoutMs"> = {},
): Promise<Record<K, Labels>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RESOLVER_TIMEOUT_MS;
  if (!(timeoutMs > 0))
    throw new RangeError(`timeoutMs must be a positive number of milliseconds or Infinity, got ${described(timeoutMs)}`);
  const names = Object.keys(wanted) as K[];
  const unanswered = new Set<string>();
  const answers = Promise.all(
    names.map(async (name): Promise<Labels> => {
      const labels = new Map<string, string | Error>(known.get(name) ?? []);
      const missing = [...wanted[name]].filter((id) => !labels.has(id));
      if (missing.length === 0) return labels;
      const resolver = resolvers[name];
      if (typeof resolver !== "function") throw new ResolverError(name, new Error("no resolver function was passed"));
      // An aborted call asks no resolver.
      if (options.signal?.aborted) throw new ResolverError(name, options.signal.reason ?? new Error("the call was aborted"));
      let answer: unknown;
      unanswered.add(name);
      try {
        answer = await resolver(missing);
      } catch (error) {
        throw new ResolverError(name, error);
      } finally {
        unanswered.delete(name);
      }
      if (!(answer instanceof Map)) throw new ResolverError(name, new Error(`returned ${typeName(answer)}, expected a Map of id to label`));
      for (const id of missing) {
        const found: unknown = answer.get(id);
        if (typeof found === "string" || found instanceof Error) labels.set(id, found);
      }
      return labels;
    }),
  );
  const resolved = await withinDeadline(answers, unanswered, timeoutMs, options.signal);
  const layout = `lookups:${names.join(",")}`;
  if (!KEPT_LAYOUTS.has(layout)) KEPT_LAYOUTS.set(layout, Object.fromEntries(names.map((name) => [name, new Map()])));
  return Object.fromEntries(names.map((name, i) => [name, resolved[i]!])) as Record<K, Labels>;
}

/**
 * The resolvers' answers, or a {@link ResolverError} naming one still unanswered when the timeout
 * passes or the signal aborts first. The timer and the abort listener go as soon as either happens.
 */
function withinDeadline<T>(
  answers: Promise<T>,
  unanswered: ReadonlySet<string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<T> {
  // No resolver was called: nothing to wait for, no timer to set or clear.
  if (unanswered.size === 0) return answers;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (cause: unknown) => {
      finish();
      // Sorted, so which resolver is named does not depend on which was called first.
      reject(new ResolverError([...unanswered].sort()[0] ?? "", cause));
    };
    const onAbort = () => fail(signal?.reason ?? new Error("the call was aborted"));
    // Settling after a timeout or an abort changes nothing, but a late rejection is still handled.
    answers.then(
      (value) => {
        finish();
        resolve(value);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    // setTimeout fires at once for a delay past 2^31 - 1 ms, so a longer one waits for ever too.
    if (timeoutMs <= 2 ** 31 - 1) timer = setTimeout(() => fail(new Error(`did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
}

/** What {@link resolverFromLoader} needs of a DataLoader: its `loadMany`. */
export interface LabelLoader {
  loadMany(ids: readonly string[]): PromiseLike<ArrayLike<string | null | undefined | Error>>;
}

/**
 * A resolver backed by a DataLoader. Create the loader per request: its batching and cache then
 * serve every tool call of that request. An id the loader gives `null` stays unresolved (a marker);
 * an Error for some ids becomes their marker, reported through `onIssue`; a batch that failed as a
 * whole fails the call with a `ResolverError`.
 */
export function resolverFromLoader(loader: LabelLoader): Resolver {
  return async (ids) => {
    const values = await loader.loadMany(ids);
    // A batch function that threw gives its one Error for every id: that is the resolver failing,
    // which fails the call, not one unresolved id after another. (With one id the two look alike,
    // and it stays a marker.)
    const first = values[0];
    if (values.length > 1 && first instanceof Error && Array.prototype.every.call(values, (value) => value === first)) throw first;
    const labels = new Map<string, string | Error>();
    ids.forEach((id, i) => {
      const value = values[i];
      if (typeof value === "string" || value instanceof Error) labels.set(id, value);
    });
    return labels;
  };
}

/**
 * A resolver as a DataLoader batch function: one label per id, in the order of `ids`, `null` where
 * the resolver has none, and the resolver's per-id Errors as they are.
 */
export function batchFunction(resolver: Resolver): (ids: readonly string[]) => Promise<(string | Error | null)[]> {
  return async (ids) => {
    const distinct = [...new Set(ids)];
    const labels = distinct.length > 0 ? await resolver(distinct) : new Map<string, string | Error>();
    return ids.map((id) => labels.get(id) ?? null);
  };
}

/** The value at a dotted path of the response, for page fields. */
export function at(response: unknown, path: readonly string[]): unknown {
  let value: unknown = response;
  for (const key of path) value = read(asObject(value), key);
  return value;
}

/** Where a dotted path stops at something that is there but is not an object: the steps before it, and what stood there. */
function blockedAt(response: unknown, path: readonly string[]): { readonly steps: string; readonly found: unknown } | undefined {
  let value: unknown = response;
  for (let i = 0; i < path.length; i++) {
    if (value === undefined || value === null) return undefined;
    const object = asObject(value);
    if (!object) return { steps: path.slice(0, i).join(".") || "the top", found: value };
    value = read(object, path[i]!);
  }
  return undefined;
}

/**
 * A page field read by `readValue`, or an unusable marker when a step of its path is there but is
 * not an object (`"meta": "x"` for `meta.page.total`): the value under it is unreadable, not absent.
 */
export function pageValue<T>(
  response: unknown,
  path: readonly string[],
  ctx: Context,
  field: string,
  readValue: (value: unknown) => T,
): T | Unusable {
  const blocked = blockedAt(response, path);
  if (blocked) return unusable(ctx, field, blocked.found, `expected an object at ${blocked.steps}, got ${typeName(blocked.found)}`);
  return readValue(at(response, path));
}

/** The records of a response at `path`: a list, or one record. */
export function rows(response: unknown, path: readonly string[], tool: string, onIssue: ProjectOptions["onIssue"]): unknown[] {
  const value = at(response, path);
  if (Array.isArray(value)) return value;
  const blocked = value === undefined ? blockedAt(response, path) : undefined;
  const found = blocked ? blocked.found : value;
  if (found !== undefined && found !== null && onIssue) {
    const message = blocked
      ? `expected an object at ${blocked.steps}, got ${typeName(found)}`
      : `expected a list at ${path.join(".") || "the top"}, got ${typeName(found)}`;
    onIssue({ kind: "unusable", resource: tool, field: path.join("."), value: issueValue(found), message: `${tool}: ${message}` });
  }
  return [];
}

/** How a list tool's result reads as a table: the list's key, its columns and the page keys, in result order. */
export interface TableLayout {
  readonly list: string;
  readonly columns: readonly string[];
  readonly page: readonly string[];
}

const TABLE_LAYOUTS = new Map<string, TableLayout>();
const MARKED_LAYOUTS = new WeakMap<object, TableLayout>();

/** Declares that a tool's results read as a table; called once by each such tool's module. */
export function tableLayout(tool: string, layout: TableLayout): TableLayout {
  TABLE_LAYOUTS.set(tool, layout);
  return layout;
}

/** Marks a result as one that reads as a table, so serializeToolResult needs no tool name. */
export function withTableLayout<T extends object>(result: T, layout: TableLayout): T {
  MARKED_LAYOUTS.set(result, layout);
  return result;
}

const MARKER_KINDS = ["unresolved", "unknown_code", "unusable"] as const;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Characters that end or confuse a bare cell: the delimiter, quotes, brackets that open JSON, line breaks and controls. */
const NOT_BARE = /[",\\\u0000-\u001f\u007f\u2028\u2029]|^[\s[{]|\s$/;
const MARKER_PREFIX = /^(?:unresolved|unknown_code|unusable):/;
const BARE_KEY = /^[A-Za-z_$][\w$.-]*$/;

/**
 * One cell: `null`, `true`, `false` and numbers as in JSON; a string bare where reading it back
 * gives the same string, else as a JSON string; a marker as `kind:value`; any other object or array
 * as compact JSON. So `null` and `""` stay apart, and a marker cannot be read as a value.
 */
function cell(value: unknown): string {
  if (typeof value === "string") {
    const bare =
      value !== "" &&
      !NOT_BARE.test(value) &&
      !JSON_NUMBER.test(value) &&
      value !== "true" &&
      value !== "false" &&
      value !== "null" &&
      !MARKER_PREFIX.test(value);
    return bare ? value : JSON.stringify(value);
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const kind = keys.length === 1 ? MARKER_KINDS.find((k) => k === keys[0]) : undefined;
    const inner = kind === undefined ? undefined : (value as Record<string, unknown>)[kind];
    if (kind !== undefined && (typeof inner === "string" || (typeof inner === "number" && Number.isFinite(inner))))
      return `${kind}:${cell(inner)}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The object's own keys are these, in any order (JavaScript puts integer-like keys first whatever the order of writing). */
const hasExactly = (object: object, keys: readonly string[]) =>
  Object.keys(object).length === keys.length && keys.every((key) => Object.hasOwn(object, key));

const tableKey = (key: string) => (BARE_KEY.test(key) ? key : JSON.stringify(key));

/**
 * A header naming the list, its length and its columns; one line per record; the page keys on a
 * last line: TOON's tabular form, which models read as well as JSON for flat records, at a fraction
 * of the keys. A result of another shape (copied, or edited on the way) is left to JSON.
 */
function tableText(result: unknown, layout: TableLayout): string | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const fields = result as Record<string, unknown>;
  if (!hasExactly(fields, [layout.list, ...layout.page])) return undefined;
  const records = fields[layout.list];
  if (!Array.isArray(records)) return undefined;
  const lines = [`${tableKey(layout.list)}[${records.length}]{${layout.columns.map(tableKey).join(",")}}:`];
  for (const record of records) {
    if (typeof record !== "object" || record === null) return undefined;
    if (!hasExactly(record, layout.columns)) return undefined;
    lines.push(`  ${layout.columns.map((column) => cell((record as Record<string, unknown>)[column])).join(",")}`);
  }
  if (layout.page.length > 0) lines.push(layout.page.map((key) => `${tableKey(key)}: ${cell(fields[key])}`).join(", "));
  return lines.join("\n");
}

// The input half: the id book, argument checks, calls through the consumer's HTTP client, adapters.

/**
 * How many short ids the id book keeps, in this module's memory: the one least recently handed out
 * or looked up goes first. A short form is kept for the process's lifetime or until evicted.
 */
export const ID_BOOK_SIZE = 10_000;
/** Short form to full id; null when two different ids were given that short form. */
const idBook = new Map<string, string | null>();
/**
 * Only a process that calls tools through createTools needs short ids back: until then a
 * projection, which shortens every id of a page on its hot path, records nothing.
 */
let idBookInUse = false;

/** Starts recording the short ids projections hand out; createTools calls it. */
export function useIdBook(): void {
  idBookInUse = true;
}

/** Notes that a projection gave `id` the short form `short`, so a later call can send the full id. */
function noteShortId(short: string, id: string): string {
  if (short === id) return short;
  const known = idBook.get(short);
  idBook.delete(short);
  idBook.set(short, known === undefined || known === id ? id : null);
  if (idBook.size > ID_BOOK_SIZE) idBook.delete(idBook.keys().next().value!);
  return short;
}

/** The full id a short form stands for; an id never handed out comes back as given. */
export function fullId(given: string): string | { readonly ambiguous: string } {
  const known = idBook.get(given);
  if (known === undefined) return given;
  idBook.delete(given);
  idBook.set(given, known);
  return known === null ? { ambiguous: given } : known;
}

/** The JSON Schema subset tool definitions use, as data. */
export type InputSchema = { readonly [keyword: string]: unknown };

const typeMatches = (type: unknown, value: unknown): boolean => {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === type;
  }
};

/** A pattern JavaScript cannot compile is left to the API to check, rather than refusing every value. */
function patternRejects(pattern: string, value: string): boolean {
  try {
    return !new RegExp(pattern, "u").test(value);
  } catch {
    return false;
  }
}

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

/**
 * What is wrong with `value` against `schema`, said so the model can correct it, or undefined when
 * it fits. Checks the keywords tool definitions carry; others (format) are left to the API.
 */
export function argumentProblem(schema: InputSchema, value: unknown, at: string): string | undefined {
  const types = schema["type"] === undefined ? undefined : ([] as unknown[]).concat(schema["type"]);
  if (types && !types.some((type) => typeMatches(type, value))) return `${at} must be ${types.join(" or ")}, not ${shown(value)}`;
  const allowed = schema["enum"];
  if (Array.isArray(allowed) && !allowed.includes(value))
    return `${at} must be one of ${allowed.map(shown).join(", ")}, not ${shown(value)}`;
  if ("const" in schema && schema["const"] !== value) return `${at} must be ${shown(schema["const"])}`;
  const branches = schema["anyOf"];
  if (Array.isArray(branches) && !branches.some((branch: InputSchema) => argumentProblem(branch, value, at) === undefined)) {
    return argumentProblem(branches[0] as InputSchema, value, at);
  }
  const limit = (keyword: string) => (typeof schema[keyword] === "number" ? (schema[keyword] as number) : undefined);
  if (typeof value === "number") {
    const [min, max, above, below] = [limit("minimum"), limit("maximum"), limit("exclusiveMinimum"), limit("exclusiveMaximum")];
    if (min !== undefined && value < min) return `${at} must be at least ${min}`;
    if (max !== undefined && value > max) return `${at} must be at most ${max}`;
    if (above !== undefined && value <= above) return `${at} must be above ${above}`;
    if (below !== undefined && value >= below) return `${at} must be below ${below}`;
  }
  if (typeof value === "string") {
    const [min, max] = [limit("minLength"), limit("maxLength")];
    const length = [...value].length;
    if (min !== undefined && length < min) return `${at} must have at least ${min} characters`;
    if (max !== undefined && length > max) return `${at} must have at most ${max} characters`;
    if (typeof schema["pattern"] === "string" && patternRejects(schema["pattern"], value)) return `${at} must match ${schema["pattern"]}`;
  }
  if (Array.isArray(value)) {
    const [min, max] = [limit("minItems"), limit("maxItems")];
    if (min !== undefined && value.length < min) return `${at} must have at least ${min} items`;
    if (max !== undefined && value.length > max) return `${at} must have at most ${max} items`;
    const items = schema["items"];
    if (typeof items === "object" && items !== null) {
      for (const [i, item] of value.entries()) {
        const problem = argumentProblem(items as InputSchema, item, `${at}[${i}]`);
        if (problem) return problem;
      }
    }
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema["properties"] ?? {}) as Record<string, InputSchema>;
    const inner = (name: string) => (at === "" ? name : `${at}.${name}`);
    for (const name of Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []) {
      if (!Object.hasOwn(object, name) || object[name] === undefined) return `${inner(name)} is required`;
    }
    for (const [name, item] of Object.entries(object)) {
      if (item === undefined) continue;
      if (!Object.hasOwn(properties, name)) {
        if (schema["additionalProperties"] === false)
          return `${inner(name)} is not an argument here; accepted: ${Object.keys(properties).join(", ") || "none"}`;
        continue;
      }
      const problem = argumentProblem(properties[name]!, item, inner(name));
      if (problem) return problem;
    }
  }
  return undefined;
}

/** How one operation parameter is filled from the model's arguments. */
export interface CallParameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "body";
  readonly argument?: string;
  readonly fixed?: { readonly value: unknown };
  /** Word to code. */
  readonly legend?: ReadonlyArray<readonly [word: string, code: string | number]>;
  readonly shortIds: boolean;
  /** The body's top-level properties that take short ids. */
  readonly shortIdProperties?: readonly string[];
  /** The body's top-level properties that take words, each with its word-to-code list. */
  readonly propertyLegends?: ReadonlyArray<
    readonly [property: string, legend: ReadonlyArray<readonly [word: string, code: string | number]>]
  >;
}

export interface ToolCall {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly CallParameter[];
  readonly bodyMediaType?: string;
}

/** Sets a property, even one named `__proto__`, which plain assignment would take for the prototype. */
const setProperty = (object: Json, key: string, value: unknown) =>
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });

/** A tool's answer: the projected result and its text, or an error the model can read and act on. */
export type ToolOutcome<R> = { readonly result: R; readonly text: string } | { readonly error: string };

/** The part of an openapi-fetch client a call uses: `client.GET(path, init)` and its siblings. */
type HttpMethod = (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: { status: number; ok: boolean } }>;

/** The API's own words for an error, when it gives short ones. */
function apiMessage(body: unknown): string | undefined {
  const object = asObject(body);
  const errors = object?.["errors"];
  const first = Array.isArray(errors) ? asObject(errors[0]) : object;
  for (const key of ["detail", "title", "message", "error"]) {
    const text = first?.[key];
    if (typeof text === "string" && text.trim() !== "") return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }
  return typeof body === "string" && body.length > 0 && body.length <= 200 ? body : undefined;
}

/**
 * Checks the arguments, maps words to codes and short ids to full ones, sends the request through
 * the client, and projects the response. Every failure comes back as `{ error }`, never a throw.
 */
export async function callTool<R>(
  client: unknown,
  tool: string,
  call: ToolCall,
  schema: InputSchema,
  args: unknown,
  project: (response: unknown) => Promise<R>,
): Promise<ToolOutcome<R>> {
  const given = args ?? {};
  const problem = argumentProblem(schema, given, "");
  if (problem) return { error: `${tool}: bad arguments: ${problem}` };
  const values = given as Record<string, unknown>;
  const params: Record<"path" | "query" | "header", Record<string, unknown>> = { path: {}, query: {}, header: {} };
  let body: unknown;
  let idArgument: string | undefined;
  for (const parameter of call.parameters) {
    let value = parameter.fixed ? parameter.fixed.value : parameter.argument === undefined ? undefined : values[parameter.argument];
    if (value === undefined) continue;
    if (parameter.legend) {
      const legend = parameter.legend;
      const code = (word: unknown) => legend.find(([known]) => known === word)?.[1] ?? word;
      // An array parameter with a legend takes a list of words and sends the list of codes.
      value = Array.isArray(value) ? value.map(code) : code(value);
    }
    if (parameter.shortIds && typeof value === "string") {
      const full = fullId(value);
      if (typeof full !== "string")
        return {
          error: `${tool}: ${parameter.argument} "${value}" is ambiguous: two records were shown with that short id; pass the longer id a recent result gave`,
        };
      if (full !== value || idArgument === undefined) idArgument = value;
      value = full;
    }
    const object = (parameter.shortIdProperties || parameter.propertyLegends) && asObject(value);
    if (object) {
      const expanded: Json = { ...object };
      for (const [property, legend] of parameter.propertyLegends ?? []) {
        const word = object[property];
        if (Object.hasOwn(object, property)) setProperty(expanded, property, legend.find(([known]) => known === word)?.[1] ?? word);
      }
      for (const property of parameter.shortIdProperties ?? []) {
        const given = object[property];
        if (typeof given !== "string") continue;
        const full = fullId(given);
        if (typeof full !== "string")
          return {
            error: `${tool}: body.${property} "${given}" is ambiguous: two records were shown with that short id; pass the longer id a recent result gave`,
          };
        setProperty(expanded, property, full);
      }
      value = expanded;
    }
    if (parameter.in === "body") body = value;
    else params[parameter.in][parameter.name] = value;
  }
  const send = (client as Record<string, HttpMethod | undefined>)[call.method.toUpperCase()];
  if (typeof send !== "function") return { error: `${tool}: the client cannot send ${call.method.toUpperCase()} requests` };
  let answer: Awaited<ReturnType<HttpMethod>>;
  try {
    const init = { params, ...(body !== undefined ? { body, headers: { "Content-Type": call.bodyMediaType ?? "application/json" } } : {}) };
    answer = await send.call(client, call.path, init);
  } catch (error) {
    return { error: `${tool}: could not reach the API (${error instanceof Error ? error.message : String(error)}); try again later` };
  }
  if (!answer.response.ok) {
    const message = apiMessage(answer.error);
    const notFound =
      answer.response.status === 404 && idArgument !== undefined
        ? `; no record has the id "${idArgument}", pass an id exactly as a result gave it`
        : "";
    return { error: `${tool}: the API answered ${answer.response.status}${message ? `: ${message}` : ""}${notFound}` };
  }
  try {
    const result = await project(answer.data);
    return { result, text: serializeToolResult(result) };
  } catch (error) {
    return { error: `${tool}: the response could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** A tool as the adapters call it: any arguments in, an outcome out. */
export type AnyTool = (args: never) => Promise<ToolOutcome<unknown>>;

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: InputSchema;
  readonly outputSchema: InputSchema;
}

/** The schemas the MCP SDK matches requests with, as the consumer imports them from `@modelcontextprotocol/sdk/types.js`. */
export interface McpRequestSchemas {
  readonly ListToolsRequestSchema: unknown;
  readonly CallToolRequestSchema: unknown;
}

type CallRequest = { params: { name: string; arguments?: Record<string, unknown> } };

/**
 * Serves the tools on the MCP SDK's low-level `Server`: `tools/list` gives the definitions as they
 * are, `tools/call` gives `structuredContent` and one text block, or `isError` with the message.
 */
export function registerTools(
  server: { setRequestHandler: (...args: never[]) => unknown },
  definitions: readonly ToolDefinition[],
  tools: { readonly [name: string]: AnyTool },
  schemas: McpRequestSchemas,
): void {
  const on = server.setRequestHandler as unknown as (schema: unknown, handler: (request: CallRequest) => unknown) => void;
  on.call(server, schemas.ListToolsRequestSchema, () => ({ tools: definitions }));
  on.call(server, schemas.CallToolRequestSchema, async (request: CallRequest) => {
    const tool = Object.hasOwn(tools, request.params.name) ? tools[request.params.name] : undefined;
    if (!tool)
      return {
        content: [{ type: "text", text: `no tool "${request.params.name}"; tools: ${Object.keys(tools).join(", ")}` }],
        isError: true,
      };
    const outcome = await tool((request.params.arguments ?? {}) as never);
    if ("error" in outcome) return { content: [{ type: "text", text: outcome.error }], isError: true };
    return { content: [{ type: "text", text: outcome.text }], structuredContent: outcome.result };
  });
}

/** The definitions as Anthropic's Messages API takes them in `tools`. */
export function anthropicTools(definitions: readonly ToolDefinition[]) {
  return definitions.map((d) => ({ name: d.name, description: d.description, input_schema: d.inputSchema }));
}

/** The definitions as OpenAI's Chat Completions API takes them in `tools`. */
export function openaiTools(definitions: readonly ToolDefinition[]) {
  return definitions.map((d) => ({
    type: "function" as const,
    function: { name: d.name, description: d.description, parameters: d.inputSchema },
  }));
}
