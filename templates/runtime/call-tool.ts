// A tool call: arguments checked and mapped, the request sent through the consumer's client, the response projected.

import {
  argumentProblem,
  argumentsSizeProblem,
  codeOf,
  coded,
  type InputSchema,
} from "./arguments.js";
import type { PageExchange, ProjectOptions } from "./context.js";
import {
  fullId,
  handOutHeld,
  ID_BOOK_LONGEST_ID,
  type IdBook,
  longerForms,
} from "./id-book.js";
import { asObject, setOwn, type Json } from "./json.js";
import { TooManyLabelsError } from "./labels-later.js";
import { nextPageArguments } from "./next-arguments.js";
import { pathSegmentProblem } from "./path-segments.js";
import {
  queryMembersProblem,
  queryValueProblem,
  type QueryStyle,
  queryStringFor,
} from "./query-string.js";
import {
  apiMessage,
  clipped,
  described,
  MAX_VALUE_TEXT,
  messageOf,
} from "./quoting.js";
import {
  problemDocument,
  problemWords,
  ResponseShapeError,
} from "./records.js";
import { ResolverError } from "./resolvers.js";
import {
  entriesToRemember,
  IdBookAnswerError,
  type Recalled,
  recalled,
  rememberLongerForms,
} from "./shared-id-book.js";
import { mayBeShortForm, shortId } from "./short-ids.js";
import { serializeToolResult } from "./table-text.js";
import { checkedTimeoutMs, timerFor } from "./timeouts.js";

/** Words to codes, as a parameter or body property takes them. */
type Legend = ReadonlyArray<readonly [word: string, code: string | number]>;

/** How one operation parameter is filled from the model's arguments. */
export interface CallParameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "body";
  readonly argument?: string;
  readonly fixed?: { readonly value: unknown };
  /** Word to code. */
  readonly legend?: Legend;
  /**
   * The kinds of short id it takes (`task.id`: the resource and field a result read the id from):
   * a short id is expanded only into an id handed out as one of them. False when it takes none.
   */
  readonly shortIds?: readonly string[] | false;
  /** The body's top-level properties that take short ids, each with the kinds it takes. */
  readonly shortIdProperties?: ReadonlyArray<
    readonly [property: string, kinds: readonly string[]]
  >;
  /** The body's top-level properties that take words, each with its word-to-code list. */
  readonly propertyLegends?: ReadonlyArray<
    readonly [property: string, legend: Legend]
  >;
  /** A query parameter's style and explode, as the spec declares them. */
  readonly style?: QueryStyle;
  readonly explode?: boolean;
}

export interface ToolCall {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly CallParameter[];
  readonly bodyMediaType?: string;
  /** The tool takes `next`, a result's position of the following page. */
  readonly nextPage?: boolean;
}

/**
 * The URL a response answered: its own, or, where a client leaves it empty (a mock's or a cache's
 * `new Response(...)`), the request's, so a next URL is still held to the origin and path asked.
 */
function answeredUrl(
  response: Json,
  request: Json | undefined,
): string | undefined {
  for (const url of [response["url"], request?.["url"]])
    if (typeof url === "string" && url !== "") return url;
  return undefined;
}

/** A tool's answer: the projected result and its text, or an error the model can read and act on. */
export type ToolOutcome<R> =
  { readonly result: R; readonly text: string } | { readonly error: string };

/** What an openapi-fetch client's `GET` and its siblings answer, as far as the generated types require it. */
export type ClientAnswer = {
  readonly response: { readonly status: number; readonly ok: boolean };
};

/** The part of an openapi-fetch client a call uses: `client.GET(path, init)` and its siblings. */
export type HttpMethod = (
  path: string,
  init: object,
) => Promise<{
  data?: unknown;
  error?: unknown;
  response: {
    status: number;
    ok: boolean;
    url?: string;
    headers?: { get(name: string): string | null };
  };
  request?: { url?: string };
}>;

