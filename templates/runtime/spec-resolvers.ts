// Resolvers the annotation backs with an operation: the labels asked of the API itself.

import { type HttpMethod, RESPONSE_BOUND } from "./call-tool.js";
import {
  type IdType,
  idOf,
  INTEGER_IDS,
  TEXT_IDS,
  TEXT_OR_NUMBER_IDS,
} from "./ids.js";
import { asObject, type Json, read } from "./json.js";
import { at } from "./pages.js";
import { pathSegmentProblem } from "./path-segments.js";
import {
  type QueryParameterStyle,
  queryStringFor,
  queryValueProblem,
} from "./query-string.js";
import { apiMessage, typeName } from "./quoting.js";
import {
  errorBesideRecords,
  type ErrorSigns,
  errorWords,
  problemDocument,
  problemWords,
} from "./records.js";
import type { Resolver } from "./resolvers.js";

/**
 * A resolver the annotation backs with an operation: a list operation filtered by `parameter` (a
 * query parameter taking the ids, `max` at a time), or a get-by-id operation whose one path
 * parameter takes the id. Labels are read from the response's records.
 */
export interface SpecResolverSource {
  readonly method: string;
  readonly path: string;
  readonly parameter: QueryParameterStyle & { readonly in: "query" | "path" };
  /** Ids per request, for a query parameter (a path parameter takes one). */
  readonly max?: number;
  /** The most requests in flight at once. */
  readonly concurrency: number;
  /** Where the records sit in the response: `["data"]` for JSON:API. */
  readonly records: readonly string[];
  /** JSON:API records: the label is read under `attributes`, and the id is text. */
  readonly jsonapi: boolean;
  /** For JSON:API records, the type a record must have to name an id; records of another type are skipped. */
  readonly type?: string;
  /** The key of a record's id. */
  readonly id: string;
  /** The type the spec declares for a record's id; JSON:API ids are text. Text or a number where the spec declares none. */
  readonly ids?: IdType;
  /** The dotted path of the label in a record (under `attributes` for JSON:API). */
  readonly label: readonly string[];
  /** Of `error` and `errors`, those the spec declares in a plain answer: its data, not an error. */
  readonly declaredErrorKeys?: readonly string[];
}

/**
 * The most requests one call sends for a resolver: 100 ids for a get-by-id, 100 batches for a list
 * operation. The ids past them stay unresolved, each with an issue saying so, and no request is sent
 * for them.
 */
export const MAX_RESOLVER_REQUESTS = 100;

/**
 * `send` given a signal of its own that aborts with `signal`. fetch leaves its abort listener on the
 * signal a request is given until the request is collected, and a call sends many requests: each
 * listener on the call's signal goes as its request ends.
 */
async function following<T>(
  signal: AbortSignal | undefined,
  send: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!signal) return send(undefined);
  const own = new AbortController();
  const abort = () => own.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  try {
    return await send(own.signal);
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

/** Runs `work` on every item with at most `limit` running at once; stops starting new ones after a failure. */
async function atMost<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
}

function labelIn(record: Json, source: SpecResolverSource): string | undefined {
  let value: unknown = source.jsonapi ? record["attributes"] : record;
  for (const key of source.label) value = read(asObject(value), key);
  return typeof value === "string" && value !== "" ? value : undefined;
}

const declaredIds = (source: SpecResolverSource): IdType =>
  source.jsonapi ? TEXT_IDS : (source.ids ?? TEXT_OR_NUMBER_IDS);

/** An id type as a refusal names it. */
const DECLARED_AS = {
  [TEXT_IDS]: "text",
  [TEXT_OR_NUMBER_IDS]: "text or a whole number",
  [INTEGER_IDS]: "an integer",
} as const;

/**
 * The id and label one record of an answer gives, if it gives both: an id of the type the spec
 * declares (the number 5 is not the text id "5", which may name another record), and for JSON:API
 * a record of the resolver's type where it names one. A record whose id reads as an asked id only
 * when its type is ignored gives `mistyped`, that id, so that it is refused with a reason.
 */
function recordLabel(
  item: unknown,
  source: SpecResolverSource,
): { id: string; text: string } | { mistyped: string } | undefined {
  const record = asObject(item);
  if (!record) return undefined;
  if (
    source.jsonapi &&
    source.type !== undefined &&
    record["type"] !== source.type
  )
    return undefined;
  const id = idOf(record[source.id], declaredIds(source));
  if (id === undefined) {
    const loosely = idOf(record[source.id], TEXT_OR_NUMBER_IDS);
    return loosely === undefined ? undefined : { mistyped: loosely };
  }
  const text = labelIn(record, source);
  return text === undefined ? undefined : { id, text };
}

/** Why an id the answer labels twice, differently, gets neither label. */
const TWO_LABELS =
  "the API answered two different labels for this id; neither is used";

/** Records an id's label; an id given two different labels is ambiguous and gets an Error instead. */
function settle(
  labels: Map<string, string | Error>,
  id: string,
  text: string,
): void {
  const earlier = labels.get(id);
  if (earlier === undefined) labels.set(id, text);
  else if (earlier !== text && !(earlier instanceof Error))
    labels.set(id, new Error(TWO_LABELS));
}

