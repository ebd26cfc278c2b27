// The tools over MCP, and their definitions in Anthropic's and OpenAI's shapes.
import { describe, expect, it } from "vitest";
import { anthropicTools, openaiTools, registerTools, type ToolDefinition } from "../../templates/runtime/adapters.js";

const definitions: ToolDefinition[] = [
  {
    name: "get_ticket",
    description: "One ticket.",
    inputSchema: { type: "object", properties: {}, required: [], additionalProperties: false },
    outputSchema: { type: "object" },
  },
];

describe("adapters", () => {
  it("writes the definitions as each API takes them", () => {
    expect(anthropicTools(definitions)).toEqual([
      { name: "get_ticket", description: "One ticket.", input_schema: definitions[0]!.inputSchema },
    ]);
    expect(openaiTools(definitions)).toEqual([
      { type: "function", function: { name: "get_ticket", description: "One ticket.", parameters: definitions[0]!.inputSchema } },
    ]);
  });

  it("serves tools/list and tools/call on an MCP server", async () => {
    const handlers = new Map<unknown, (request: unknown) => unknown>();
    const server = { setRequestHandler: (schema: unknown, handler: (request: unknown) => unknown) => handlers.set(schema, handler) };
    const schemas = { ListToolsRequestSchema: "list", CallToolRequestSchema: "call" };
    registerTools(
      server as never,
      definitions,
      {
        get_ticket: async () => ({ result: { id: "t1" }, text: '{"id":"t1"}' }),
        add_comment: async () => ({ error: "add_comment: bad arguments: body is required" }),
      },
      schemas,
    );
    const call = (name: string) => handlers.get("call")!({ params: { name, arguments: {} } });
    expect(await handlers.get("list")!({})).toEqual({ tools: definitions });
    expect(await call("get_ticket")).toEqual({ content: [{ type: "text", text: '{"id":"t1"}' }], structuredContent: { id: "t1" } });
    expect(await call("add_comment")).toEqual({
      content: [{ type: "text", text: "add_comment: bad arguments: body is required" }],
      isError: true,
    });
    expect(await call("toString")).toEqual({
      content: [{ type: "text", text: 'no tool "toString"; tools: get_ticket, add_comment' }],
      isError: true,
    });
  });
});
