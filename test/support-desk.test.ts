import { spawn } from "node:child_process";
import type { Server as HttpServer } from "node:http";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decode } from "@toon-format/toon";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../examples/support-desk/database.js";
import { createApiServer, listen } from "../examples/support-desk/http-api.js";
import { LineTransport, MAX_LINE_BYTES } from "../src/serve/line-transport.js";
import { searchTicketsOutputSchema, toolDefinitions } from "../generated/support/index.js";
import { readMarkerCells } from "./helpers/marker-cells.js";
import { ROOT, tempDir } from "./helpers/pipeline.js";

// The example's MCP server is `projector serve`, started as a user's MCP client starts it: a child
// process over stdio, pointed at the API by SUPPORT_API_URL. Its tools are the generated ones; the
// API they call is served here, in the test's process, so every request it receives is counted and
// the API can be stopped under the server.
const SERVE = [join(ROOT, "dist/cli.js"), "serve", join(ROOT, "projector.yaml")];

interface Ticket {
  id: string;
  subject: string;
  status: string;
  assignee: string | null | { unresolved: string };
  org: string | { unresolved: string };
}

interface Call {
  isError: boolean;
  structuredContent: unknown;
  text: string;
}

/** A request the API received: its method, path and query. */
interface Received {
  method: string;
  url: URL;
}

const comment = (body: string) => ({ data: { type: "comment", attributes: { body } } });