/**
 * A resolver that asks the API: one request per batch of at most `max` ids, or one per id, with at
 * most `concurrency` in flight. A request that fails rejects (the call then fails with a
 * {@link ResolverError}); an id the API does not return stays unresolved, and so does an id that
 * would change a get-by-id's path (`..`), that the URL cannot carry (a lone surrogate) or that lies
 * past {@link MAX_RESOLVER_REQUESTS} requests' worth, with an Error saying why and no request sent;
 * so does an id the answer gives two different labels, or gives as another type than the spec's.
 * Each request reads at most `MAX_RESPONSE_BYTES` and stops when the call stops waiting.
 */
export function specResolver(
  client: unknown,
  source: SpecResolverSource,
): Resolver {
  const method = source.method.toUpperCase();
  const querySerializer = queryStringFor([source.parameter]);
  const signs: ErrorSigns = {
    path: source.records,
    jsonapi: source.jsonapi,
    ...(source.declaredErrorKeys
      ? { declaredErrorKeys: source.declaredErrorKeys }
      : {}),
  };
  return async (ids, call) => {
    const send = (client as Record<string, HttpMethod | undefined>)[method];
    if (typeof send !== "function")
      throw new Error(`the client cannot send ${method} requests`);
    const labels = new Map<string, string | Error>();
    const size =
      source.parameter.in === "query"
        ? Math.max(1, source.max ?? ids.length)
        : 1;
    const batches: string[][] = [];
    // An id read from an API response is no safer in a URL than a model's argument: one that would
    // change a get-by-id's path, or that the query cannot carry, is not asked, and the others are.
    const writable = ids.filter((id) => {
      const problem =
        source.parameter.in === "query"
          ? queryValueProblem([source.parameter], source.parameter.name, [id])
          : pathSegmentProblem(id);
      if (problem)
        labels.set(
          id,
          new Error(
            `${source.parameter.name} ${problem}; no request was sent for it`,
          ),
        );
      return problem === undefined;
    });
    const askable = writable.slice(0, size * MAX_RESOLVER_REQUESTS);
    if (writable.length > askable.length) {
      // One Error for them all: an Error each would cost a stack trace per id, and they can be a million.
      const notAsked = new Error(
        `not asked: a call sends ${method} ${source.path} at most ${MAX_RESOLVER_REQUESTS} times, ${size === 1 ? "one id" : `${size} ids`} each`,
      );
      for (let i = askable.length; i < writable.length; i++)
        labels.set(writable[i]!, notAsked);
    }
    for (let i = 0; i < askable.length; i += size)
      batches.push(askable.slice(i, i + size));
    await atMost(batches, source.concurrency, async (batch) => {
      const params =
        source.parameter.in === "query"
          ? { query: { [source.parameter.name]: batch } }
          : { path: { [source.parameter.name]: batch[0] } };
      // Bounded as a tool's own request is, and stopped when the call stops waiting for the names.
      const answer = await following(call?.signal, (signal) =>
        send.call(client, source.path, {
          params,
          querySerializer,
          middleware: [RESPONSE_BOUND],
          ...(signal ? { signal } : {}),
        }),
      );
      // A get-by-id answering 404 has no such record: that id stays unresolved, the others are not lost.
      if (source.parameter.in === "path" && answer.response.status === 404)
        return;
      if (!answer.response.ok) {
        const message = apiMessage(answer.error);
        throw new Error(
          `${method} ${source.path} answered ${answer.response.status}${message ? `: ${message}` : ""}`,
        );
      }
      // An error document names no record, whatever records it holds beside its error.
      const erring = problemDocument(answer.response)
        ? `a problem document${problemWords(answer.data)}`
        : errorBesideRecords(answer.data, signs)
          ? `${source.jsonapi ? "errors beside its data" : "an error"}${errorWords(answer.data, signs)}`
          : undefined;
      if (erring !== undefined) {
        const notUsed = new Error(
          `${method} ${source.path} answered ${erring}; its labels are not used`,
        );
        for (const id of batch) labels.set(id, notUsed);
        return;
      }
      const found = at(answer.data, source.records);
      const records = source.parameter.in === "query" ? found : [found];
      if (!Array.isArray(records))
        throw new Error(
          `${method} ${source.path} answered without a list of records at ${source.records.join(".") || "its top"}`,
        );
      // An item that is no record makes the answer no list of records, as a tool's own list is refused.
      const notRecord =
        source.parameter.in === "query"
          ? records.findIndex((item) => asObject(item) === undefined)
          : -1;
      if (notRecord !== -1) {
        const notUsed = new Error(
          `${method} ${source.path} answered item ${notRecord} of its list as ${typeName(records[notRecord])}, not a record; its labels are not used`,
        );
        for (const id of batch) labels.set(id, notUsed);
        return;
      }
      // A label for an id this request did not ask for is not the API's answer about it.
      const askedHere = new Set(batch);
      const mistyped = new Set<string>();
      for (const item of records) {
        const found = recordLabel(item, source);
        if (found === undefined) continue;
        if ("mistyped" in found) mistyped.add(found.mistyped);
        else if (askedHere.has(found.id)) settle(labels, found.id, found.text);
      }
      for (const id of mistyped)
        if (askedHere.has(id) && !labels.has(id))
          labels.set(
            id,
            new Error(
              `${method} ${source.path} answered this id's record with its \`${source.id}\` of another type than the spec declares (${DECLARED_AS[declaredIds(source)]}); its label is not used`,
            ),
          );
    });
    return labels;
  };
}
