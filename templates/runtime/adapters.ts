// The tools served over MCP, and their definitions as Anthropic's and OpenAI's APIs take them.

import type { CallOptions, ToolOutcome } from "./call-tool.js";
import type { JsonSchema, ToolInputSchema } from "./json-schema.js";
import { asObject } from "./json.js";
import { described, messageOf } from "./quoting.js";

/** A tool as the adapters call it: any arguments in, an outcome out; it may take the call's options. */
export type AnyTool = (
  args: never,
  options?: CallOptions<never>,
) => Promise<ToolOutcome<unknown>>;

/**
 * What a client may assume of a tool, as MCP's `ToolAnnotations` say it: hints, never a promise a
 * client can rely on for safety.
 */
export type ToolHints = {
  /** It changes nothing (GET, HEAD). */
  readOnlyHint?: boolean;
  /** It may delete or overwrite (DELETE); without it, a client assumes a tool that changes things may. */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more (PUT, DELETE). */
  idempotentHint?: boolean;
  /** It reaches a world beyond a closed set of things. */
  openWorldHint?: boolean;
};

export interface ToolDefinition {
  readonly name: string;
  /** A short name for people, shown by MCP clients instead of `name`. */
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  readonly outputSchema: JsonSchema;
  readonly annotations?: ToolHints;
}

/** The schemas the MCP SDK matches requests with, as the consumer imports them from `@modelcontextprotocol/sdk/types.js`. */
export interface McpRequestSchemas {
  readonly ListToolsRequestSchema: unknown;
  readonly CallToolRequestSchema: unknown;
}

/** The MCP SDK's low-level `Server`, as registerTools uses it. */
export type McpLowLevelServer = {
  setRequestHandler: (...args: never[]) => unknown;
};

/** The MCP SDK's `McpServer`, whose own tools (`registerTool`) are served beside these. */
export type McpHighLevelServer = {
  server: McpLowLevelServer;
  registerTool: (...args: never[]) => unknown;
};

type CallRequest = {
  params: { name: string; arguments?: Record<string, unknown> };
};
/**
 * What the MCP SDK passes a handler besides the request (its `RequestHandlerExtra`): the signal that
 * aborts when the client cancels, the caller's `authInfo`, `sessionId`, `requestInfo` and more.
 */
type RequestExtra = { signal?: AbortSignal } | undefined;
type Handler = (request: CallRequest, extra: RequestExtra) => unknown;

/**
 * Calls the tool a model named with the arguments it gave. A name no tool has is an error for the
 * model, the name quoted bounded and escaped, since the model wrote it.
 */
export function callToolByName(
  tools: { readonly [name: string]: AnyTool },
  name: string,
  args: unknown,
  call: CallOptions = {},
): Promise<ToolOutcome<unknown>> {
  const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (!tool)
    return Promise.resolve({
      error: `no tool ${described(name)}; tools: ${Object.keys(tools).join(", ")}`,
    });
  return tool(args as never, call as CallOptions<never>);
}

/** The tool's outcome, or an error as soon as `signal` aborts, since a tool that ignores it must not keep the request open. */
function untilCancelled(
  outcome: Promise<ToolOutcome<unknown>>,
  signal: AbortSignal | undefined,
): Promise<ToolOutcome<unknown>> {
  if (!signal) return outcome;
  const cancelled = { error: "the call was cancelled" };
  if (signal.aborted) return Promise.resolve(cancelled);
  return new Promise((settle) => {
    const onAbort = () => settle(cancelled);
    signal.addEventListener("abort", onAbort, { once: true });
    outcome.then(
      (answer) => {
        signal.removeEventListener("abort", onAbort);
        settle(answer);
      },
      (thrown: unknown) => {
        signal.removeEventListener("abort", onAbort);
        settle({ error: `the call failed (${messageOf(thrown)})` });
      },
    );
  });
}

/**
 * The handler a server already has for `method`. The SDK keeps them in `_requestHandlers`, which is
 * not its public API: it is read so that the server's own tools are served beside these.
 */
function handlerOf(server: object, method: string): Handler | undefined {
  const handlers: unknown = Reflect.get(server, "_requestHandlers");
  return handlers instanceof Map
    ? (handlers.get(method) as Handler)
    : undefined;
}

const isHighLevel = (
  server: McpLowLevelServer | McpHighLevelServer,
): server is McpHighLevelServer =>
  "registerTool" in server &&
  typeof server.registerTool === "function" &&
  typeof server.server?.setRequestHandler === "function";

/**
 * The low-level server to set the handlers on, and the handlers it had: an `McpServer`'s own, with
 * each of these tools' names held there (disabled, so its list leaves them out) so that a tool of
 * the same name registered later throws, as it does between its own tools.
 */
function serverFor(
  target: McpLowLevelServer | McpHighLevelServer,
  definitions: readonly ToolDefinition[],
): { server: McpLowLevelServer; list?: Handler; call?: Handler } {
  if (isHighLevel(target)) {
    const register = target.registerTool as unknown as (
      name: string,
      config: { description: string },
      callback: () => unknown,
    ) => { disable: () => void };
    for (const definition of definitions)
      register
        .call(
          target,
          definition.name,
          { description: definition.description },
          () => {
            throw new Error(`${definition.name} is served by registerTools`);
          },
        )
        .disable();
    const list = handlerOf(target.server, "tools/list");
    const call = handlerOf(target.server, "tools/call");
    if (!list || !call)
      throw new Error(
        "registerTools: this McpServer keeps its tool handlers where this MCP SDK version's did not; pass its low-level `server` instead, with no tools of its own",
      );
    return { server: target.server, list, call };
  }
  // A low-level server declares the tools capability before it connects, or cannot serve tools.
  const declare: unknown = Reflect.get(target, "registerCapabilities");
  if (typeof declare === "function" && !Reflect.get(target, "transport"))
    declare.call(target, { tools: {} });
  const list = handlerOf(target, "tools/list");
  const call = handlerOf(target, "tools/call");
  return {
    server: target,
    ...(list ? { list } : {}),
    ...(call ? { call } : {}),
  };
}