/** How long a call may take before answering with an error, unless told otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * The most bytes of a response body a call reads (16 MiB, counted as read, after decompression): a
 * longer body is refused, read no further, with an error that asks for less; one whose
 * Content-Length says more is refused unread.
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const MEBIBYTES = MAX_RESPONSE_BYTES / 1024 / 1024;

/** The most characters of a result's text a call gives the model; a longer result is refused, asking for less. */
export const MAX_RESULT_TEXT = 100_000;

export { MAX_VALUE_TEXT };

/** Thrown while reading a response body longer than {@link MAX_RESPONSE_BYTES}. */
class ResponseTooLarge extends Error {
  constructor() {
    super(`the response is longer than ${MEBIBYTES} MiB`);
    this.name = "ResponseTooLarge";
  }
}

/**
 * An openapi-fetch middleware, passed with each request, that bounds the bytes read of the response
 * to {@link MAX_RESPONSE_BYTES}: a body whose Content-Length says more is cancelled unread, any other
 * is read through a counter that fails the read once it passes the bound. Other clients ignore it.
 */
export const RESPONSE_BOUND = {
  onResponse({ response }: { response: Response }): Response | undefined {
    if (Number(response.headers.get("content-length")) > MAX_RESPONSE_BYTES) {
      void response.body?.cancel().catch(() => {});
      throw new ResponseTooLarge();
    }
    if (!response.body) return undefined;
    let bytes = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          if (bytes > MAX_RESPONSE_BYTES)
            controller.error(new ResponseTooLarge());
          else controller.enqueue(chunk);
        },
      }),
    );
    const bounded = new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // A Response made here has no URL of its own; middleware after this one may read it.
    Object.defineProperty(bounded, "url", { value: response.url });
    return bounded;
  },
};

export interface CallOptions<Context = unknown> {
  /**
   * How long the whole call may take, `Infinity` for ever: the shared id book's answers, the API's,
   * and the resolvers' (which get what is left, or the projection's own `timeoutMs` if shorter);
   * {@link DEFAULT_CALL_TIMEOUT_MS} unless given.
   */
  readonly timeoutMs?: number;
  /** Cancels the call, as MCP's `extra.signal` does when the client gives up. */
  readonly signal?: AbortSignal;
  /** Handed to createTools' `perCall` (registerTools passes the MCP SDK's `extra`); the call itself does not read it. */
  readonly context?: Context;
}

/** What createTools gives every call of its tools. */
export interface ToolSettings {
  /** The options each projection takes; a call adds its signal, and bounds their `timeoutMs` by what is left of its own. */
  readonly projection?: ProjectOptions;
  /**
   * The id book shared by the processes that serve the tools; when not given, the process's own,
   * in memory, looked up without waiting.
   */
  readonly idBook?: IdBook | undefined;
  /**
   * Ids are shown whole and taken back as given, the id book neither noted nor read: the call is a
   * `perCall` one without a book of its own, and a book shared by every caller would expand one
   * caller's short id into another's id.
   */
  readonly wholeIds?: boolean;
}

// A tool's call never changes: its query serializer is made once, at its first call, not at every one.
const querySerializers = new WeakMap<
  ToolCall,
  (query: Record<string, unknown>) => string
>();

function querySerializerOf(
  call: ToolCall,
): (query: Record<string, unknown>) => string {
  let serializer = querySerializers.get(call);
  if (!serializer) {
    serializer = queryStringFor(call.parameters);
    querySerializers.set(call, serializer);
  }
  return serializer;
}

/**
 * Why `value` cannot be written into the URL as `parameter`: a path parameter that would not be
 * one segment of the path the template names, or a query object whose members would be read as
 * another parameter or another level of this one.
 */
function urlProblem(
  call: ToolCall,
  parameter: CallParameter,
  value: unknown,
): string | undefined {
  if (parameter.in === "path") return pathSegmentProblem(value);
  if (parameter.in === "query")
    return queryValueProblem(call.parameters, parameter.name, value);
  return undefined;
}

/** Note for a not-found id the id book did not know: the model may have copied it from a result long ago. */
const FORGOTTEN =
  "if a result gave it, the full id it stands for is no longer remembered; run the tool that listed it again and pass the id it gives now";

/**
 * What a short id given to a call stands for among the ids of `kinds`: {@link fullId}, or
 * {@link recalled} from a shared book.
 */
