// A tool call: arguments checked and mapped, the request sent through the consumer's client, the response projected.

import {
  argumentProblem,
  argumentsSizeProblem,
  type InputSchema,
} from "./arguments.js";
import { fullId, longerForms } from "./id-book.js";
import { asObject, setOwn } from "./json.js";
import { type QueryStyle, queryStringFor } from "./query-string.js";
import { described, messageOf } from "./quoting.js";
import { serializeToolResult } from "./table-text.js";
import { checkedTimeoutMs, timerFor } from "./timeouts.js";

/** Words to codes, as a parameter or body property takes them. */
type Legend = ReadonlyArray<readonly [word: string, code: string | number]>;

/** The code for a word, or the value as given when it is no word of the legend. */
const codeOf = (legend: Legend, value: unknown): unknown =>
  legend.find(([word]) => word === value)?.[1] ?? value;

/** How one operation parameter is filled from the model's arguments. */
export interface CallParameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "body";
  readonly argument?: string;
  readonly fixed?: { readonly value: unknown };
  /** Word to code. */
  readonly legend?: Legend;
  readonly shortIds: boolean;
  /** The body's top-level properties that take short ids. */
  readonly shortIdProperties?: readonly string[];
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
}

/** A tool's answer: the projected result and its text, or an error the model can read and act on. */
export type ToolOutcome<R> =
  { readonly result: R; readonly text: string } | { readonly error: string };

/** The part of an openapi-fetch client a call uses: `client.GET(path, init)` and its siblings. */
export type HttpMethod = (
  path: string,
  init: object,
) => Promise<{
  data?: unknown;
  error?: unknown;
  response: { status: number; ok: boolean };
}>;

/** The API's own words for an error, when it gives short ones. */
export function apiMessage(body: unknown): string | undefined {
  const object = asObject(body);
  const errors = object?.["errors"];
  const first = Array.isArray(errors) ? asObject(errors[0]) : object;
  for (const key of ["detail", "title", "message", "error"]) {
    const text = first?.[key];
    if (typeof text === "string" && text.trim() !== "")
      return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }
  return typeof body === "string" && body.length > 0 && body.length <= 200
    ? body
    : undefined;
}

/** How long a call waits for the API before answering with an error, unless told otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

export interface CallOptions {
  /** How long to wait for the API's answer, `Infinity` for ever; {@link DEFAULT_CALL_TIMEOUT_MS} unless given. */
  readonly timeoutMs?: number;
  /** Cancels the call, as MCP's `extra.signal` does when the client gives up. */
  readonly signal?: AbortSignal;
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

/** Path values that would change which path is requested: `..` climbs, `.` and the empty string drop a segment. */
const SEGMENT_CHANGERS = new Set(["", ".", ".."]);

/** Note for a not-found id the id book did not know: the model may have copied it from a result long ago. */
const FORGOTTEN =
  "if a result gave it, the full id it stands for is no longer remembered; run the tool that listed it again and pass the id it gives now";

/**
 * The arguments with each short id a result gave replaced by the full id it stands for, so that
 * they are checked as the API will get them; or the error for a short id two records share.
 */