/**
 * Whether the server's own handler answers a call of `name`: a tool its own list gives. A name it
 * does not list is answered here, as every unknown name is, escaped and cut, where an `McpServer`
 * would echo it raw (`Tool <name> not found`, or `disabled` for `__proto__`). Without a list of its
 * own, the server's handler answers every name these tools do not have.
 */
async function servesItself(
  ownList: Handler | undefined,
  name: string,
  extra: RequestExtra,
): Promise<boolean> {
  if (!ownList) return true;
  const listRequest = { method: "tools/list", params: {} } as unknown;
  const listed = (await ownList(listRequest as CallRequest, extra)) as {
    tools?: unknown;
  };
  return (
    Array.isArray(listed?.tools) &&
    listed.tools.some((tool: unknown) => asObject(tool)?.["name"] === name)
  );
}

/**
 * Serves the tools on the MCP SDK's `McpServer` or low-level `Server`: `tools/list` gives the
 * server's own tools and these definitions as they are, `tools/call` gives `structuredContent` and
 * one text block, or `isError` with the message. A name none of these tools has goes to the
 * server's own handler when its own list gives it ({@link servesItself}); any other is answered
 * `no tool "<name>"`. Each tool gets the SDK's `extra` as its call's `context`.
 */
export function registerTools(
  target: McpLowLevelServer | McpHighLevelServer,
  definitions: readonly ToolDefinition[],
  tools: { readonly [name: string]: AnyTool },
  schemas: McpRequestSchemas,
): void {
  const {
    server,
    list: ownList,
    call: ownCall,
  } = serverFor(target, definitions);
  const on = server.setRequestHandler as unknown as (
    schema: unknown,
    handler: Handler,
  ) => void;
  on.call(server, schemas.ListToolsRequestSchema, async (request, extra) => {
    const own = ownList
      ? ((await ownList(request, extra)) as { tools?: unknown })
      : undefined;
    const ownTools = own?.tools;
    return {
      ...own,
      tools: [...(Array.isArray(ownTools) ? ownTools : []), ...definitions],
    };
  });
  on.call(server, schemas.CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    if (
      !Object.hasOwn(tools, name) &&
      ownCall &&
      (await servesItself(ownList, name, extra))
    )
      return ownCall(request, extra);
    const signal = extra?.signal;
    const outcome = await untilCancelled(
      Promise.resolve().then(() =>
        callToolByName(tools, name, args, {
          ...(signal ? { signal } : {}),
          context: extra as never,
        }),
      ),
      signal,
    );
    if ("error" in outcome)
      return {
        content: [{ type: "text", text: outcome.error }],
        isError: true,
      };
    return {
      content: [{ type: "text", text: outcome.text }],
      structuredContent: outcome.result,
    };
  });
}

/** A copy of a definition's schema, the consumer's to change without changing the tools' own. */
const copied = <S extends JsonSchema>(schema: S): S =>
  JSON.parse(JSON.stringify(schema)) as S;

/** A tool as Anthropic's Messages API takes it in `tools` (`Anthropic.Tool`). */
export type AnthropicTool = {
  name: string;
  description: string;
  input_schema: ToolInputSchema;
};

/** The definitions as Anthropic's Messages API takes them in `tools`. */
export function anthropicTools(
  definitions: readonly ToolDefinition[],
): AnthropicTool[] {
  return definitions.map((d) => ({
    name: d.name,
    description: d.description,
    input_schema: copied(d.inputSchema),
  }));
}

/** A tool as OpenAI's Chat Completions API takes it in `tools` (`ChatCompletionTool`). */
export type OpenAIChatTool = {
  type: "function";
  function: { name: string; description: string; parameters: ToolInputSchema };
};

/** The definitions as OpenAI's Chat Completions API takes them in `tools`. */
export function openaiTools(
  definitions: readonly ToolDefinition[],
): OpenAIChatTool[] {
  return definitions.map((d) => ({
    type: "function",
    function: {
      name: d.name,
      description: d.description,
      parameters: copied(d.inputSchema),
    },
  }));
}

/**
 * A tool as OpenAI's Responses API takes it in `tools` (`FunctionTool`). Not `strict`: strict
 * mode wants every property required, and an argument the model may leave out is not.
 */
export type OpenAIResponsesTool = {
  type: "function";
  name: string;
  description: string;
  parameters: ToolInputSchema;
  strict: false;
};

/** The definitions as OpenAI's Responses API takes them in `tools`. */
export function openaiResponsesTools(
  definitions: readonly ToolDefinition[],
): OpenAIResponsesTool[] {
  return definitions.map((d) => ({
    type: "function",
    name: d.name,
    description: d.description,
    parameters: copied(d.inputSchema),
    strict: false,
  }));
}
