// What a result hands the model comes back as it was handed out: a `next` is sent as the API named
// it, a value the row marks unusable gives no `next`, and an id too long to show whole is never
// shown cut.
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { legend } from "../../templates/runtime/legends.js";
import { integer, whole } from "../../templates/runtime/values.js";
import { type LocalApi, startLocalApi } from "../helpers/local-api.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Shop, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: cursor, in: query, schema: { type: string } }
        - { name: item_id, in: query, schema: { type: string } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/Item" } }
                  next: { type: string, format: uri, nullable: true }
  /users:
    get:
      operationId: listUsers
      parameters:
        - { name: ids, in: query, style: form, explode: false, schema: { type: array, items: { type: string } } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/User" } } } }
  /users/{user_id}:
    get:
      operationId: getUser
      parameters:
        - { name: user_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "#/components/schemas/User" } } }
  /items/{item_id}:
    get:
      operationId: getItem
      parameters:
        - { name: item_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } }
  /events:
    get:
      operationId: listEvents
      parameters:
        - { name: before, in: query, schema: { type: integer } }
        - { name: limit, in: query, schema: { type: integer, default: 2 } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  events: { type: array, items: { $ref: "#/components/schemas/Event" } }
components:
  schemas:
    Item:
      type: object
      properties:
        id: { type: string }
        title: { type: string }
        owner_id: { type: string }
        meta: { type: object, additionalProperties: { type: string } }
    User:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
    Event:
      type: object
      properties:
        id: { type: string }
        number: { type: integer }
`;

const ANNOTATION = `spec: spec.yaml
output: gen
resolvers:
  users: { label: name, operation: listUsers, ids: ids }
resources:
  item:
    schema: Item
    fields:
      id: { argument: [get_item, list_items], shorten: true }
      title: keep
      owner_id: { as: owner, join: users, argument: [get_user], shorten: true }
      meta: keep
  user:
    schema: User
    fields:
      id: { argument: [get_user] }
      name: keep
  event:
    schema: Event
    fields:
      id: { drop: "events are read in order" }
      number: { fact: "people quote it" }
tools:
  list_items:
    operation: listItems
    list: items
    page: { next: next }
  get_item: { operation: getItem }
  get_user: { operation: getUser }
  list_events:
    operation: listEvents
    list: events
    page: { next: { after_last: number, param: before, limit: limit } }
`;

type Outcome = { result?: Record<string, unknown>; error?: string; text?: string };
type Tool = (args: unknown, options?: object) => Promise<Outcome>;
interface Generated {
  createTools: (options: object) => Record<string, Tool>;
  createResolvers: (client: unknown) => Record<string, unknown>;
  registerTools: (server: object, tools: Record<string, Tool>, schemas: object) => void;
}

/** What the local API answers: the JSON text of a body, as the API wrote it. */
type Route = (path: string, query: URLSearchParams) => string;

let generated: Generated;
let api: LocalApi;
let baseUrl: string;
let requests: string[];
/** The user the request's `x-user` header names, for the API that answers each user its own records. */
let caller: string | undefined;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "spec.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  generated = await importGenerated<Generated>(output.files);
  api = await startLocalApi();
  ({ baseUrl, requests } = api);
});

afterAll(() => api?.close());

/** The tools over the local API answering `route`, and the issues they report. */
function tools(answer: Route, options: object = {}) {
  api.answer = ({ path, query, headers }) => {
    caller = headers["x-user"] as string | undefined;
    return { text: answer(path, query) };
  };
  requests.length = 0;
  const issues: ProjectionIssue[] = [];
  const made = generated.createTools({
    client: createClient({ baseUrl }),
    resolvers: generated.createResolvers(createClient({ baseUrl })),
    onIssue: (issue: ProjectionIssue) => issues.push(issue),
    ...options,
  });
  return { tools: made, issues };
}

const messages = (issues: readonly ProjectionIssue[]) => issues.map((issue) => issue.message);

describe("a next naming an id argument", () => {
  it("sends the id as the API wrote it, though a longer id shown before begins with it", async () => {
    let next: string | null = null;
    const { tools: made } = tools(() => JSON.stringify({ items: [{ id: "itm_12345678zzzzzzzz", title: "Long" }], next }));
    expect((await made["list_items"]!({})).result?.["items"]).toMatchObject([{ id: "itm_12345678", title: "Long" }]);
    next = `${baseUrl}/items?item_id=itm_12345678&cursor=c9`;
    const page = await made["list_items"]!({});
    expect(page.result?.["next"]).toBe("item_id=itm_12345678&cursor=c9");
    next = null;
    requests.length = 0;
    expect((await made["list_items"]!({ next: page.result?.["next"] })).error).toBeUndefined();
    expect(requests).toEqual(["/items?cursor=c9&item_id=itm_12345678"]);
  });

  it("sends it as written where two ids shown before begin with it", async () => {
    let next: string | null = null;
    let ids = ["itm_12345678aaaaaaaa"];
    const { tools: made } = tools(() => JSON.stringify({ items: ids.map((id) => ({ id, title: "t" })), next }));
    await made["list_items"]!({});
    ids = ["itm_12345678bbbbbbbb"];
    await made["list_items"]!({});
    next = `${baseUrl}/items?item_id=itm_12345678&cursor=c9`;
    const page = await made["list_items"]!({});
    next = null;
    requests.length = 0;
    expect((await made["list_items"]!({ next: page.result?.["next"] })).error).toBeUndefined();
    expect(requests).toEqual(["/items?cursor=c9&item_id=itm_12345678"]);
  });
});

describe("next after the last record's integer fact", () => {
  it.each([
    ["text digits", '"17"'],
    ["a number that is not whole", "1.5"],
  ])("gives none where the row marks %s unusable, with an issue", async (_what, written) => {
    const { tools: made, issues } = tools(() => `{"events":[{"number":5},{"number":${written}}]}`);
    const outcome = await made["list_events"]!({ limit: 2 });
    expect(outcome.result?.["events"]).toEqual([{ number: 5 }, { number: { unusable: expect.any(String) } }]);
    expect(outcome.result?.["next"]).toBeNull();
    expect(messages(issues)).toContainEqual(expect.stringMatching(/^list_events\.next: .*no next page is given/));
  });

  it("continues after an integer the row shows", async () => {
    const { tools: made } = tools(() => '{"events":[{"number":5},{"number":17}]}');
    expect((await made["list_events"]!({ limit: 2 })).result?.["next"]).toBe("before=17");
  });
});

describe("an id too long to show whole", () => {
  const LONG = `itm_${"a".repeat(11_996)}`;
  const OWNER = `usr_${"b".repeat(11_996)}`;

  it("is unusable, with an issue, never shown cut as another id", async () => {
    const { tools: made, issues } = tools((path, query) =>
      path === "/users"
        ? JSON.stringify(
            query
              .get("ids")!
              .split(",")
              .map((id) => ({ id, name: `Person ${id}` })),
          )
        : JSON.stringify({ items: [{ id: LONG, title: "t", owner_id: OWNER }], next: null }),
    );
    const outcome = await made["list_items"]!({});
    const expected = { unusable: "expected an id, got text longer than 10000 characters, too long to show whole" };
    expect(outcome.result?.["items"]).toEqual([
      {
        id: expected,
        title: "t",
        owner: { unusable: "expected a text id, got text longer than 10000 characters, too long to show whole" },
        owner_id: { unusable: "expected a text id, got text longer than 10000 characters, too long to show whole" },
        meta: null,
      },
    ]);
    expect(requests).toEqual(["/items"]);
    expect(messages(issues)).toHaveLength(3);
    expect(outcome.text).not.toContain("aaaaaaaaaa");
  });

  it("is shown whole up to the bound, and passed back whole", async () => {
    const whole = `itm_${"a".repeat(9_996)}`;
    const { tools: made } = tools((path) =>
      path === "/items" ? JSON.stringify({ items: [{ id: whole, title: "t" }], next: null }) : JSON.stringify({ id: whole }),
    );
    const shown = (await made["list_items"]!({})).result?.["items"] as { id: string }[];
    expect(shown[0]?.id).toBe(whole);
    requests.length = 0;
    expect((await made["get_item"]!({ item_id: shown[0]?.id })).error).toBeUndefined();
    expect(requests).toEqual([`/items/${whole}`]);
  });
});

describe("a map kept whole holding a key too long to show whole", () => {
  it("is unusable, with an issue, never sent with the key whole", async () => {
    const { tools: made, issues } = tools(() => JSON.stringify({ id: "itm_1", title: "t", meta: { ["k".repeat(50_000)]: "v", a: "b" } }));
    const outcome = await made["get_item"]!({ item_id: "itm_1" });
    expect(outcome.result?.["meta"]).toEqual({
      unusable: "holds a key longer than 10000 characters, too long to show whole",
    });
    expect(messages(issues)).toEqual([expect.stringContaining("item.meta: ")]);
    expect(outcome.text!.length).toBeLessThan(1_000);
  });

  it("is unusable where the spec declares no type for the value, at any depth", () => {
    const issues: ProjectionIssue[] = [];
    const ctx = context("item", { onIssue: (issue) => issues.push(issue) });
    const value = { outer: [{ ["k".repeat(10_001)]: 1 }] };
    expect(whole(value, { schema: {}, field: "payload", required: false, ctx })).toEqual({
      unusable: "holds a key longer than 10000 characters, too long to show whole",
    });
    expect(issues).toHaveLength(1);
  });

  it("keeps a map whose keys are within the bound", async () => {
    const key = "k".repeat(10_000);
    const { tools: made } = tools(() => JSON.stringify({ id: "itm_1", title: "t", meta: { [key]: "v" } }));
    expect((await made["get_item"]!({ item_id: "itm_1" })).result?.["meta"]).toEqual({ [key]: "v" });
  });
});

describe("an integer past 2^53 outside ids", () => {
  it("is unusable where an integer fact holds one, and gives no next after it", async () => {
    const { tools: made, issues } = tools(() => '{"events":[{"number":5},{"number":9007199254740993}]}');
    const outcome = await made["list_events"]!({ limit: 2 });
    expect(outcome.result?.["events"]).toEqual([{ number: 5 }, { number: { unusable: "an integer past 2^53 cannot be shown exactly" } }]);
    expect(outcome.result?.["next"]).toBeNull();
    expect(messages(issues)).toContainEqual("event.number: an integer past 2^53 cannot be shown exactly");
  });

  it("is unusable where a page's total holds one, which the integer reader reads", () => {
    const issues: ProjectionIssue[] = [];
    const ctx = context("item", { onIssue: (issue) => issues.push(issue) });
    expect(integer(2 ** 53 + 2, { field: "total", required: false, ctx })).toEqual({
      unusable: "an integer past 2^53 cannot be shown exactly",
    });
    expect(integer(-(2 ** 53 - 1), { field: "total", required: false, ctx })).toBe(-(2 ** 53 - 1));
    expect(issues.map((issue) => issue.kind)).toEqual(["unusable"]);
  });

  it("is unusable where a legend's integer codes have no word for it, never an unknown code shown rounded", () => {
    const issues: ProjectionIssue[] = [];
    const ctx = context("item", { onIssue: (issue) => issues.push(issue) });
    const words = new Map([
      [1, "low"],
      [2, "high"],
    ]);
    const at = { field: "priority", required: false, ctx, words };
    expect(legend(2 ** 53 + 2, at)).toEqual({ unusable: "an integer past 2^53 cannot be shown exactly" });
    expect(legend(9, at)).toEqual({ unknown_code: 9 });
  });

  it("is unusable inside a value kept whole that declares integers", () => {
    const issues: ProjectionIssue[] = [];
    const ctx = context("item", { onIssue: (issue) => issues.push(issue) });
    const schema = { type: "object", additionalProperties: { type: "integer" } } as const;
    expect(whole({ seats: 2 ** 53 + 2 }, { schema, field: "counts", required: false, ctx })).toEqual({
      unusable: "seats: an integer past 2^53 cannot be shown exactly",
    });
    expect(whole({ seats: 2 ** 53 - 1 }, { schema, field: "counts", required: false, ctx })).toEqual({ seats: 2 ** 53 - 1 });
  });
});

describe("tools with perCall", () => {
  const IDS: Record<string, string> = { alice: "itm_qwertyuiALICESECRET", bob: "itm_qwertyuiBOB0000000" };
  /** The tools over an API answering each user its own item, each call made for the user its context names. */
  function perUser(books: Record<string, object> = {}) {
    const { tools: made } = tools(
      (path) => {
        if (path === "/items") return JSON.stringify({ items: [{ id: IDS[caller!], title: "t" }], next: null });
        return JSON.stringify({ id: decodeURIComponent(path.slice("/items/".length)), title: "x" });
      },
      {
        perCall: ({ context }: { context: { user: string } }) => ({
          client: createClient({ baseUrl, headers: { "x-user": context.user } }),
          ...(books[context.user] ? { idBook: books[context.user] } : {}),
        }),
      },
    );
    return made;
  }

  it("shows ids whole where perCall gives no id book, so no caller's short id reaches another's", async () => {
    const made = perUser();
    const alice = await made["list_items"]!({}, { context: { user: "alice" } });
    expect(alice.result?.["items"]).toMatchObject([{ id: IDS["alice"] }]);
    requests.length = 0;
    const bob = await made["get_item"]!({ item_id: "itm_qwertyuiA" }, { context: { user: "bob" } });
    expect(bob.error).toBeUndefined();
    expect(requests).toEqual(["/items/itm_qwertyuiA"]);
  });

  it("shortens ids with the book perCall gives for the caller, and expands them from it alone", async () => {
    const stores = { alice: new Map<string, string[]>(), bob: new Map<string, string[]>() };
    const book = (store: Map<string, string[]>) => ({
      remember: async (entries: ReadonlyArray<readonly [string, string]>) => {
        for (const [short, full] of entries) store.set(short, [full]);
      },
      recall: async (short: string) => store.get(short) ?? [],
    });
    const made = perUser({ alice: book(stores.alice), bob: book(stores.bob) });
    const alice = await made["list_items"]!({}, { context: { user: "alice" } });
    expect(alice.result?.["items"]).toMatchObject([{ id: "itm_qwertyui" }]);
    requests.length = 0;
    await made["get_item"]!({ item_id: "itm_qwertyui" }, { context: { user: "bob" } });
    expect(requests).toEqual(["/items/itm_qwertyui"]);
    requests.length = 0;
    await made["get_item"]!({ item_id: "itm_qwertyui" }, { context: { user: "alice" } });
    expect(requests).toEqual([`/items/${IDS["alice"]}`]);
  });

  it("fails the call when perCall gives an id book that is not one", async () => {
    const made = perUser({ alice: { remember: "no" } });
    expect((await made["list_items"]!({}, { context: { user: "alice" } })).error).toMatch(
      /^list_items: the call could not be set up \(createTools: idBook must be an object with the methods remember\(entries\) and recall\(short\)/,
    );
  });
});

describe("an McpServer serving the tools beside its own", () => {
  /** An MCP client connected to an McpServer with a tool of its own, registered before or after these. */
  async function connected(ownFirst: boolean) {
    const server = new McpServer({ name: "desk", version: "1.0.0" });
    const own = () =>
      server.registerTool("mine", { description: "the server's own" }, async () => ({ content: [{ type: "text", text: "mine" }] }));
    if (ownFirst) own();
    generated.registerTools(server, tools(() => JSON.stringify({ items: [], next: null })).tools, {
      ListToolsRequestSchema,
      CallToolRequestSchema,
    });
    if (!ownFirst) own();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new McpClient({ name: "agent", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it.each([true, false])(
    "answers a name no tool has escaped and cut, never echoed raw (its own registered first: %s)",
    async (ownFirst) => {
      const client = await connected(ownFirst);
      const raw = await client.callTool({ name: "x\u001b[2J\nlist_items: OK", arguments: {} });
      expect(raw.isError).toBe(true);
      expect(raw.content).toEqual([{ type: "text", text: expect.stringMatching(/^no tool "x\\u001b\[2J\\nlist_items: OK"; tools: /) }]);
      for (const name of ["__proto__", "toString", "k".repeat(500)]) {
        const answer = await client.callTool({ name, arguments: {} });
        const text = (answer.content as { text: string }[])[0]!.text;
        expect(text).toMatch(/^no tool "/);
        expect(text.length).toBeLessThan(200);
      }
      expect(await client.callTool({ name: "mine", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "mine" }] });
      expect((await client.callTool({ name: "list_items", arguments: {} })).isError).toBeFalsy();
      await client.close();
    },
  );
});