type Lookup = (
  given: string,
  kinds: readonly string[],
) => Recalled | { readonly ambiguous: string };

/** A short id shown for several records: the argument it was given as, and the kinds it takes. */
interface Ambiguous {
  readonly name: string;
  readonly value: string;
  readonly kinds: readonly string[];
}

type Expanded =
  | { values: unknown; shortIdsGiven: Map<string, boolean> }
  | { ambiguous: Ambiguous };

/**
 * The arguments with each short id a result gave replaced by the full id `lookup` finds for it, so
 * that they are checked as the API will get them; or the first short id two records share. The
 * arguments a `next` named are sent as the API wrote them: the API never shows a short id.
 */
function withFullIds(
  call: ToolCall,
  given: unknown,
  lookup: Lookup,
  fromNext: readonly string[],
): Expanded {
  const shortIdsGiven = new Map<string, boolean>();
  if (typeof given !== "object" || given === null || Array.isArray(given))
    return { values: given, shortIdsGiven };
  let values = given as Record<string, unknown>;
  for (const parameter of call.parameters) {
    const name = parameter.argument;
    if (
      parameter.fixed ||
      name === undefined ||
      !Object.hasOwn(values, name) ||
      fromNext.includes(name)
    )
      continue;
    const value = values[name];
    const body = parameter.shortIdProperties && asObject(value);
    if (body) {
      // A body's id properties: each short id a result gave becomes the full one before the body is checked.
      let expanded = body;
      for (const [property, kinds] of parameter.shortIdProperties ?? []) {
        const id = Object.hasOwn(body, property) ? body[property] : undefined;
        if (typeof id !== "string") continue;
        const full = lookup(id, kinds);
        if (typeof full !== "string")
          return {
            ambiguous: { name: `${name}.${property}`, value: id, kinds },
          };
        if (full === id) continue;
        if (expanded === body) expanded = { ...body };
        setOwn(expanded, property, full);
      }
      if (expanded !== body) {
        if (values === given) values = { ...values };
        setOwn(values, name, expanded);
      }
      continue;
    }
    const kinds = parameter.shortIds;
    if (!kinds || parameter.in === "body") continue;
    if (Array.isArray(value)) {
      // A list of ids (`filter[task_id]=a,b`): each item a result gave in short form is sent whole.
      let items: unknown[] = value;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item !== "string") continue;
        const full = lookup(item, kinds);
        if (typeof full !== "string")
          return { ambiguous: { name: `${name}[${i}]`, value: item, kinds } };
        // Each item by its own name: a problem with the list as a whole is no forgotten id.
        shortIdsGiven.set(`${name}[${i}]`, full !== item);
        if (full === item) continue;
        if (items === value) items = [...value];
        items[i] = full;
      }
      if (items !== value) {
        if (values === given) values = { ...values };
        setOwn(values, name, items);
      }
      continue;
    }
    if (typeof value !== "string") continue;
    const full = lookup(value, kinds);
    if (typeof full !== "string") return { ambiguous: { name, value, kinds } };
    shortIdsGiven.set(name, full !== value);
    if (full !== value) {
      if (values === given) values = { ...values };
      setOwn(values, name, full);
    }
  }
  return { values, shortIdsGiven };
}

/**
 * The error for a short id shown for several records, with the forms that tell them apart. Where
 * the text is one record's whole id, which keeps it, the error says so: passed again, it is that one.
 */
function ambiguity(
  tool: string,
  { name, value }: Ambiguous,
  forms: readonly string[],
): { error: string } {
  const longer = forms
    .filter((form) => form !== value)
    .map((form) => JSON.stringify(form));
  const ambiguous = `${tool}: ${name} ${described(value)} is ambiguous`;
  if (longer.length < forms.length)
    return {
      error: `${ambiguous}: it is one record's whole id, and was shown as the short form of ${longer.length === 1 ? "another's" : `${longer.length} others'`}; pass it again for the record whose whole id it is, or the longer id of the one you mean: ${longer.join(" or ")}`,
    };
  return {
    error: `${ambiguous}: it was shown for ${longer.length} different records; pass the longer id of the one you mean: ${longer.join(" or ")}`,
  };
}

