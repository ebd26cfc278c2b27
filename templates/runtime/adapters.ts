// The tools served over MCP, and their definitions as Anthropic's and OpenAI's APIs take them.

import type { InputSchema } from "./arguments.js";
import { messageOf } from "./quoting.js";
import type { CallOptions, ToolOutcome } from "./call-tool.js";

/** A tool as the adapters call it: any arguments in, an outcome out; it may take the call's options. */
export type AnyTool = (
  args: never,
  options?: CallOptions,
) => Promise<ToolOutcome<unknown>>;

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

type CallRequest = {
  params: { name: string; arguments?: Record<string, unknown> };
};
/** What the MCP SDK passes a handler besides the request: the signal that aborts when the client cancels. */
type RequestExtra = { signal?: AbortSignal } | undefined;

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
 * Serves the tools on the MCP SDK's low-level `Server`: `tools/list` gives the definitions as they
 * are, `tools/call` gives `structuredContent` and one text block, or `isError` with the message.
 */
export function registerTools(
  server: { setRequestHandler: (...args: never[]) => unknown },
  definitions: readonly ToolDefinition[],
  tools: { readonly [name: string]: AnyTool },
  schemas: McpRequestSchemas,
): void {
  const on = server.setRequestHandler as unknown as (
    schema: unknown,
    handler: (request: CallRequest, extra: RequestExtra) => unknown,
  ) => void;
  on.call(server, schemas.ListToolsRequestSchema, () => ({
    tools: definitions,
  }));
  on.call(
    server,
    schemas.CallToolRequestSchema,
    async (request: CallRequest, extra: RequestExtra) => {
      const tool = Object.hasOwn(tools, request.params.name)
        ? tools[request.params.name]
        : undefined;
      if (!tool)
        return {
          content: [
            {
              type: "text",
              text: `no tool "${request.params.name}"; tools: ${Object.keys(tools).join(", ")}`,
            },
          ],
          isError: true,
        };
      const signal = extra?.signal;
      const outcome = await untilCancelled(
        Promise.resolve().then(() =>
          tool(
            (request.params.arguments ?? {}) as never,
            signal ? { signal } : {},
          ),
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
    },
  );
}

/** The definitions as Anthropic's Messages API takes them in `tools`. */
export function anthropicTools(definitions: readonly ToolDefinition[]) {
  return definitions.map((d) => ({
    name: d.name,
    description: d.description,
    input_schema: d.inputSchema,
  }));
}

/** The definitions as OpenAI's Chat Completions API takes them in `tools`. */
export function openaiTools(definitions: readonly ToolDefinition[]) {
  return definitions.map((d) => ({
    type: "function" as const,
    function: {
      name: d.name,
      description: d.description,
      parameters: d.inputSchema,
    },
  }));
}
