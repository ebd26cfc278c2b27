import { spawn } from "node:child_process";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Database from "better-sqlite3";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCommentOutputSchema, getTicketOutputSchema, searchTicketsOutputSchema } from "../generated/support/index.js";
import { LineTransport, MAX_LINE_BYTES } from "../examples/support-desk/stdio-transport.js";
import { ROOT, tempDir } from "./helpers/pipeline.js";
import { parseTable } from "./helpers/table.js";

// The example MCP server, started as a user's MCP client starts it: a child process over stdio.
const SERVER = join(ROOT, "examples/support-desk/build/examples/support-desk/server.js");
const SCHEMAS: Record<string, object> = {
  search_tickets: searchTicketsOutputSchema,
  get_ticket: getTicketOutputSchema,
  add_comment: addCommentOutputSchema,
};

interface Ticket {
  id: string;
  subject: string;
  assignee: string | null | { unresolved: string };
  org: string | { unresolved: string };
}

describe("examples/support-desk: an MCP server over SQLite", () => {
  const client = new Client({ name: "projector-test", version: "1.0.0" });
  const databaseFile = join(tempDir(), "desk.db");
  let stderr = "";
  const ajv = addFormats.default(new Ajv2020({ strict: false }));

  /** Waits until the server's stderr, from `from` on, has a line that `test` accepts. */
  async function stderrLine(from: number, test: (line: string) => boolean): Promise<void> {
    for (let waited = 0; !stderr.slice(from).split("\n").some(test); waited += 10) {
      if (waited > 10_000) throw new Error(`no such line on the server's stderr:\n${stderr.slice(from)}`);
      await new Promise((done) => setTimeout(done, 10));
    }
  }

  /** The SQL statements the server ran for one tool call, up to the line that ends it in the log. */
  async function queriesOf(name: string, args: Record<string, unknown>) {
    const before = stderr.length;
    const result = await call(name, args);
    await stderrLine(before, (line) => line === `sql: -- end of ${name}`);
    const queries = stderr
      .slice(before)
      .split("\n")
      .filter((line) => line.startsWith("sql: ") && !line.startsWith("sql: --"));
    return { result, queries };
  }

  async function call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; structuredContent: unknown; text: string }> {
    const result = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: unknown;
      content: { text: string }[];
    };
    return { isError: result.isError === true, structuredContent: result.structuredContent, text: result.content[0]!.text };
  }

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: { ...(process.env as Record<string, string>), SUPPORT_DESK_DB: databaseFile, SUPPORT_DESK_LOG_SQL: "1" },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
  }, 60_000);

  afterAll(() => client.close());

  it("lists the three tools, each with the generated JSON Schema as its outputSchema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["add_comment", "get_ticket", "search_tickets"]);
    for (const tool of tools) {
      expect(tool.outputSchema).toEqual(JSON.parse(JSON.stringify(SCHEMAS[tool.name])));
      expect(() => ajv.compile(tool.outputSchema!)).not.toThrow();
      expect(tool.inputSchema.type).toBe("object");
    }
  });

  it("search_tickets returns structuredContent that validates, and the same result as text", async () => {
    const { result } = await queriesOf("search_tickets", {});
    expect(result.isError).toBeFalsy();
    const validate = ajv.compile(searchTicketsOutputSchema);
    expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
    // search_tickets is annotated `text: table`: the text block is the table, and reads back into the same result.
    expect(result.text).toMatch(/^tickets\[25\]\{id,subject,status,priority,assignee,org,opened,last_update,sla_due\}:\n/);
    expect(parseTable(result.text)).toEqual(result.structuredContent);
    const page = result.structuredContent as { tickets: Ticket[]; total: number; more: boolean };
    expect(page.tickets).toHaveLength(25);
    expect(page.total).toBe(400);
    expect(page.more).toBe(true);
    for (const ticket of page.tickets) expect(ticket.id).toMatch(/^tkt_[0-9a-f]{8}$/);
  });

  it("runs one label query per resolver kind per call, whatever the number of rows", async () => {
    const labelQueries = (queries: string[]) => ({
      users: queries.filter((sql) => /FROM users WHERE id IN/.test(sql)).length,
      orgs: queries.filter((sql) => /FROM organizations WHERE id IN/.test(sql)).length,
    });
    const full = await queriesOf("search_tickets", { page: 2 });
    expect((full.result.structuredContent as { tickets: Ticket[] }).tickets).toHaveLength(25);
    expect(labelQueries(full.queries)).toEqual({ users: 1, orgs: 1 });
    const few = await queriesOf("search_tickets", { query: "card declined", status: "open" });
    const tickets = (few.result.structuredContent as { tickets: Ticket[] }).tickets;
    expect(tickets.length).toBeGreaterThan(0);
    expect(tickets.length).toBeLessThan(25);
    expect(labelQueries(few.queries).orgs).toBe(1);
    expect(labelQueries(few.queries).users).toBe(tickets.some((t) => t.assignee !== null) ? 1 : 0);
    const none = await queriesOf("search_tickets", { query: "no such subject" });
    expect(none.result.structuredContent).toEqual({ tickets: [], total: 0, more: false });
    expect(labelQueries(none.queries)).toEqual({ users: 0, orgs: 0 });

    // get_ticket's body includes the assignee, so only the organization is looked up.
    const assigned =
      tickets.find((t) => typeof t.assignee === "string") ??
      (full.result.structuredContent as { tickets: Ticket[] }).tickets.find((t) => typeof t.assignee === "string")!;
    expect(labelQueries((await queriesOf("get_ticket", { ticket_id: assigned.id })).queries)).toEqual({ users: 0, orgs: 1 });
    expect(labelQueries((await queriesOf("add_comment", { ticket_id: assigned.id, body: "On it." })).queries)).toEqual({
      users: 1,
      orgs: 0,
    });
  });

  it("searches for the words of the query, taking % and _ literally", async () => {
    const subjects = async (query: string) =>
      ((await call("search_tickets", { query })).structuredContent as { tickets: Ticket[] }).tickets.map((t) => t.subject);
    const found = await subjects("refund cancellation");
    expect(found.length).toBeGreaterThan(0);
    for (const subject of found) expect(subject).toBe("Refund not received after cancellation");
    expect(await subjects("%")).toEqual([]);
    expect(await subjects("_")).toEqual([]);
  });

  it("accepts a shortened id from a result back in get_ticket and add_comment", async () => {
    const first = ((await call("search_tickets", { status: "open" })).structuredContent as { tickets: Ticket[] }).tickets[0]!;
    const ticket = await call("get_ticket", { ticket_id: first.id });
    expect(ticket.isError).toBeFalsy();
    expect(ticket.structuredContent).toMatchObject({ id: first.id, subject: first.subject, status: "open", org: first.org });
    const comment = await call("add_comment", { ticket_id: first.id, body: "Asked for the last four digits of the card." });
    expect(comment.isError).toBeFalsy();
    expect(comment.structuredContent).toMatchObject({
      ticket: first.id,
      body: "Asked for the last four digits of the card.",
      public: true,
    });
    expect(typeof (comment.structuredContent as { author: unknown }).author).toBe("string");
    expect((comment.structuredContent as { created: string }).created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
  });

  it("shows the deleted assignee as an explicit marker, not null, and reports it", async () => {
    let marked: Ticket | undefined;
    for (let page = 1; !marked && page <= 16; page++) {
      const { tickets } = (await call("search_tickets", { page })).structuredContent as { tickets: Ticket[] };
      marked = tickets.find((t) => typeof t.assignee === "object" && t.assignee !== null);
    }
    expect(marked?.assignee).toEqual({ unresolved: expect.stringMatching(/^usr_[0-9a-f]{8}$/) });
    const before = stderr.length;
    const again = await call("get_ticket", { ticket_id: marked!.id });
    expect((again.structuredContent as Ticket).assignee).toEqual(marked!.assignee);
    await stderrLine(before, (line) => line.startsWith("projection: ") && line.includes("assignee"));
  });

  it("answers bad arguments and unknown ids with a tool error the model can read", async () => {
    const missing = await call("get_ticket", {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/ticket_id/);
    const unknown = await call("get_ticket", { ticket_id: "tkt_00000000" });
    expect(unknown).toMatchObject({ isError: true, text: "No ticket tkt_00000000." });
    // A prefix shorter than the short form a result gives is not an id, even when one ticket starts with it.
    const { tickets } = (await call("search_tickets", {})).structuredContent as { tickets: Ticket[] };
    for (const truncated of ["tkt_", tickets[0]!.id.slice(0, 9)]) {
      expect(await call("get_ticket", { ticket_id: truncated })).toMatchObject({ isError: true, text: `No ticket ${truncated}.` });
    }
  });

  it("accepts a full id as well", async () => {
    const db = new Database(databaseFile, { readonly: true });
    const { id } = db.prepare("SELECT id FROM tickets ORDER BY updated_at DESC, id LIMIT 1").get() as { id: string };
    db.close();
    const ticket = await call("get_ticket", { ticket_id: id });
    expect((ticket.structuredContent as Ticket).id).toBe(id.slice(0, 12));
  });
});