describe("examples/support-desk: generated tools calling the API over HTTP", () => {
  const client = new Client({ name: "projector-test", version: "1.0.0" });
  let db: Database.Database;
  let api: HttpServer;
  const received: Received[] = [];
  /** Every result a tool gave, for the check that no dropped field ever reaches the model. */
  const results: Call[] = [];
  let stderr = "";
  const ajv = addFormats.default(new Ajv2020({ strict: false }));

  async function call(name: string, args: Record<string, unknown>): Promise<Call> {
    const result = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: unknown;
      content: { text: string }[];
    };
    expect(result.content).toHaveLength(1);
    const answer = { isError: result.isError === true, structuredContent: result.structuredContent, text: result.content[0]!.text };
    results.push(answer);
    return answer;
  }

  /**
   * A tool call and the requests the API received for it. The server answers the call only once its
   * requests are answered, so they have all arrived by then.
   */
  async function requestsOf(name: string, args: Record<string, unknown>) {
    const before = received.length;
    const result = await call(name, args);
    const requests = received.slice(before);
    const count = (path: string) => requests.filter((r) => r.url.pathname === `/v1${path}`).length;
    return { result, requests, users: count("/users"), orgs: count("/organizations") };
  }

  const fullTicketId = (short: string) =>
    (db.prepare("SELECT id FROM tickets WHERE substr(id, 1, ?) = ?").all(short.length, short) as { id: string }[]).map((row) => row.id);

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    api = createApiServer(db, (method, url) => received.push({ method, url: new URL(url) }));
    const baseUrl = await listen(api);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: SERVE,
      env: { ...(process.env as Record<string, string>), SUPPORT_API_URL: baseUrl },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
  }, 60_000);

  afterAll(async () => {
    await client.close();
    api.closeAllConnections();
    await new Promise((closed) => api.close(closed));
    db.close();
  });

  it("lists the generated tools with their schemas exactly", async () => {
    const { tools } = await client.listTools();
    expect(tools).toEqual(JSON.parse(JSON.stringify(toolDefinitions)));
    for (const tool of tools) expect(() => ajv.compile(tool.outputSchema!)).not.toThrow();
    expect(received).toEqual([]);
  });

  it("search_tickets: one request for the page, one per resolver, and a result that validates", async () => {
    const { result, requests, users, orgs } = await requestsOf("search_tickets", {});
    expect(result.isError).toBe(false);
    expect(requests.filter((r) => r.url.pathname === "/v1/tickets").map((r) => `${r.method} ${r.url.search}`)).toEqual(["GET "]);
    expect({ users, orgs, all: requests.length }).toEqual({ users: 1, orgs: 1, all: 3 });
    const validate = ajv.compile(searchTicketsOutputSchema);
    expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
    // search_tickets is annotated `text: table`, and this page names some assignees and marks others
    // unresolved: the table holds those as marker cells, which read back into the JSON result.
    const assignees = (result.structuredContent as { tickets: Ticket[] }).tickets.map((t) => t.assignee);
    expect(assignees.filter((a) => typeof a === "object" && a !== null).length).toBeGreaterThan(0);
    expect(assignees.filter((a) => typeof a === "string").length).toBeGreaterThan(0);
    expect(result.text).toMatch(/^tickets\[25\]\{/);
    expect(readMarkerCells(decode(result.text))).toEqual(result.structuredContent);
    const page = result.structuredContent as { tickets: Ticket[]; total: number; more: boolean };
    expect(page).toMatchObject({ total: 400, more: true });
    expect(page.tickets).toHaveLength(25);
    for (const ticket of page.tickets) expect(ticket.id).toMatch(/^tkt_[0-9a-f]{8}$/);
  });

  it('search_tickets sends status: "open" as its code, filter[status]=3, and the query as q', async () => {
    const { result, requests } = await requestsOf("search_tickets", { status: "open", query: "card declined", page: 1 });
    const search = requests.find((r) => r.url.pathname === "/v1/tickets")!;
    expect(search.url.search).toContain("filter[status]=3");
    expect([...search.url.searchParams]).toEqual([
      ["q", "card declined"],
      ["filter[status]", "3"],
      ["page[number]", "1"],
    ]);
    const tickets = (result.structuredContent as { tickets: Ticket[] }).tickets;
    expect(tickets.length).toBeGreaterThan(0);
    for (const ticket of tickets) expect(ticket).toMatchObject({ status: "open", subject: "Card declined at checkout" });
    // Every ticket here names its assignee: the text block is TOON, which TOON's decoder reads back into the same result.
    expect(result.text).toMatch(/^tickets\[\d+\]\{id,subject,status,priority,assignee,org,opened,last_update,sla_due\}:\n/);
    expect(decode(result.text)).toEqual(result.structuredContent);
  });

  it("each resolver is one request per call, with every id of the call in one comma-separated filter[id]", async () => {
    const { result, requests, users, orgs } = await requestsOf("search_tickets", { page: 2 });
    expect({ users, orgs }).toEqual({ users: 1, orgs: 1 });
    const tickets = (result.structuredContent as { tickets: Ticket[] }).tickets;
    const orgRequest = requests.find((r) => r.url.pathname === "/v1/organizations")!;
    expect(orgRequest.url.search).toMatch(/^\?filter\[id\]=org_[^&]+,org_[^&]+$/);
    const asked = orgRequest.url.searchParams.get("filter[id]")!.split(",");
    for (const id of asked) expect(id).toMatch(/^org_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // Distinct ids, one per organization named on the page (organization names are unique).
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.length).toBe(new Set(tickets.map((t) => t.org)).size);

    const none = await requestsOf("search_tickets", { query: "no such subject" });
    expect(none.result.structuredContent).toEqual({ tickets: [], total: 0, more: false });
    expect(none.requests).toHaveLength(1);

    // get_ticket's body includes its assignee, so only the organization is looked up; add_comment's
    // author is a user id, looked up once.
    const assigned = tickets.find((t) => typeof t.assignee === "string")!;
    expect(await requestsOf("get_ticket", { ticket_id: assigned.id })).toMatchObject({ users: 0, orgs: 1 });
    expect(await requestsOf("add_comment", { ticket_id: assigned.id, body: comment("On it.") })).toMatchObject({
      users: 1,
      orgs: 0,
    });
  });

  it("a short id from a result reaches the API in full, in get_ticket and add_comment", async () => {
    const first = ((await call("search_tickets", { status: "open" })).structuredContent as { tickets: Ticket[] }).tickets[0]!;
    const [full] = fullTicketId(first.id);
    expect(full).toMatch(/^tkt_[0-9a-f]{8}-/);

    const ticket = await requestsOf("get_ticket", { ticket_id: first.id });
    expect(ticket.result.isError).toBe(false);
    expect(ticket.requests[0]).toMatchObject({ method: "GET" });
    expect(ticket.requests[0]!.url.pathname).toBe(`/v1/tickets/${full}`);
    expect(ticket.result.structuredContent).toMatchObject({ id: first.id, subject: first.subject, status: "open", org: first.org });

    const added = await requestsOf("add_comment", {
      ticket_id: first.id,
      body: comment("Asked for the last four digits of the card."),
    });
    expect(added.result.isError).toBe(false);
    expect(added.requests[0]).toMatchObject({ method: "POST" });
    expect(added.requests[0]!.url.pathname).toBe(`/v1/tickets/${full}/comments`);
    expect(added.result.structuredContent).toMatchObject({
      ticket: first.id,
      body: "Asked for the last four digits of the card.",
      public: true,
    });
    expect(typeof (added.result.structuredContent as { author: unknown }).author).toBe("string");
    expect((added.result.structuredContent as { created: string }).created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
    expect(
      db
        .prepare("SELECT count(*) AS n FROM comments WHERE ticket_id = ? AND body = ?")
        .get(full, "Asked for the last four digits of the card."),
    ).toEqual({ n: 1 });
  });

  it("accepts a full id as well, and sends it as given", async () => {
    const { id } = db.prepare("SELECT id FROM tickets ORDER BY updated_at DESC, id LIMIT 1").get() as { id: string };
    const ticket = await requestsOf("get_ticket", { ticket_id: id });
    expect(ticket.requests[0]!.url.pathname).toBe(`/v1/tickets/${id}`);
    expect((ticket.result.structuredContent as Ticket).id).toBe(id.slice(0, 12));
    const user = db.prepare("SELECT id, display_name FROM users ORDER BY id LIMIT 1").get() as { id: string; display_name: string };
    const got = await requestsOf("get_user", { user_id: user.id });
    expect(got.requests.map((r) => r.url.pathname)).toEqual([`/v1/users/${user.id}`, "/v1/organizations"]);
    expect(got.result.structuredContent).toMatchObject({ id: user.id.slice(0, 12), name: user.display_name });
  });

  it("shows the deleted assignee as an explicit marker, not null, and reports it", async () => {
    let marked: Ticket | undefined;
    for (let page = 1; !marked && page <= 16; page++) {
      const { tickets } = (await call("search_tickets", { page })).structuredContent as { tickets: Ticket[] };
      marked = tickets.find((t) => typeof t.assignee === "object" && t.assignee !== null);
    }
    expect(marked?.assignee).toEqual({ unresolved: expect.stringMatching(/^usr_[0-9a-f]{8}$/) });
    const before = stderr.length;
    // The API leaves a deleted assignee out of `included`, so get_ticket asks the users resolver, which has no name either.
    const again = await requestsOf("get_ticket", { ticket_id: marked!.id });
    expect(again.users).toBe(1);
    expect((again.result.structuredContent as Ticket).assignee).toEqual(marked!.assignee);
    for (let waited = 0; !/^projection: .*assignee/m.test(stderr.slice(before)); waited += 10) {
      if (waited > 10_000) throw new Error(`no projection issue on the server's stderr:\n${stderr.slice(before)}`);
      await new Promise((done) => setTimeout(done, 10));
    }
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

  it("answers bad arguments with a tool error before any request", async () => {
    for (const [name, args, says] of [
      ["get_ticket", {}, /ticket_id is required/],
      ["search_tickets", { status: "opened" }, /status must be one of "new", "pending", "open", "resolved", "closed"/],
      ["search_tickets", { page: 0 }, /page must be at least 1/],
      ["search_tickets", { q: "card" }, /q is not an argument here; accepted: query, status, page/],
      [
        "add_comment",
        { ticket_id: "tkt_1", body: { data: { type: "comment", attributes: {} } } },
        /body\.data\.attributes\.body is required/,
      ],
    ] as const) {
      const { result, requests } = await requestsOf(name, args);
      expect(result).toMatchObject({ isError: true, text: expect.stringMatching(says) });
      expect(requests).toEqual([]);
    }
  });

  it("answers an id no ticket has with the API's 404, said for the model", async () => {
    // A prefix shorter than the short form a result gives is no id: the API takes only whole ids.
    // Only an id shaped like a short form may be one the id book forgot, and is told how to get it again.
    for (const [id, note] of [
      ["tkt_00000000", '; no record has the id "tkt_00000000"; if a result gave it'],
      ["tkt_", ""],
    ]) {
      const { result, requests } = await requestsOf("get_ticket", { ticket_id: id });
      expect(requests.map((r) => r.url.pathname)).toEqual([`/v1/tickets/${id}`]);
      expect(result).toMatchObject({ isError: true, text: expect.stringMatching(new RegExp(`404: No ticket ${id}${note}`)) });
      if (note === "") expect(result.text).not.toContain("no longer remembered");
    }
    const comment404 = await call("add_comment", { ticket_id: "tkt_00000000", body: comment("Hello.") });
    expect(comment404).toMatchObject({ isError: true, text: expect.stringContaining("404: No ticket tkt_00000000") });
  });

  it("never shows a dropped field, though the API sends it", async () => {
    const sent = db.prepare("SELECT DISTINCT internal_notes FROM tickets WHERE internal_notes IS NOT NULL").all() as {
      internal_notes: string;
    }[];
    expect(sent.length).toBeGreaterThan(0);
    const search = received.find((r) => r.url.pathname === "/v1/tickets")!;
    const served = await (await fetch(search.url)).json();
    expect(JSON.stringify(served)).toContain('"internal_notes"');
    expect(results.filter((r) => !r.isError).length).toBeGreaterThan(10);
    for (const result of results) {
      const shown = JSON.stringify(result.structuredContent ?? null) + result.text;
      expect(shown).not.toContain("internal_notes");
      for (const { internal_notes } of sent) expect(shown).not.toContain(internal_notes);
    }
  });

  it("answers with a tool error when the API is down, and keeps serving", async () => {
    api.closeAllConnections();
    await new Promise((closed) => api.close(closed));
    const down = await call("search_tickets", { query: "card" });
    expect(down).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^search_tickets: could not reach the API \(.+\); try again later$/),
    });
    expect((await client.listTools()).tools).toHaveLength(toolDefinitions.length);
  });
});

