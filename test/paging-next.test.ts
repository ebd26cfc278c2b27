// A list tool's `next`, end to end: a node:http API on loopback, the consumer's openapi-fetch
// client, and the generated createTools. Each paging style is walked page by page by passing the
// result's `next` back; a `next` that would leave the operation is refused before any request.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { decode } from "@toon-format/toon";
import { Ajv2020 } from "ajv/dist/2020.js";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseAnnotation } from "../src/annotation/parse.js";
import { initAnnotation } from "../src/init/init.js";
import { loadSpec } from "../src/openapi/load.js";
import { cli, generateFrom, importGenerated, ROOT, tempDir, typecheck } from "./helpers/pipeline.js";

type Outcome = { result?: any; text?: string; error?: string };
type Tool = (args: unknown) => Promise<Outcome>;
type Issue = { kind: string; field: string; message: string };
type Generated = {
  toolDefinitions: { name: string; inputSchema: any; outputSchema: any }[];
  createTools: (options: { client: unknown; onIssue?: (issue: Issue) => void }) => Record<string, Tool>;
};

const FIXTURE = join(ROOT, "test/fixtures/paging/projector.yaml");
const SPEC = join(ROOT, "test/fixtures/paging/spec.yaml");
const records = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i + 1}`, name: `${prefix} number ${i + 1}` }));
const ORDERS = records("o", 6);
const TICKETS = records("t", 6);
const EVENTS = records("e", 6);
const MESSAGES = records("m", 5).reverse();
const CALLS = records("c", 5);

/** An opaque cursor with characters a URL must escape, as APIs' base64 cursors have. */
const cursorAt = (index: number) => Buffer.from(`position ${index}+`).toString("base64");
const indexOf = (cursor: string | null) => (cursor === null ? 0 : Number(/\d+/.exec(Buffer.from(cursor, "base64").toString())![0]));

/** What the API answers instead of its own next page, for the tests of a next that leaves the operation. */
let forgedNext: { link?: string; body?: string } = {};

function answer(request: IncomingMessage, response: ServerResponse, base: string) {
  const url = new URL(request.url ?? "/", base);
  const query = url.searchParams;
  const number = (name: string, fallback: number) => (query.has(name) ? Number(query.get(name)) : fallback);
  response.setHeader("content-type", "application/json");
  const send = (body: unknown) => response.end(JSON.stringify(body));
  if (url.pathname === "/orders") {
    const [page, perPage] = [number("page", 1), number("per_page", 30)];
    const last = Math.ceil(ORDERS.length / perPage);
    const link = (n: number, rel: string) => {
      const params = new URLSearchParams(query);
      params.set("page", String(n));
      return `<${base}/orders?${params}>; rel="${rel}"`;
    };
    const links = [link(1, "first"), ...(page < last ? [link(page + 1, "next")] : []), link(last, "last")];
    response.setHeader("link", forgedNext.link ?? links.join(", "));
    return send(ORDERS.slice((page - 1) * perPage, page * perPage));
  }
  const team = /^\/teams\/([^/]+)\/tickets$/.exec(url.pathname)?.[1];
  if (team !== undefined) {
    const [page, size] = [number("page", 1), number("size", 10)];
    const more = page * size < TICKETS.length;
    const next = `/teams/${team}/tickets?${new URLSearchParams({ ...(query.has("q") ? { q: query.get("q")! } : {}), page: String(page + 1), size: String(size) })}`;
    return send({
      tickets: TICKETS.slice((page - 1) * size, page * size),
      links: { next: forgedNext.body ?? (more ? next : null) },
    });
  }
  if (url.pathname === "/events") {
    const [from, limit] = [indexOf(query.get("cursor")), number("limit", 2)];
    const to = from + limit;
    return send({ events: EVENTS.slice(from, to), meta: { next_cursor: to < EVENTS.length ? cursorAt(to) : null } });
  }
  if (url.pathname === "/messages") {
    const before = query.get("before");
    const from = before === null ? 0 : MESSAGES.findIndex((m) => m.id === before) + 1;
    return send({ messages: MESSAGES.slice(from, from + number("limit", 2)) });
  }
  if (/^\/accounts\/[^/]+\/calls$/.test(url.pathname)) {
    const [offset, limit] = [number("offset", 0), number("limit", 20)];
    return send({ calls: CALLS.slice(offset, offset + limit) });
  }
  response.statusCode = 404;
  send({ message: "no such path" });
}

const requests: string[] = [];
const issues: Issue[] = [];
let server: Server;
let base: string;
let generated: Generated;
let tools: Record<string, Tool>;
let files: Map<string, string>;

beforeAll(async () => {
  const output = await generateFrom(FIXTURE);
  expect(output.problems).toEqual([]);
  files = output.files;
  generated = await importGenerated<Generated>(files);
  server = createServer((request, response) => {
    requests.push(request.url ?? "");
    answer(request, response, base);
  });
  base = await new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  tools = generated.createTools({ client: createClient({ baseUrl: base }), onIssue: (issue) => issues.push(issue) });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Calls a tool with `args`, then again with each result's `next`, until `next` is null; the results and the URLs asked. */
async function walk(tool: string, args: Record<string, unknown>) {
  const pages: any[] = [];
  const asked: string[] = [];
  let next: string | undefined;
  for (let call = 0; call < 6; call++) {
    const before = requests.length;
    const outcome = await tools[tool]!(next === undefined ? args : { ...args, next });
    expect(outcome.error).toBeUndefined();
    asked.push(...requests.slice(before));
    pages.push(outcome.result);
    if (outcome.result.next === null) break;
    expect(typeof outcome.result.next).toBe("string");
    next = outcome.result.next;
  }
  return { pages, asked, ids: pages.map((page) => page[Object.keys(page)[0]!].map((r: { id: string }) => r.id)) };
}

describe("walking the pages by passing next back", () => {
  it("follows the Link header, with the tool's fixed parameter and the model's words sent again", async () => {
    const { pages, asked, ids } = await walk("list_orders", { status: "shipped" });
    expect(ids).toEqual([
      ["o1", "o2"],
      ["o3", "o4"],
      ["o5", "o6"],
    ]);
    // What the request already sent is left out of next: the model passes its arguments again.
    expect(pages.map((page) => page.next)).toEqual(["page=2", "page=3", null]);
    expect(asked).toEqual(["/orders?status=2&per_page=2", "/orders?status=2&page=2&per_page=2", "/orders?status=2&page=3&per_page=2"]);
  });

  it("follows a next URL in the body, relative to the request, under the path parameter the call gave", async () => {
    const { pages, asked, ids } = await walk("list_tickets", { team: "t1", q: "card" });
    expect(ids).toEqual([
      ["t1", "t2"],
      ["t3", "t4"],
      ["t5", "t6"],
    ]);
    expect(pages.at(-1).next).toBeNull();
    expect(asked).toEqual([
      "/teams/t1/tickets?q=card&size=2",
      "/teams/t1/tickets?q=card&page=2&size=2",
      "/teams/t1/tickets?q=card&page=3&size=2",
    ]);
  });

  it("follows a cursor in the body, escaped in next and sent as the API wrote it", async () => {
    const { pages, asked, ids } = await walk("list_events", { limit: 2 });
    expect(ids).toEqual([
      ["e1", "e2"],
      ["e3", "e4"],
      ["e5", "e6"],
    ]);
    expect(pages[0].next).toBe(`cursor=${encodeURIComponent(cursorAt(2))}`);
    expect(asked.map((url) => new URL(url, base).searchParams.get("cursor"))).toEqual([null, cursorAt(2), cursorAt(4)]);
    expect(pages.at(-1).next).toBeNull();
  });

  it("continues after the last record's id, and stops at a page shorter than the limit", async () => {
    const { pages, asked, ids } = await walk("list_messages", {});
    expect(ids).toEqual([["m5", "m4"], ["m3", "m2"], ["m1"]]);
    expect(pages.map((page) => page.next)).toEqual(["before=m4", "before=m2", null]);
    expect(asked).toEqual(["/messages", "/messages?before=m4", "/messages?before=m2"]);
  });

  it("continues after the last record a row budget lets through", async () => {
    const { pages, ids } = await walk("list_messages_one_by_one", {});
    expect(ids).toEqual([["m5"], ["m4"], ["m3"], ["m2"], ["m1"]]);
    expect(pages.map((page) => page.next)).toEqual(["before=m5", "before=m4", "before=m3", "before=m2", null]);
    expect(pages[0].truncated).toEqual({ shown: 1, total: 2 });
  });

  it("advances the request's own offset by the records of the page", async () => {
    const { pages, asked, ids } = await walk("list_calls", { account: "AC1", limit: 2 });
    expect(ids).toEqual([["c1", "c2"], ["c3", "c4"], ["c5"]]);
    expect(pages.map((page) => page.next)).toEqual(["offset=2", "offset=4", null]);
    expect(asked).toEqual(["/accounts/AC1/calls?limit=2", "/accounts/AC1/calls?offset=2&limit=2", "/accounts/AC1/calls?offset=4&limit=2"]);
  });

  it("keeps next on the page line of table text, which TOON reads back into the result", async () => {
    const outcome = await tools["list_calls"]!({ account: "AC1", limit: 2 });
    expect(outcome.text).toBe("items[2]{id,name}:\n  c1,c number 1\n  c2,c number 2\nnext: offset=2");
    expect(decode(outcome.text!)).toStrictEqual(outcome.result);
    const last = await tools["list_calls"]!({ account: "AC1", limit: 2, next: "offset=4" });
    expect(last.text!.split("\n").at(-1)).toBe("next: null");
    expect(decode(last.text!)).toStrictEqual(last.result);
  });
});

describe("a next that would leave the operation", () => {
  it.each([
    ["another host", "https://evil.example/teams/t1/tickets?page=2", /is a URL/],
    ["another path", "/teams/t2/tickets?page=2", /is a URL/],
    ["an undeclared parameter", "page=2&admin=1", /carries "admin", which is not a query parameter this tool takes/],
    ["a parameter the annotation fixes", "page=2&size=100", /would set "size", which this tool fixes to "2"/],
    ["a value the parameter's schema refuses", "page=0", /next is not a page this tool can ask for: page must be at least 1/],
  ])("is refused for %s, and no request is sent", async (_what, next, message) => {
    const before = requests.length;
    const outcome = await tools["list_tickets"]!({ team: "t1", next });
    expect(outcome.error).toMatch(message);
    expect(outcome.error).toMatch(/^list_tickets: next /);
    expect(requests.length).toBe(before);
  });

  it("is refused when it would change the page size a Link-paged tool fixes", async () => {
    const before = requests.length;
    const outcome = await tools["list_orders"]!({ next: "per_page=100" });
    expect(outcome.error).toMatch(/next would set "per_page", which this tool fixes/);
    expect(requests.length).toBe(before);
  });

  it.each([
    ["on another host", { body: "https://evil.example/teams/t1/tickets?page=2&size=2" }, "list_tickets", /another host \(evil\.example\)/],
    ["on another path", { body: "/teams/t2/tickets?page=2&size=2" }, "list_tickets", /another path \(\/teams\/t2\/tickets\)/],
    [
      "with an undeclared parameter",
      { body: "/teams/t1/tickets?page=2&size=2&debug=1" },
      "list_tickets",
      /carries "debug", which is not a query parameter this tool takes/,
    ],
    ["changing a fixed parameter", { body: "/teams/t1/tickets?page=2&size=50" }, "list_tickets", /changes size, which this tool fixes/],
    [
      "in a Link header, on another path",
      { link: `</admin/orders?page=2>; rel="next"` },
      "list_orders",
      /another path \(\/admin\/orders\)/,
    ],
  ])("from the API %s gives null and an unusable issue, not a next", async (_what, forged, tool, message) => {
    forgedNext = forged;
    issues.length = 0;
    try {
      const outcome = await tools[tool]!(tool === "list_tickets" ? { team: "t1" } : {});
      expect(outcome.error).toBeUndefined();
      expect(outcome.result.next).toBeNull();
      expect(issues).toEqual([expect.objectContaining({ kind: "unusable", field: "next", message: expect.stringMatching(message) })]);
    } finally {
      forgedNext = {};
    }
  });
});

describe("next in the generated types and schemas", () => {
  it("is string or null in each paged tool's output schema, and an optional string input", () => {
    for (const definition of generated.toolDefinitions) {
      expect(definition.outputSchema.properties.next.anyOf).toEqual([{ type: "string" }, { type: "null" }]);
      expect(definition.outputSchema.required).toContain("next");
      expect(definition.inputSchema.properties.next.type).toBe("string");
      expect(definition.inputSchema.required).not.toContain("next");
    }
  });

  it("is string | null in the result type, and an optional string in the arguments type", () => {
    const dir = tempDir("projector-next-types-");
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(
      join(dir, "consumer.ts"),
      [
        'import type { ListCallsArguments, ListCallsResult } from "./index.js";',
        "type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
        'export const resultNext: Same<ListCallsResult["next"], string | null> = true;',
        'export const argumentNext: Same<ListCallsArguments["next"], string | undefined> = true;',
      ].join("\n"),
    );
    expect(typecheck([join(dir, "consumer.ts")])).toEqual([]);
  });
});

/** The problems generate reports for one tool of the fixture's spec, annotated as written. */
async function problemsOf(tool: string, nameRule = "keep") {
  const dir = tempDir("projector-next-");
  writeFileSync(
    join(dir, "projector.yaml"),
    [
      `spec: ${JSON.stringify(SPEC)}`,
      "output: out",
      "resources:",
      "  item:",
      "    schema: Item",
      "    fields:",
      '      id: { fact: "the API\'s own short ids" }',
      `      name: ${nameRule}`,
      "tools:",
      ...tool.split("\n").map((line) => `  ${line}`),
    ].join("\n"),
  );
  return (await generateFrom(join(dir, "projector.yaml"))).problems.map((d) => `${d.code} ${d.message}`);
}

describe("generate checks page.next against the spec and the tool's inputs", () => {
  it.each([
    ['{ drop: "staff only" }', "dropped"],
    ["{ detail: full }", "sent only in full detail"],
  ])("refuses after_last on a field the model is not shown (%s)", async (rule, why) => {
    expect(
      await problemsOf("list_messages:\n  operation: listMessages\n  page: { next: { after_last: name, param: before } }", rule),
    ).toContainEqual(expect.stringMatching(new RegExp(`PRJ090 .*after_last: name is ${why}, and next would show its value`)));
  });

  it.each([
    [
      "a body path the response lacks",
      "list_tickets:\n  operation: listTickets\n  page: { next: links.nxt }",
      /PRJ031 .*no links\.nxt \(did you mean "next"\?\)/,
    ],
    [
      "a parameter the operation lacks",
      "list_events:\n  operation: listEvents\n  page: { next: { path: meta.next_cursor, param: cursr } }",
      /PRJ090 .*has no query parameter "cursr" \(did you mean "cursor"\?\)/,
    ],
    [
      "a parameter the inputs fix",
      "list_calls:\n  operation: listCalls\n  page: { next: { offset: offset, limit: limit } }\n  inputs: { offset: { fixed: 0 } }",
      /PRJ091 .*sets "offset", which the tool's inputs fix/,
    ],
    [
      "a parameter the inputs drop",
      'list_messages:\n  operation: listMessages\n  page: { next: { after_last: id, param: before } }\n  inputs: { before: { drop: "newest only" } }',
      /PRJ091 .*sets "before", which the tool's inputs drop/,
    ],
    [
      "a record field the records lack",
      "list_messages:\n  operation: listMessages\n  page: { next: { after_last: uid, param: before } }",
      /PRJ090 .*the records have no uid/,
    ],
    [
      "an argument already named next",
      "list_calls:\n  operation: listCalls\n  page: { next: { offset: offset } }\n  inputs: { limit: { as: next } }",
      /PRJ091 .*parameter "limit" is passed as `next`/,
    ],
    [
      "a guess left undecided",
      'list_notes:\n  operation: listNotes\n  page: { next: { todo: "it takes page" } }',
      /PRJ032 .*page\.next is still a guess: it takes page/,
    ],
    [
      "a header that is no header name",
      'list_orders:\n  operation: listOrders\n  page: { next: { header: "li nk" } }',
      /PRJ002 "li nk" is not a header name/,
    ],
    [
      "an after_last without its parameter",
      "list_messages:\n  operation: listMessages\n  page: { next: { after_last: id } }",
      /PRJ002 .*needs the query parameter/,
    ],
    [
      "a key page.next does not take",
      "list_events:\n  operation: listEvents\n  page: { next: { path: meta.next_cursor, parm: cursor } }",
      /PRJ002 unknown key "parm" in page\.next \(did you mean "param"\?\)/,
    ],
  ])("refuses %s", async (_what, tool, message) => {
    expect(await problemsOf(tool)).toEqual([expect.stringMatching(message)]);
  });

  it("refuses a cursor in the body when the parameter named like it is dropped", async () => {
    const dropped = await problemsOf(
      'list_events:\n  operation: listEvents\n  page: { next: meta.next_cursor }\n  inputs: { cursor: { drop: "first pages only" } }',
    );
    expect(dropped).toEqual([expect.stringMatching(/PRJ090 .*cannot tell which query parameter takes the cursor at meta\.next_cursor/)]);
  });
});

describe("init drafts page.next from what the spec declares", () => {
  it("gives the Link header, a next URL, a cursor and offsets for sure, the last id as a guess, and a todo for page numbers alone", async () => {
    const spec = await loadSpec(SPEC, "spec.yaml");
    const draft = (acceptGuesses: boolean) =>
      parse(initAnnotation(spec, { file: "projector.yaml", spec: "spec.yaml", output: "out", acceptGuesses }).text).tools;
    const next = (tools: Record<string, { page?: { next?: unknown } }>) =>
      Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, tool.page?.next]));
    expect(next(draft(false))).toEqual({
      list_orders: { header: "link" },
      list_tickets: "links.next",
      list_events: "meta.next_cursor",
      list_messages: {
        todo: "before may take the last record's id; check that the API pages so",
        after_last: "id",
        param: "before",
        limit: "limit",
      },
      list_calls: { offset: "offset", limit: "limit" },
      list_notes: {
        todo: "it takes page, but the response gives no next URL or cursor; say where the next page comes from, or remove next",
      },
    });
    const accepted = next(draft(true));
    expect(accepted["list_messages"]).toEqual({ after_last: "id", param: "before", limit: "limit" });
    expect(accepted["list_notes"]).toBeUndefined();
  });
});

describe("projector tokens", () => {
  it("counts what next adds to each page's text, as JSON and as a table", async () => {
    const dir = tempDir("projector-next-tokens-");
    const tokens = async (tool: string, payload: unknown, json: boolean) => {
      writeFileSync(join(dir, `${tool}.json`), JSON.stringify(payload));
      const run = await cli(["tokens", "-c", FIXTURE, "--tool", tool, join(dir, `${tool}.json`), ...(json ? ["--json"] : [])], dir);
      expect(run.stderr).toBe("");
      return run.stdout;
    };
    const events = JSON.parse(await tokens("list_events", { events: EVENTS.slice(0, 2), meta: { next_cursor: "c2" } }, true));
    expect(events.next).toEqual({ tokens: expect.any(Number), value: "cursor=c2" });
    expect(events.next.tokens).toBeGreaterThan(2);
    // A table's next is one line, `next: offset=2`; no request was sent, so the offset starts at 0.
    const calls = JSON.parse(await tokens("list_calls", { calls: CALLS.slice(0, 2) }, true));
    expect(calls.next).toEqual({ tokens: expect.any(Number), value: "offset=2" });
    expect(calls.next.tokens).toBeLessThan(events.next.tokens);
    expect(await tokens("list_calls", { calls: [] }, false)).toMatch(/^next: \d+ tokens of the page's text, null here \(the last page/m);
  });
});

describe("schema/projector.schema.json", () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(join(ROOT, "schema/projector.schema.json"), "utf8")),
  );
  const withNext = (next: unknown) => ({
    spec: "a.yaml",
    output: "out",
    tools: { t: { operation: "o", page: { total: "meta.total", next } } },
  });
  const parses = (next: unknown) => {
    try {
      return parseAnnotation(JSON.stringify(withNext(next)), "projector.json").tools[0]!.next !== undefined;
    } catch {
      return false;
    }
  };

  it.each([
    "links.next",
    { path: "meta.next_cursor", param: "cursor" },
    { path: "links.next" },
    { header: "link" },
    { after_last: "id", param: "before" },
    { after_last: "id", param: "before", limit: "limit" },
    { offset: "offset", limit: "limit" },
    { offset: "offset" },
    { todo: "say where the next page comes from" },
  ])("accepts page.next %j, as generate does", (next) => {
    expect(validate(withNext(next)), JSON.stringify(validate.errors)).toBe(true);
    expect(parses(next)).toBe(true);
  });

  it.each([
    "",
    { header: "li nk" },
    { after_last: "id" },
    { path: "links.next", parm: "x" },
    { offset: "offset", param: "x" },
    3,
    { nothing: 1 },
  ])("refuses page.next %j, as generate does", (next) => {
    expect(validate(withNext(next))).toBe(false);
    expect(parses(next)).toBe(false);
  });
});
