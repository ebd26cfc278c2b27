// A tool call: arguments checked and mapped, the request sent through the consumer's client, the response projected.

import { argumentProblem, type InputSchema } from "./arguments.js";
import { fullId } from "./id-book.js";
import { asObject } from "./json.js";
import { type QueryStyle, queryStringFor } from "./query-string.js";
import { serializeToolResult } from "./table-text.js";

/** How one operation parameter is filled from the model's arguments. */
export interface CallParameter {
  readonly name: string;
  readonly in: "path" | "query" | "body";
  readonly argument?: string;
  readonly fixed?: { readonly value: unknown };
  /** Word to code. */
  readonly legend?: ReadonlyArray<readonly [word: string, code: string | number]>;
  readonly shortIds: boolean;
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
export type ToolOutcome<R> = { readonly result: R; readonly text: string } | { readonly error: string };

/** The part of an openapi-fetch client a call uses: `client.GET(path, init)` and its siblings. */
export type HttpMethod = (
  path: string,
  init: object,
) => Promise<{ data?: unknown; error?: unknown; response: { status: number; ok: boolean } }>;

/** The API's own words for an error, when it gives short ones. */
export function apiMessage(body: unknown): string | undefined {
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
  const params: { path: Record<string, unknown>; query: Record<string, unknown> } = { path: {}, query: {} };
  let body: unknown;
  let idArgument: string | undefined;
  for (const parameter of call.parameters) {
    let value = parameter.fixed ? parameter.fixed.value : parameter.argument === undefined ? undefined : values[parameter.argument];
    if (value === undefined) continue;
    if (parameter.legend) {
      const code = parameter.legend.find(([word]) => word === value);
      if (code) value = code[1];
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
    if (parameter.in === "body") body = value;
    else params[parameter.in][parameter.name] = value;
  }
  const send = (client as Record<string, HttpMethod | undefined>)[call.method.toUpperCase()];
  if (typeof send !== "function") return { error: `${tool}: the client cannot send ${call.method.toUpperCase()} requests` };
  let answer: Awaited<ReturnType<HttpMethod>>;
  try {
    const init = {
      params,
      querySerializer: queryStringFor(call.parameters),
      ...(body !== undefined ? { body, headers: { "Content-Type": call.bodyMediaType ?? "application/json" } } : {}),
    };
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