function withFullIds(
  tool: string,
  call: ToolCall,
  given: unknown,
):
  { values: unknown; shortIdsGiven: Map<string, boolean> } | { error: string } {
  const shortIdsGiven = new Map<string, boolean>();
  if (typeof given !== "object" || given === null || Array.isArray(given))
    return { values: given, shortIdsGiven };
  let values = given as Record<string, unknown>;
  const ambiguous = (name: string, value: string) => {
    const choices = longerForms(value).map((form) => JSON.stringify(form));
    return {
      error: `${tool}: ${name} ${described(value)} is ambiguous: it was shown for ${choices.length} different records; pass the longer id of the one you mean: ${choices.join(" or ")}`,
    };
  };
  for (const parameter of call.parameters) {
    const name = parameter.argument;
    if (parameter.fixed || name === undefined || !Object.hasOwn(values, name))
      continue;
    const value = values[name];
    const body = parameter.shortIdProperties && asObject(value);
    if (body) {
      // A body's id properties: each short id a result gave becomes the full one before the body is checked.
      let expanded = body;
      for (const property of parameter.shortIdProperties ?? []) {
        const id = Object.hasOwn(body, property) ? body[property] : undefined;
        if (typeof id !== "string") continue;
        const full = fullId(id);
        if (typeof full !== "string")
          return ambiguous(`${name}.${property}`, id);
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
    if (
      !parameter.shortIds ||
      parameter.in === "body" ||
      typeof value !== "string"
    )
      continue;
    const full = fullId(value);
    if (typeof full !== "string") return ambiguous(name, value);
    shortIdsGiven.set(name, full !== value);
    if (full !== value) {
      if (values === given) values = { ...values };
      setOwn(values, name, full);
    }
  }
  return { values, shortIdsGiven };
}

/** What went wrong when the client threw: a network failure is worth retrying, the rest are not. */
function thrownMessage(tool: string, error: unknown): string {
  const message = messageOf(error);
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
 * and a call that gets no answer ends after `options.timeoutMs` or when `options.signal` aborts.
 * Only a programming error rejects: a `timeoutMs` {@link checkedTimeoutMs} refuses.
 */
export async function callTool<R>(
  client: unknown,
  tool: string,
  call: ToolCall,
  schema: InputSchema,
  args: unknown,
  project: (response: unknown) => Promise<R>,
  options: CallOptions = {},
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
      options,
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
  project: (response: unknown) => Promise<R>,
  options: CallOptions,
): Promise<ToolOutcome<R>> {
  const tooLarge = argumentsSizeProblem(args);
  if (tooLarge) return { error: `${tool}: ${tooLarge}` };
  const expanded = withFullIds(tool, call, args ?? {});
  if ("error" in expanded) return expanded;
  const { values: given, shortIdsGiven } = expanded;
  const problem = argumentProblem(schema, given, "");
  if (problem) {
    const unknownShortId = [...shortIdsGiven].find(
      ([name, known]) => !known && problem.startsWith(`${name} `),
    );
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
    const legend = parameter.legend;
    // An array parameter with a legend takes a list of words and sends the list of codes.
    if (legend)
      value = Array.isArray(value)
        ? value.map((word) => codeOf(legend, word))
        : codeOf(legend, value);
    const object = parameter.propertyLegends && asObject(value);
    if (object) {
      const coded: Record<string, unknown> = { ...object };
      for (const [property, words] of parameter.propertyLegends ?? [])
        if (Object.hasOwn(object, property))
          setOwn(coded, property, codeOf(words, object[property]));
      value = coded;
    }
    if (
      parameter.in === "path" &&
      typeof value === "string" &&
      SEGMENT_CHANGERS.has(value)
    )
      return {
        error: `${tool}: ${name ?? parameter.name} cannot be ${JSON.stringify(value)}: it would change which path is requested`,
      };
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
  const send = asObject(client)?.[call.method.toUpperCase()];
  if (typeof send !== "function")
    return {
      error: `${tool}: the client cannot send ${call.method.toUpperCase()} requests`,
    };
  const init = {
    params,
    querySerializer: querySerializerOf(call),
    ...(body !== undefined
      ? {
          body,
          headers: { "Content-Type": call.bodyMediaType ?? "application/json" },
        }
      : {}),
  };
  const sent = await sendWithin(options, (signal) =>
    (send as HttpMethod).call(client, call.path, { ...init, signal }),
  );
  if ("stopped" in sent) return { error: `${tool}: ${sent.stopped}` };
  if ("thrown" in sent) return { error: thrownMessage(tool, sent.thrown) };
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
  if (response["ok"] !== true) {
    const message = apiMessage(answer.error);
    const notFound =
      status === 404 && idArgument !== undefined
        ? `; ${notFoundNote(idArgument, values[idArgument], shortIdsGiven.get(idArgument))}`
        : "";
    return {
      error: `${tool}: the API answered ${status}${message ? `: ${message}` : ""}${notFound}`,
    };
  }
  if (answer.data === undefined || answer.data === null || answer.data === "")
    return {
      error: `${tool}: the API answered ${status} with an empty body, so there is no result to show; this is not an empty list`,
    };
  let result: R;
  try {
    result = await project(answer.data);
  } catch (error) {
    return {
      error: `${tool}: the response could not be read (${messageOf(error)})`,
    };
  }
  return { result, text: serializeToolResult(result) };
}

/** Why a 404 for an id argument may not mean the model copied the id wrong. */
function notFoundNote(
  name: string,
  sent: unknown,
  fromBook: boolean | undefined,
): string {
  if (fromBook)
    return `no record of this kind has the id given as ${name}: it may have been deleted, or it is another kind of record's id`;
  return `no record has the id ${described(sent)}; ${FORGOTTEN}`;
}

type Sent =
  | { readonly answer: unknown }
  | { readonly thrown: unknown }
  | { readonly stopped: string };

/**
 * The client's answer, or why there is none: it threw, it took longer than the timeout, or the
 * caller cancelled. The request's own signal aborts in the last two cases, so fetch stops too.
 */
function sendWithin(
  options: CallOptions,
  send: (signal: AbortSignal) => Promise<unknown>,
): Promise<Sent> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const controller = new AbortController();
  return new Promise<Sent>((settle) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (reason: string) => {
      controller.abort();
      done({ stopped: reason });
    };
    const onAbort = () => stop("the call was cancelled");
    const done = (sent: Sent) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      settle(sent);
    };
    if (options.signal?.aborted) return stop("the call was cancelled");
    options.signal?.addEventListener("abort", onAbort);
    timer = timerFor(timeoutMs, () =>
      stop(
        `the API did not answer within ${timeoutMs / 1000} seconds; try again later`,
      ),
    );
    Promise.resolve()
      .then(() => send(controller.signal))
      .then(
        (answer) => done({ answer }),
        (thrown: unknown) => done({ thrown }),
      );
  });
}