/** The arguments with their short ids expanded by this process's id book, which answers at once. */
function fromProcessBook(
  tool: string,
  call: ToolCall,
  given: unknown,
  fromNext: readonly string[],
):
  { values: unknown; shortIdsGiven: Map<string, boolean> } | { error: string } {
  const expanded = withFullIds(call, given, fullId, fromNext);
  if (!("ambiguous" in expanded)) return expanded;
  const { value, kinds } = expanded.ambiguous;
  return ambiguity(tool, expanded.ambiguous, longerForms(value, kinds));
}

/**
 * The arguments with their short ids expanded by a shared id book: each text that may be a short
 * form is recalled under each kind its argument takes, all at once, within the call's timeout. A
 * book that fails or does not answer fails the call before any request: a short id is never sent
 * as a guess. A text that can be no other id's short form, or longer than any id remembered, is
 * none the book holds, and is not asked about.
 */
async function fromSharedBook(
  tool: string,
  call: ToolCall,
  given: unknown,
  fromNext: readonly string[],
  book: IdBook,
  waits: CallWaits,
): Promise<
  { values: unknown; shortIdsGiven: Map<string, boolean> } | { error: string }
> {
  const asked = new Map<string, Parameters<Lookup>>();
  withFullIds(
    call,
    given,
    (value, kinds) => {
      if (value.length <= ID_BOOK_LONGEST_ID && mayBeShortForm(value))
        asked.set(askedKey(value, kinds), [value, kinds]);
      return value;
    },
    fromNext,
  );
  if (asked.size > MAX_SHORT_IDS_RECALLED)
    return {
      error: `${tool}: ${asked.size} different ids were given, more than the ${MAX_SHORT_IDS_RECALLED} one call looks up in the id book; pass fewer`,
    };
  let known = new Map<string, Recalled>();
  if (asked.size > 0) {
    const read = await within(
      waits,
      async () =>
        new Map(
          await Promise.all(
            [...asked].map(
              async ([key, [value, kinds]]) =>
                [key, await recalled(book, value, kinds)] as const,
            ),
          ),
        ),
    );
    if ("cancelled" in read) return { error: `${tool}: ${CANCELLED}` };
    if (!("answer" in read))
      return {
        error: `${tool}: the short ids given could not be looked up in the id book (${bookFailure(read)}), so no request was sent; try again later`,
      };
    known = read.answer;
  }
  const expanded = withFullIds(
    call,
    given,
    (value, kinds) => known.get(askedKey(value, kinds)) ?? value,
    fromNext,
  );
  if (!("ambiguous" in expanded)) return expanded;
  const { value, kinds } = expanded.ambiguous;
  const shared = known.get(askedKey(value, kinds));
  const sharers = typeof shared === "object" ? shared.sharers : [];
  const told = await within(waits, () =>
    rememberLongerForms(book, value, sharers),
  );
  if ("cancelled" in told) return { error: `${tool}: ${CANCELLED}` };
  const records = new Set(sharers.map(([id]) => id)).size;
  if (!("answer" in told))
    return {
      error: `${tool}: ${expanded.ambiguous.name} ${described(value)} is ambiguous: it was shown for ${records} different records, and the longer ids that tell them apart could not be stored in the id book (${bookFailure(told)}); try again later`,
    };
  return ambiguity(tool, expanded.ambiguous, told.answer);
}

/**
 * The most texts one call asks a shared id book about: a list argument of ids is otherwise bounded
 * only by the arguments' size, and each text is a round trip to the store.
 */
export const MAX_SHORT_IDS_RECALLED = 100;

/** A text given as a short id, with the kinds its argument takes: one look-up in a shared book. */
const askedKey = (value: string, kinds: readonly string[]) =>
  JSON.stringify([value, kinds]);

