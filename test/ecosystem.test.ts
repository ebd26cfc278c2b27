// The generated tools wired into the clients and libraries consumers use them with: the MCP SDK's
// servers, JSON Schema validators, and the model SDKs' own types.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createTools,
  registerTools,
  type paths,
  type SearchTicketsResponse,
  type ToolDefinition,
  type Tools,
} from "../generated/support/index.js";
import { ROOT } from "./helpers/pipeline.js";
import { SCENARIOS, scenarioNames } from "./helpers/scenarios.js";

const FOLDERS = ["generated/support", ...scenarioNames.map((name) => `specs/scenarios/${name}/generated`)];

async function definitionsIn(folder: string): Promise<readonly ToolDefinition[]> {
  const module = (await import(join(ROOT, folder, "definitions.ts"))) as { toolDefinitions: readonly ToolDefinition[] };
  return module.toolDefinitions;
}

describe("JSON Schema validators in strict mode", () => {
  const validators = [
    ["draft-07", () => new Ajv({ strict: true })],
    ["2020-12", () => new Ajv2020({ strict: true })],
  ] as const;

  it("scenario folders are where the test looks for them", () => {
    expect(FOLDERS.length).toBeGreaterThan(5);
    expect(SCENARIOS).toBe(join(ROOT, "specs/scenarios"));
  });

  it.each(FOLDERS)("compile every input and output schema of %s", async (folder) => {
    const problems: string[] = [];
    for (const tool of await definitionsIn(folder))
      for (const [which, schema] of [
        ["input", tool.inputSchema],
        ["output", tool.outputSchema],
      ] as const)
        for (const [draft, validator] of validators)
          try {
            validator().compile(schema);
          } catch (error) {
            problems.push(`${tool.name} ${which} (${draft}): ${(error as Error).message}`);
          }
    expect(problems).toEqual([]);
  });

  it("validate a result with its markers against the output schema, in both drafts", async () => {
    const [getTicket] = (await definitionsIn("generated/support")).filter((tool) => tool.name === "get_ticket");
    const result = {
      id: "tkt_5498ee00",
      subject: "Refund",
      status: { unknown_code: 9 },
      priority: { unknown_code: "x" },
      assignee: { unresolved: "usr_0baa8c00" },
      org: null,
      opened: "2026-02-12",
      last_update: { unusable: "not a date-time" },
      sla_due: null,
    };
    for (const [, validator] of validators) {
      const validate = validator().compile(getTicket!.outputSchema);
      expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...result, status: { unknown_code: true } })).toBe(false);
      expect(validate({ ...result, opened: "12 February" })).toBe(false);
    }
  });

  it("compile the shipped annotation schema", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schema/projector.schema.json"), "utf8")) as object;
    for (const [, validator] of validators) {
      const validate = validator().compile(schema);
      const resolvers = { users: { type: "user", operation: "listUsers" } };
      expect(validate({ spec: "a.yaml", output: "out", resolvers })).toBe(false);
      expect(validate({ spec: "a.yaml", output: "out", resolvers: { users: { ...resolvers.users, label: "name" } } })).toBe(true);
    }
  });
});

const PAGE = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8")) as SearchTicketsResponse;
const SCHEMAS = { ListToolsRequestSchema, CallToolRequestSchema };

/** The bundled example's tools over an API that answers every search with the example page. */
function supportTools<Context = unknown>(): Tools<Context> {
  return createTools<Context>({
    client: createClient<paths>({ baseUrl: "https://api.example.com/v1", fetch: async () => Response.json(PAGE) }),
    resolvers: {
      users: async (ids) => new Map(ids.map((id) => [id, "Priya Raman"])),
      orgs: async (ids) => new Map(ids.map((id) => [id, "Contoso Travel"])),
    },
  });
}

/** An MCP client connected to the server in this process, as an agent's client would be. */
async function connected(server: { connect: Server["connect"] }): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { text: string }[])[0]?.text;

/** A tool of the server's own, registered the SDK's recommended way. */
const registerEcho = (mcp: McpServer) =>
  mcp.registerTool(
    "echo",
    { title: "Echo", description: "Says the words back", inputSchema: { words: z.string() } },
    async ({ words }) => ({ content: [{ type: "text", text: words }] }),
  );

describe("MCP SDK McpServer", () => {
  it.each([
    ["before", true],
    ["after", false],
  ])("serves its own tool registered %s the generated ones, beside them", async (_, ownFirst) => {
    const mcp = new McpServer({ name: "support-desk", version: "1.0.0" });
    if (ownFirst) registerEcho(mcp);
    registerTools(mcp, supportTools(), SCHEMAS);
    if (!ownFirst) registerEcho(mcp);
    const agent = await connected(mcp);
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["add_comment", "echo", "get_ticket", "get_user", "search_tickets"]);
    expect(tools.find((tool) => tool.name === "echo")?.title).toBe("Echo");
    expect(textOf(await agent.callTool({ name: "echo", arguments: { words: "still here" } }))).toBe("still here");
    const search = await agent.callTool({ name: "search_tickets", arguments: { query: "refund" } });
    expect(search.isError).toBeUndefined();
    expect((search.structuredContent as { total: number }).total).toBe(12);
    // The server's own checks still run for its own tools.
    expect((await agent.callTool({ name: "echo", arguments: { words: 3 } })).isError).toBe(true);
    await agent.close();
  });

  it("serves the generated tools on a server made without the tools capability", async () => {
    const agent = await connected(registered(new McpServer({ name: "support-desk", version: "1.0.0" })));
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toContain("get_ticket");
    await agent.close();
  });

  it("refuses a tool of its own that has a generated tool's name, in either order", () => {
    const mcp = new McpServer({ name: "support-desk", version: "1.0.0" });
    registerTools(mcp, supportTools(), SCHEMAS);
    expect(() => mcp.registerTool("get_ticket", { description: "mine" }, async () => ({ content: [] }))).toThrow(
      "Tool get_ticket is already registered",
    );
    const other = new McpServer({ name: "support-desk", version: "1.0.0" });
    other.registerTool("get_ticket", { description: "mine" }, async () => ({ content: [] }));
    expect(() => registerTools(other, supportTools(), SCHEMAS)).toThrow("Tool get_ticket is already registered");
  });

  it("answers a name no tool has with the name quoted, cut and escaped", async () => {
    const agent = await connected(registered(new Server({ name: "support-desk", version: "1.0.0" })));
    const name = `\u001b[31m${"x".repeat(5000)}`;
    const answer = await agent.callTool({ name, arguments: {} });
    expect(answer.isError).toBe(true);
    const text = textOf(answer)!;
    expect(text).toMatch(/^no tool "\\u001b\[31mx+"… \(5005 characters\); tools: add_comment, get_ticket, get_user, search_tickets$/);
    expect(text.length).toBeLessThan(200);
    await agent.close();
  });

  it("sends each tool's title and the hints its method gives", async () => {
    const agent = await connected(registered(new McpServer({ name: "support-desk", version: "1.0.0" })));
    const { tools } = await agent.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName["search_tickets"]).toMatchObject({ title: "Search tickets", annotations: { readOnlyHint: true } });
    expect(byName["add_comment"]?.title).toBe("Add a comment to a ticket");
    expect(byName["add_comment"]?.annotations).toBeUndefined();
    await agent.close();
  });
});

function registered<S extends McpServer | Server>(server: S): S {
  registerTools(server, supportTools(), SCHEMAS);
  return server;
}