/** The server spoken to line by line, as a client that gets JSON-RPC wrong would. */
function rawServer() {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, SUPPORT_DESK_DB: join(tempDir(), "desk.db") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exited: number | null | undefined;
  const waiting: (() => void)[] = [];
  const wake = () => waiting.splice(0).forEach((resume) => resume());
  child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk.toString()), wake()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.on("exit", (code) => ((exited = code), wake()));
  let answered = 0;
  return {
    stderr: () => stderr,
    exited: () => exited,
    write: (text: string) => new Promise<void>((written) => child.stdin.write(text, () => written())),
    /** The next line the server writes, parsed; fails when the server exits first. */
    async answer(): Promise<Record<string, unknown>> {
      for (;;) {
        const lines = stdout.split("\n");
        if (lines.length - 1 > answered) return JSON.parse(lines[answered++]!) as Record<string, unknown>;
        if (exited !== undefined) throw new Error(`the server exited with ${exited} instead of answering; stderr:\n${stderr}`);
        await new Promise<void>((resume) => waiting.push(resume));
      }
    },
    stop: () => child.kill(),
  };
}

describe("examples/support-desk: requests a client gets wrong", () => {
  const server = rawServer();
  const ask = async (line: string) => (await server.write(`${line}\n`), server.answer());
  afterAll(() => server.stop());

  it("answers a line that is not JSON with a parse error, and goes on serving", async () => {
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: init }))).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "support-desk" } },
    });
    expect(await ask("{not json")).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }))).toMatchObject({
      id: 2,
      result: { tools: expect.any(Array) },
    });
    expect(server.stderr()).toContain("answered -32700");
  });

  it("answers JSON that is not a JSON-RPC message with an invalid request", async () => {
    expect(await ask(JSON.stringify({ hello: "world" }))).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await ask("[]")).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await ask(JSON.stringify({ jsonrpc: "1.0", id: 3, method: "tools/list" }))).toMatchObject({ id: 3, error: { code: -32600 } });
  });

  it("answers params that are not an object, or not the method's, with invalid params", async () => {
    expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: [] }))).toMatchObject({
      id: 4,
      error: { code: -32602 },
    });
    expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: "search_tickets" }))).toMatchObject({
      id: 5,
      error: { code: -32602 },
    });
    expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/call", params: {} }))).toMatchObject({
      id: 6,
      error: { code: -32602 },
    });
    const call = await ask(
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "search_tickets", arguments: { query: "refund" } } }),
    );
    expect(call).toMatchObject({ id: 7, result: { structuredContent: { tickets: expect.any(Array) } } });
  });

  it("answers a line over 10 MiB with an invalid request instead of exiting, and serves the next one", async () => {
    await server.write("x".repeat(MAX_LINE_BYTES + 1));
    expect(await ask("")).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining(`${MAX_LINE_BYTES} bytes`) } });
    expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" }))).toMatchObject({
      id: 8,
      result: { tools: expect.any(Array) },
    });
    expect(server.exited()).toBeUndefined();
  });
});

