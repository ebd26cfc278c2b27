// The tools served over MCP, and their definitions as Anthropic's and OpenAI's APIs take them.

import type { InputSchema } from "./arguments.js";
import type { ToolOutcome } from "./call-tool.js";

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