/** Why a shared id book gave no answer: what it threw, or that it took longer than the call's timeout. */
function bookFailure(
  sent: { readonly thrown: unknown } | { readonly timedOut: number },
): string {
  if ("timedOut" in sent)
    return `it did not answer within ${sent.timedOut / 1000} seconds`;
  // A store's own words may name its host or credentials: the model hears that it failed, not what it said.
  return sent.thrown instanceof IdBookAnswerError
    ? messageOf(sent.thrown)
    : "the store failed";
}

/** What went wrong when the client threw: a network failure is worth retrying, the rest are not. */
function thrownMessage(tool: string, error: unknown): string {
  const message = messageOf(error);
  if (error instanceof ResponseTooLarge)
    return `${tool}: the API's answer is longer than ${MEBIBYTES} MiB, more than a call reads; ${ASK_FOR_LESS}`;
  if (error instanceof SyntaxError)
    return `${tool}: the API's answer could not be read as JSON (${message})`;
  if (error instanceof URIError)
    return `${tool}: an argument could not be written into the URL (${message})`;
  const network =
    /fetch failed|network|socket|ECONN|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|EHOSTUNREACH/i;
  const cause = error instanceof Error ? messageOf(error.cause) : "";
  if (network.test(message) || network.test(cause))
    return `${tool}: could not reach the API (${message}); try again later`;
  return `${tool}: the request could not be made (${message})`;
}

/**
 * Checks the arguments, maps words to codes and short ids to full ones, sends the request through
 * the client, and projects the response. Every failure comes back as `{ error }`, never a throw,
 * and a call ends, with an error, `options.timeoutMs` after it started or when `options.signal`
 * aborts, whatever it is waiting for.
 * Only a programming error rejects: a `timeoutMs` {@link checkedTimeoutMs} refuses.
 */
export async function callTool<R>(
  client: unknown,
  tool: string,
  call: ToolCall,
  schema: InputSchema,
  args: unknown,
  project: (response: unknown, projection: ProjectOptions) => Promise<R>,
  options: CallOptions = {},
  settings: ToolSettings = {},
): Promise<ToolOutcome<R>> {
  if (options.timeoutMs !== undefined)
    checkedTimeoutMs(options.timeoutMs, `the options of a ${tool} call`);
  try {
    return await callOrError(
      client,
      tool,
      call,
      schema,
      args,
      project,
      waitsOf(options),
      settings,
    );
  } catch (error) {
    // Arguments with throwing getters, a client that is not one: still an answer, never a throw.
    return { error: `${tool}: the call failed (${messageOf(error)})` };
  }
}