describe("examples/support-desk: the line transport", () => {
  /** A transport on in-memory streams, with a small line limit, and what it hands on and answers. */
  function transport(maxLineBytes: number) {
    const input = new PassThrough();
    const output = new PassThrough();
    const received: unknown[] = [];
    const logged: string[] = [];
    const line = new LineTransport(input, output, (text) => logged.push(text), maxLineBytes);
    line.onmessage = (message) => received.push(message);
    const answers = () =>
      String(output.read() ?? "")
        .split("\n")
        .filter(Boolean)
        .map((text) => JSON.parse(text) as { id: unknown; error: { code: number } });
    return { input, received, logged, answers, start: () => line.start() };
  }
  const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

  it("joins a line split across chunks and splits chunks holding several lines, CRLF included", async () => {
    const t = transport(1024);
    await t.start();
    const two = `${ping(1)}\r\n${ping(2)}\n`;
    t.input.write(two.slice(0, 10));
    t.input.write(two.slice(10, 40));
    t.input.write(two.slice(40));
    expect(t.received).toEqual([JSON.parse(ping(1)), JSON.parse(ping(2))]);
    expect(t.answers()).toEqual([]);
  });

  it("skips an over-long line up to its newline, wherever the chunks break, and answers it once", async () => {
    const t = transport(64);
    await t.start();
    t.input.write("y".repeat(50));
    t.input.write("y".repeat(50));
    t.input.write(`${"y".repeat(500)}\n${ping(3)}`);
    t.input.write("\n");
    expect(t.answers()).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("64 bytes") } }]);
    expect(t.received).toEqual([JSON.parse(ping(3))]);
    expect(t.logged).toHaveLength(1);
  });

  it("takes a line of exactly the limit", async () => {
    const t = transport(ping(4).length);
    await t.start();
    t.input.write(`${ping(4)}\n`);
    expect(t.received).toEqual([JSON.parse(ping(4))]);
  });

  it("never answers a notification, even one with params that are not an object", async () => {
    const t = transport(1024);
    await t.start();
    t.input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized", params: [] })}\n`);
    expect(t.answers()).toEqual([]);
    expect(t.logged).toEqual([expect.stringContaining("notifications/initialized")]);
  });
});