/** The server spoken to line by line, as a client that gets JSON-RPC wrong would. */
function rawServer(baseUrl: string) {
  const child = spawn(process.execPath, SERVE, {
    env: { ...process.env, SUPPORT_API_URL: baseUrl },
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
    /** The next line the server writes; fails when the server exits first. */
    async line(): Promise<string> {
      for (;;) {
        const lines = stdout.split("\n");
        if (lines.length - 1 > answered) return lines[answered++]!;
        if (exited !== undefined) throw new Error(`the server exited with ${exited} instead of answering; stderr:\n${stderr}`);
        await new Promise<void>((resume) => waiting.push(resume));
      }
    },
    stop: () => child.kill(),
  };
}

describe("examples/support-desk: requests a client gets wrong", () => {
  let db: Database.Database;
  let api: HttpServer;
  const logged: string[] = [];
  let server: ReturnType<typeof rawServer>;
  const ask = async (line: string) => (await server.write(`${line}\n`), JSON.parse(await server.line()) as Record<string, unknown>);

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    api = createApiServer(db, (method, url) => logged.push(`${method} ${url}`));
    server = rawServer(await listen(api));
  });

  afterAll(async () => {
    server.stop();
    api.closeAllConnections();
    await new Promise((closed) => api.close(closed));
    db.close();
  });

  it("answers a line that is not JSON with a parse error, and goes on serving", async () => {
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: init }))).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "support-desk" } },
    });
    expect(await ask("{not json")).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    // The generated definitions go out byte for byte.
    await server.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    expect(await server.line()).toBe(JSON.stringify({ result: { tools: toolDefinitions }, jsonrpc: "2.0", id: 2 }));
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
    expect(logged).toContainEqual(expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/v1\/tickets\?q=refund$/));
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