async function callOrError<R>(
  client: unknown,
  tool: string,
  call: ToolCall,
  schema: InputSchema,
  args: unknown,
  project: (response: unknown, projection: ProjectOptions) => Promise<R>,
  waits: CallWaits,
  { projection = {}, idBook, wholeIds }: ToolSettings,
): Promise<ToolOutcome<R>> {
  const tooLarge = argumentsSizeProblem(args);
  if (tooLarge) return { error: `${tool}: ${tooLarge}` };
  const page = call.nextPage
    ? nextPageArguments(tool, call.parameters, schema, args)
    : { values: args, fromNext: [] };
  if ("error" in page) return page;
  // This process's book answers at once: the call waits for nothing it does not need.
  const expanded = wholeIds
    ? { values: page.values ?? {}, shortIdsGiven: new Map<string, boolean>() }
    : idBook === undefined
      ? fromProcessBook(tool, call, page.values ?? {}, page.fromNext)
      : await fromSharedBook(
          tool,
          call,
          page.values ?? {},
          page.fromNext,
          idBook,
          waits,
        );
  if ("error" in expanded) return expanded;
  const { values: given, shortIdsGiven } = expanded;
  const problem = argumentProblem(schema, given, "");
  if (problem) {
    const unknownShortId = [...shortIdsGiven].find(
      ([name, known]) => !known && problem.startsWith(`${name} `),
    );
    if (
      page.fromNext.some(
        (name) =>
          /^[ .[]/.test(problem.slice(name.length)) && problem.startsWith(name),
      )
    )
      return {
        error: `${tool}: next is not a page this tool can ask for: ${problem}; pass the \`next\` of a ${tool} result as it was given`,
      };
    return {
      error: `${tool}: bad arguments: ${problem}${unknownShortId ? `; ${FORGOTTEN}` : ""}`,
    };
  }
  const values = given as Record<string, unknown>;
  // Headers only when the tool sends one: most calls carry a path and a query alone.
  const params: {
    path: Record<string, unknown>;
    query: Record<string, unknown>;
    header?: Record<string, unknown>;
  } = {
    path: {},
    query: {},
  };
  let body: unknown;
  let idArgument: string | undefined;
  for (const parameter of call.parameters) {
    const name = parameter.argument;
    let value = parameter.fixed
      ? parameter.fixed.value
      : name === undefined || !Object.hasOwn(values, name)
        ? undefined
        : values[name];
    if (value === undefined) continue;
    value = coded(parameter.legend, value);
    const object = parameter.propertyLegends && asObject(value);
    if (object) {
      const withCodes: Record<string, unknown> = { ...object };
      for (const [property, words] of parameter.propertyLegends ?? [])
        if (Object.hasOwn(object, property))
          setOwn(withCodes, property, codeOf(words, object[property]));
      value = withCodes;
    }
    const unwritable = urlProblem(call, parameter, value);
    if (unwritable)
      return { error: `${tool}: ${name ?? parameter.name} ${unwritable}` };
    if (
      parameter.shortIds &&
      name !== undefined &&
      (shortIdsGiven.get(name) || idArgument === undefined)
    )
      idArgument = name;
    if (parameter.in === "body") body = value;
    else {
      params[parameter.in] ??= {};
      setOwn(params[parameter.in]!, parameter.name, value);
    }
  }
  const clash = queryMembersProblem(
    call.parameters,
    params.query,
    (parameterName) =>
      call.parameters.find((p) => p.in === "query" && p.name === parameterName)
        ?.argument ?? parameterName,
  );
  if (clash) return { error: `${tool}: ${clash}` };
  const send = asObject(client)?.[call.method.toUpperCase()];
  if (typeof send !== "function")
    return {
      error: `${tool}: the client cannot send ${call.method.toUpperCase()} requests`,
    };
  const init = {
    params,
    querySerializer: querySerializerOf(call),
    middleware: [RESPONSE_BOUND],
    ...(body !== undefined
      ? {
          body,
          headers: { "Content-Type": call.bodyMediaType ?? "application/json" },
        }
      : {}),
  };
  const sent = await within(waits, (signal) =>
    (send as HttpMethod).call(client, call.path, { ...init, signal }),
  );
  if ("cancelled" in sent) return { error: `${tool}: ${CANCELLED}` };
  // A request that may change something (any but GET and HEAD) is never invited again unchecked.
  const method = call.method.toUpperCase();
  const writes = method !== "GET" && method !== "HEAD";
  /** An error of a write the API may have taken, `made` saying whether it did: never "try again later". */
  const unchecked = (error: string, made: "was" | "may have been") => ({
    error: writes
      ? `${error.replace(/; try again later$/, "")}; the ${method} request ${made} made, so check whether it took effect before sending it again`
      : error,
  });
  if ("timedOut" in sent)
    return unchecked(
      `${tool}: the API did not answer within ${sent.timedOut / 1000} seconds; try again later`,
      "may have been",
    );
  // The client may throw once the request is out: its answer unreadable, the connection cut.
  if ("thrown" in sent)
    return sent.thrown instanceof URIError
      ? { error: thrownMessage(tool, sent.thrown) }
      : unchecked(thrownMessage(tool, sent.thrown), "may have been");
  const answer = sent.answer as
    Partial<Awaited<ReturnType<HttpMethod>>> | undefined;
  const response = asObject(answer?.response);
  if (
    answer === undefined ||
    response === undefined ||
    typeof response["status"] !== "number"
  )
    return {
      error: `${tool}: the client gave no response (an openapi-fetch client answers { data, error, response })`,
    };
  const status = response["status"];
  // Once the API has answered 2xx, a write it took is said to be made, so it is not sent twice.
  const afterAnswer = (error: string) => unchecked(error, "was");
  if (response["ok"] !== true) {
    const message = apiMessage(answer.error);
    const note =
      status === 404 && idArgument !== undefined
        ? notFoundNote(
            idArgument,
            values[idArgument],
            shortIdsGiven.get(idArgument),
          )
        : undefined;
    return {
      error: `${tool}: the API answered ${status}${message ? `: ${message}` : ""}${note ? `; ${note}` : ""}`,
    };
  }
  if (problemDocument(response))
    return afterAnswer(
      `${tool}: the API answered ${status} with a problem document${problemWords(answer.data)}, so there is no result to show`,
    );
  // An empty body: openapi-fetch gives undefined, a client that reads text gives "". JSON's null is a body.
  if (answer.data === undefined || answer.data === "")
    return afterAnswer(
      `${tool}: the API answered ${status} with an empty body, so there is no result to show; this is not an empty list`,
    );
  // The result's short ids are kept back until it has passed every check: one refused is never handed out.
  const handOuts: string[] = [];
  let result: R;
  try {
    const exchange: PageExchange | undefined = call.nextPage
      ? {
          url: answeredUrl(response, asObject(answer.request)),
          headers: headersOf(response["headers"]),
          query: params.query,
        }
      : undefined;
    result = await project(answer.data, {
      ...projection,
      ...(waits.signal ? { signal: waits.signal } : {}),
      // The call's timeout bounds its resolvers too: they have what is left of it.
      timeoutMs: Math.min(projection.timeoutMs ?? Infinity, timeLeft(waits)),
      handOuts,
      ...(wholeIds ? { wholeIds } : {}),
      ...(exchange ? { exchange } : {}),
    });
  } catch (error) {
    if (error instanceof ResponseShapeError)
      return afterAnswer(
        `${tool}: the API answered ${status} but its body ${error.problem}, so there is no result to show`,
      );
    if (error instanceof TooManyLabelsError)
      return afterAnswer(`${tool}: ${error.message}; ${ASK_FOR_LESS}`);
    if (error instanceof ResolverError && timeLeft(waits) <= 1)
      return afterAnswer(
        `${tool}: the call did not finish within ${waits.timeoutMs / 1000} seconds, the time it has: ${error.message}; try again later`,
      );
    if (error instanceof ResolverError)
      return afterAnswer(
        `${tool}: the API's answer was read, but the names in it could not be looked up: ${error.message}`,
      );
    return afterAnswer(
      `${tool}: the response could not be read (${messageOf(error)})`,
    );
  }
  // Projecting and writing the text run without waiting, where no timer can stop them: the time is checked after each.
  if (timeIsUp(waits)) return afterAnswer(outOfTime(tool, waits));
  cutLongStrings(result);
  const text = serializeToolResult(result);
  if (timeIsUp(waits)) return afterAnswer(outOfTime(tool, waits));
  if (text.length > MAX_RESULT_TEXT)
    return afterAnswer(
      `${tool}: the result is ${text.length} characters long, more than the ${MAX_RESULT_TEXT} a result may have; ${ASK_FOR_LESS}`,
    );
  // Ids shown whole are noted in no book: another caller's call never reads them.
  if (wholeIds) return { result, text };
  if (!idBook) {
    handOutHeld(handOuts);
    return { result, text };
  }
  const entries = entriesToRemember(handOuts);
  if (entries.length > 0) {
    const stored = await within(waits, () => idBook.remember(entries));
    if ("cancelled" in stored) return { error: `${tool}: ${CANCELLED}` };
    if (!("answer" in stored)) {
      return afterAnswer(
        `${tool}: the API answered ${status}, but the short ids of its result could not be stored in the id book (${bookFailure(stored)}), so the result is not shown: its short ids could not be passed back; try again later`,
      );
    }
  }
  return { result, text };
}

/** A response's headers, where the client gives them as a `Headers` (or anything with its `get`). */
function headersOf(headers: unknown): PageExchange["headers"] {
  const object = asObject(headers);
  if (!object || typeof object["get"] !== "function") return undefined;
  const get = object["get"] as (name: string) => unknown;
  return {
    get: (name) => {
      const value = get.call(object, name);
      return typeof value === "string" ? value : null;
    },
  };
}

/**
 * Cuts, in place, every string of a result longer than {@link MAX_VALUE_TEXT} characters to that
 * many, followed by `… (N characters)`: a string stays a string, so the result keeps its type.
 */
function cutLongStrings(result: unknown): void {
  const seen = new Set<object>();
  const pending: unknown[] = [result];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null || seen.has(value))
      continue;
    seen.add(value);
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const part = object[key];
      if (typeof part === "string") {
        if (part.length > MAX_VALUE_TEXT)
          Reflect.set(object, key, clipped(part, MAX_VALUE_TEXT));
      } else if (typeof part === "object" && part !== null) pending.push(part);
    }
  }
}

