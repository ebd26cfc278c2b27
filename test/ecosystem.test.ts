// The generated tools wired into the clients and libraries consumers use them with: the MCP SDK's
// servers, JSON Schema validators, and the model SDKs' own types.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  createTools,
  registerTools,
  type paths,
  type SearchTicketsResponse,
  type ToolDefinition,
  type Tools,
} from "../generated/support/index.js";
import { schemaReference } from "../src/commands/init.js";
import { cli, generateFrom, importGenerated, ROOT, tempDir, typecheck } from "./helpers/pipeline.js";
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
      const tool = (entry: object) => ({ spec: "a.yaml", output: "out", tools: { t: { operation: "o", ...entry } } });
      expect(validate(tool({ title: "Archive a note", hints: { destructive: false, openWorld: false } }))).toBe(true);
      expect(validate(tool({ hints: { fast: true } }))).toBe(false);
      expect(validate(tool({ hints: { readOnly: "yes" } }))).toBe(false);
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

type LiftingPaths = import("../specs/scenarios/lifting/generated/index.js").paths;

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

  it("serves the tools of two generated folders, two APIs, on one server", async () => {
    const lifting = (await import(
      join(ROOT, "specs/scenarios/lifting/generated/index.ts")
    )) as typeof import("../specs/scenarios/lifting/generated/index.js");
    const mcp = new McpServer({ name: "desk-and-chat", version: "1.0.0" });
    registerTools(mcp, supportTools(), SCHEMAS);
    lifting.registerTools(
      mcp,
      lifting.createTools({ client: createClient<LiftingPaths>({ baseUrl: "https://chat.example.com" }) }),
      SCHEMAS,
    );
    registerEcho(mcp);
    const agent = await connected(mcp);
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual([
      "echo",
      "add_comment",
      "get_ticket",
      "get_user",
      "search_tickets",
      "list_messages",
    ]);
    const search = await agent.callTool({ name: "search_tickets", arguments: {} });
    expect((search.structuredContent as { total: number }).total).toBe(12);
    expect(textOf(await agent.callTool({ name: "echo", arguments: { words: "both" } }))).toBe("both");
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

const NOTES_SPEC = `openapi: 3.0.3
info: { title: Notes, version: "1" }
paths:
  /notes/{note_id}:
    parameters: [{ name: note_id, in: path, required: true, schema: { type: integer } }]
    get:
      operationId: getNote
      summary: Read a note
      responses: { "200": { description: a note, content: { application/json: { schema: { $ref: "#/components/schemas/Note" } } } } }
    put:
      operationId: replaceNote
      summary: "Replace a note:\\nevery field"
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Note" } } } }
      responses: { "200": { description: a note, content: { application/json: { schema: { $ref: "#/components/schemas/Note" } } } } }
    delete:
      operationId: deleteNote
      responses: { "200": { description: the note deleted, content: { application/json: { schema: { $ref: "#/components/schemas/Note" } } } } }
    patch:
      operationId: editNote
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Note" } } } }
      responses: { "200": { description: a note, content: { application/json: { schema: { $ref: "#/components/schemas/Note" } } } } }
components:
  schemas:
    Note: { type: object, required: [id, body], properties: { id: { type: integer }, body: { type: string } } }
`;

async function notesTools(tools: string): Promise<ReturnType<typeof generateFrom>> {
  const dir = tempDir();
  writeFileSync(join(dir, "notes.yaml"), NOTES_SPEC);
  writeFileSync(
    join(dir, "projector.yaml"),
    `spec: notes.yaml\noutput: out\nresources:\n  note: { schema: Note, fields: { id: { drop: the model names notes by their words }, body: keep } }\ntools:\n${tools}`,
  );
  return generateFrom(join(dir, "projector.yaml"));
}

describe("tool titles and hints", () => {
  it("take the title from a one-line summary and the hints from the method, as HTTP defines it", async () => {
    const output = await notesTools(
      [
        "get_note: { operation: getNote }",
        "replace_note: { operation: replaceNote }",
        "delete_note: { operation: deleteNote }",
        "edit_note: { operation: editNote }",
      ]
        .map((line) => `  ${line}`)
        .join("\n"),
    );
    expect(output.problems).toEqual([]);
    const { toolDefinitions } = await importGenerated<{ toolDefinitions: ToolDefinition[] }>(output.files);
    const byName = Object.fromEntries(toolDefinitions.map(({ name, title, annotations }) => [name, { title, annotations }]));
    expect(byName).toEqual({
      get_note: { title: "Read a note", annotations: { readOnlyHint: true } },
      // A summary of two lines is no title.
      replace_note: { title: undefined, annotations: { idempotentHint: true } },
      delete_note: { title: undefined, annotations: { destructiveHint: true, idempotentHint: true } },
      edit_note: { title: undefined, annotations: undefined },
    });
  });

  it("take the annotation's title and hints over the operation's", async () => {
    const output = await notesTools(
      [
        "  get_note: { operation: getNote, title: Note, hints: { openWorld: false } }",
        "  delete_note: { operation: deleteNote, title: Archive a note, hints: { destructive: false, readOnly: false } }",
      ].join("\n"),
    );
    expect(output.problems).toEqual([]);
    const { toolDefinitions } = await importGenerated<{ toolDefinitions: ToolDefinition[] }>(output.files);
    expect(toolDefinitions.map(({ name, title, annotations }) => ({ name, title, annotations }))).toEqual([
      { name: "delete_note", title: "Archive a note", annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true } },
      { name: "get_note", title: "Note", annotations: { readOnlyHint: true, openWorldHint: false } },
    ]);
  });

  it("refuse hints that are not true or false, and names that are no hint", async () => {
    const output = await notesTools('  get_note: { operation: getNote, hints: { readOnly: "yes", fast: true }, title: "" }');
    expect(output.problems.map((problem) => problem.message)).toEqual([
      "title must be a non-empty string",
      'unknown key "fast" in hints',
      "hints.readOnly must be true or false",
    ]);
  });
});

describe("createTools perCall", () => {
  /** The example's tools, each call's client and resolvers set up from its context: a user id. */
  function perUserTools(seen: string[]) {
    return createTools<{ user: string }>({
      client: createClient<paths>({ baseUrl: "https://api.example.com/v1", fetch: async () => Response.json(PAGE, { status: 500 }) }),
      resolvers: { users: async () => new Map(), orgs: async () => new Map() },
      perCall: ({ tool, context }) => {
        seen.push(`${tool} for ${context?.user}`);
        const token = `token-of-${context?.user}`;
        return {
          client: createClient<paths>({
            baseUrl: "https://api.example.com/v1",
            headers: { Authorization: `Bearer ${token}` },
            fetch: async (request) => {
              seen.push(request.headers.get("authorization")!);
              return Response.json(PAGE);
            },
          }),
          resolvers: {
            users: async (ids) => new Map(ids.map((id) => [id, `a user ${context?.user} may see`])),
            orgs: async (ids) => new Map(ids.map((id) => [id, "Contoso Travel"])),
          },
        };
      },
    });
  }

  it("gives each call the client and resolvers set up from its context", async () => {
    const seen: string[] = [];
    const tools = perUserTools(seen);
    const priya = await tools.search_tickets({ query: "refund" }, { context: { user: "priya" } });
    const mei = await tools.search_tickets({ query: "refund" }, { context: { user: "mei" } });
    expect(seen).toEqual(["search_tickets for priya", "Bearer token-of-priya", "search_tickets for mei", "Bearer token-of-mei"]);
    expect("result" in priya && priya.result.tickets[0]).toMatchObject({ assignee: "a user priya may see" });
    expect("result" in mei && mei.result.tickets[0]).toMatchObject({ assignee: "a user mei may see" });
  });

  it("passes the MCP SDK's extra as the context of calls registerTools serves", async () => {
    const seen: string[] = [];
    const mcp = new McpServer({ name: "support-desk", version: "1.0.0" });
    registerTools(
      mcp,
      createTools<{ requestId: string | number; signal: AbortSignal }>({
        client: createClient<paths>({ baseUrl: "https://api.example.com/v1", fetch: async () => Response.json(PAGE) }),
        resolvers: { users: async () => new Map(), orgs: async () => new Map() },
        perCall: ({ context, signal }) => {
          seen.push(`request ${context?.requestId}, ${signal instanceof AbortSignal && !signal.aborted ? "a live" : "no"} signal`);
          return undefined;
        },
      }),
      SCHEMAS,
    );
    const agent = await connected(mcp);
    await agent.callTool({ name: "search_tickets", arguments: {} });
    expect(seen).toEqual([expect.stringMatching(/^request \d+, a live signal$/)]);
    await agent.close();
  });

  it("fails a call whose setup throws or is not options, with an error for the model", async () => {
    const failing = (perCall: () => unknown) =>
      createTools({
        client: createClient<paths>({ baseUrl: "https://api.example.com/v1", fetch: async () => Response.json(PAGE) }),
        resolvers: { users: async () => new Map(), orgs: async () => new Map() },
        perCall: perCall as never,
      });
    expect(
      await failing(() => {
        throw new Error("no session\u001b[2J");
      }).get_ticket({ ticket_id: "tkt_1" }),
    ).toEqual({ error: "get_ticket: the call could not be set up (no session\\u001b[2J)" });
    expect(await failing(async () => "client").get_ticket({ ticket_id: "tkt_1" })).toEqual({
      error: "get_ticket: the call could not be set up (perCall returned string, not options)",
    });
    expect(await failing(async () => ({ onIssue: "log" })).get_ticket({ ticket_id: "tkt_1" })).toEqual({
      error: "get_ticket: the call could not be set up (perCall: onIssue must be a function; got string)",
    });
  });

  it("refuses an onIssue that is not a function when the tools are made, rather than losing every issue", () => {
    const client = createClient<paths>({ baseUrl: "https://api.example.com/v1" });
    const resolvers = { users: async () => new Map(), orgs: async () => new Map() };
    expect(() => createTools({ client, resolvers, onIssue: 5 as never })).toThrow("createTools: onIssue must be a function; got number");
  });

  it("bounds a perCall that never settles by the call's timeout, aborting the signal it was given", async () => {
    let given: AbortSignal | undefined;
    const tools = createTools({
      client: createClient<paths>({ baseUrl: "https://api.example.com/v1", fetch: async () => Response.json(PAGE) }),
      resolvers: { users: async () => new Map(), orgs: async () => new Map() },
      timeoutMs: 200,
      perCall: ({ signal }) => {
        given = signal;
        return new Promise<never>(() => {});
      },
    });
    expect(await tools.search_tickets({ query: "refund" })).toEqual({
      error: "search_tickets: the call could not be set up within 0.2 seconds, the time it has; try again later",
    });
    expect(given?.aborted).toBe(true);
  });

  it("ends a call whose perCall hangs as soon as the caller cancels it", async () => {
    const tools = createTools({
      client: createClient<paths>({ baseUrl: "https://api.example.com/v1", fetch: async () => Response.json(PAGE) }),
      resolvers: { users: async () => new Map(), orgs: async () => new Map() },
      timeoutMs: Infinity,
      perCall: () => new Promise<never>(() => {}),
    });
    const caller = new AbortController();
    const outcome = tools.search_tickets({ query: "refund" }, { signal: caller.signal });
    caller.abort();
    expect(await outcome).toEqual({ error: "search_tickets: the call was cancelled" });
  });

  it("leaves createTools' own options serving every call without perCall", async () => {
    const search = await supportTools().search_tickets({ query: "refund" }, { context: "ignored" });
    expect("result" in search && search.result.total).toBe(12);
  });
});

/** The sections of docs/integrations.md for each client and library, each snippet run by this file. */
const SECTIONS = [
  "Use with McpServer, beside your own tools",
  "Per-call context: auth, DataLoader, tracing",
  "Use with the Anthropic SDK",
  "Use with the OpenAI SDK",
  "Use with the AI SDK",
  "Use with JSON Schema validators",
];
const SNIPPETS = join(ROOT, "test/.ecosystem");

describe("the snippets of docs/integrations.md for each client and library", () => {
  const docs = readFileSync(join(ROOT, "docs/integrations.md"), "utf8");
  const snippets = SECTIONS.map((section) => {
    const start = docs.indexOf(`\n## ${section}\n`);
    const end = docs.indexOf("\n## ", start + 1);
    const body = docs.slice(start, end === -1 ? undefined : end);
    const pair = /```ts\n([\s\S]*?)```\n+[^`\n]*\n+```text\n([\s\S]*?)```/.exec(body);
    const file = join(SNIPPETS, `${section.toLowerCase().replace(/\W+/g, "-")}.ts`);
    return { section, found: start > -1 && pair !== null, file, code: pair?.[1] ?? "", prints: pair?.[2]?.trimEnd() ?? "" };
  });
  beforeAll(() => {
    mkdirSync(SNIPPETS, { recursive: true });
    writeFileSync(join(SNIPPETS, "package.json"), JSON.stringify({ type: "module" }));
    for (const snippet of snippets) writeFileSync(snippet.file, snippet.code.replaceAll('"./generated/', '"../../generated/'));
  });
  afterAll(() => rmSync(SNIPPETS, { recursive: true, force: true }));

  it("are each a ts snippet followed by the text it prints", () => {
    expect(snippets.filter((snippet) => !snippet.found).map((snippet) => snippet.section)).toEqual([]);
  });

  it("type-check against each SDK's own types, under the strictest flags", () => {
    expect(
      typecheck(
        snippets.map((snippet) => snippet.file),
        ["node"],
      ),
    ).toEqual([]);
  });

  it.each(snippets.map((snippet) => [snippet.section, snippet] as const))("%s: runs and prints what the docs say", async (_, snippet) => {
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
    try {
      await import(snippet.file);
    } finally {
      log.mockRestore();
    }
    expect(lines.join("\n")).toBe(snippet.prints);
  });
});

describe("the annotation init drafts", () => {
  it("points the YAML language server at the annotation schema of the installed package", async () => {
    const project = tempDir();
    mkdirSync(join(project, "specs"));
    cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(project, "specs/support-tickets.openapi.yaml"));
    const { code } = await cli(["init", "specs/support-tickets.openapi.yaml", "-o", "projector.yaml"], project);
    expect(code).toBe(0);
    const [first, second] = readFileSync(join(project, "projector.yaml"), "utf8").split("\n");
    expect(first).toBe("# yaml-language-server: $schema=./node_modules/openapi-projector/schema/projector.schema.json");
    expect(second).toMatch(/^# Drafted by `projector init`/);
  });

  it("finds the schema wherever the annotation sits in the project that installed projector", () => {
    const project = tempDir();
    const installed = join(project, "node_modules/openapi-projector");
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, "package.json"), JSON.stringify({ name: "openapi-projector" }));
    expect(schemaReference(join(project, "projector.yaml"), installed)).toBe(
      "./node_modules/openapi-projector/schema/projector.schema.json",
    );
    expect(schemaReference(join(project, "config/api/projector.yaml"), installed)).toBe(
      "../../node_modules/openapi-projector/schema/projector.schema.json",
    );
    // Run from its own checkout, as the bundled example is.
    expect(schemaReference(join(ROOT, "projector.yaml"))).toBe("./schema/projector.schema.json");
    expect(readFileSync(join(ROOT, "projector.yaml"), "utf8").split("\n")[0]).toBe(
      "# yaml-language-server: $schema=./schema/projector.schema.json",
    );
  });
});

describe("the package", () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };

  it("runs no script when installed, and builds when packed", () => {
    // The scripts npm runs on installing a package, which it warns about unless the consumer allows them.
    expect(Object.keys(scripts).filter((name) => ["preinstall", "install", "postinstall", "prepare"].includes(name))).toEqual([]);
    expect(scripts["prepack"]).toBe("npm run build");
  });

  it("builds before npm start runs the built CLI, so npm ci && npm start works from a clean checkout", () => {
    expect(scripts["start"]).toMatch(/^npm run --silent build && node dist\/cli\.js /);
  });
});

describe("input schemas from a lax spec", () => {
  it("leave out a keyword whose value is not of its JSON Schema type, so the definitions still fit the SDKs' types", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "notes.yaml"),
      NOTES_SPEC.replace("openapi: 3.0.3", "openapi: 3.1.0").replace(
        "schema: { type: integer } }]",
        'schema: { type: integer, minimum: "1", maximum: 9, description: 7, format: int64 } }]',
      ),
    );
    writeFileSync(
      join(dir, "projector.yaml"),
      "spec: notes.yaml\noutput: out\nresources:\n  note: { schema: Note, fields: { id: { drop: not needed }, body: keep } }\ntools:\n  get_note: { operation: getNote }\n",
    );
    const output = await generateFrom(join(dir, "projector.yaml"));
    expect(output.problems).toEqual([]);
    const { toolDefinitions } = await importGenerated<{ toolDefinitions: ToolDefinition[] }>(output.files);
    expect(toolDefinitions[0]!.inputSchema.properties["note_id"]).toEqual({ type: "integer", maximum: 9, format: "int64" });
  });
});