/**
 * Whether `id` may be a short id a result gave, that the id book has since forgotten: it has the
 * shape of one, and is not a full id (a full id's short form is shorter than itself).
 */
function mayBeForgottenShortId(id: unknown): boolean {
  return typeof id === "string" && mayBeShortForm(id) && shortId(id) === id;
}

/**
 * What a 404 for an id argument may mean beyond the API's words: for a short id from the book, that
 * the record is gone or of another kind; for an id that may be a forgotten short id, how to get the
 * full id again; for any other id, nothing.
 */
function notFoundNote(
  name: string,
  sent: unknown,
  fromBook: boolean | undefined,
): string | undefined {
  if (fromBook)
    return `no record of this kind has the id given as ${name}: it may have been deleted, or it is another kind of record's id`;
  if (mayBeForgottenShortId(sent))
    return `no record has the id ${described(sent)}; ${FORGOTTEN}`;
  return undefined;
}

const CANCELLED = "the call was cancelled";

/** What to do about an answer too large to show. */
const ASK_FOR_LESS =
  "ask for less (a smaller page, fewer fields or a narrower filter, where the tool takes them)";

/**
 * A call's signal, and its `timeoutMs` counted from its start: every wait of the call (the id
 * book, the request, the resolvers) has what is left of it, so the timeout bounds the whole call.
 */
export interface CallWaits {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  readonly endsAt: number;
}

export function waitsOf(options: CallOptions): CallWaits {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  return { signal: options.signal, timeoutMs, endsAt: Date.now() + timeoutMs };
}

/** Whether the call has used all its time. */
const timeIsUp = (waits: CallWaits) => Date.now() >= waits.endsAt;

/** The error of a call that used all its time on its own work, after the API answered. */
const outOfTime = (tool: string, waits: CallWaits) =>
  `${tool}: the call did not finish within ${waits.timeoutMs / 1000} seconds, the time it has: reading the API's answer took longer; ${ASK_FOR_LESS}`;

/** The milliseconds left of a call's time, at least one; `Infinity` for a call that waits for ever. */
export const timeLeft = (waits: CallWaits) =>
  Math.max(1, waits.endsAt - Date.now());

export type Sent<T> =
  | { readonly answer: T }
  | { readonly thrown: unknown }
  | { readonly timedOut: number }
  | { readonly cancelled: true };

/**
 * What `start` answers, or why there is none: it threw, it took longer than the call's timeout, or
 * the caller cancelled. The signal `start` is given aborts in the last two cases, so fetch stops too.
 */
export function within<T>(
  waits: CallWaits,
  start: (signal: AbortSignal) => Promise<T>,
): Promise<Sent<T>> {
  const controller = new AbortController();
  return new Promise<Sent<T>>((settle) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (sent: Sent<T>) => {
      controller.abort();
      done(sent);
    };
    const onAbort = () => stop({ cancelled: true });
    const done = (sent: Sent<T>) => {
      clearTimeout(timer);
      waits.signal?.removeEventListener("abort", onAbort);
      settle(sent);
    };
    if (waits.signal?.aborted) return stop({ cancelled: true });
    waits.signal?.addEventListener("abort", onAbort);
    timer = timerFor(timeLeft(waits), () =>
      stop({ timedOut: waits.timeoutMs }),
    );
    Promise.resolve()
      .then(() => start(controller.signal))
      .then(
        (answer) => done({ answer }),
        (thrown: unknown) => done({ thrown }),
      );
  });
}
