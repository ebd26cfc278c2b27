import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFrom, importGenerated, ROOT } from "./helpers/pipeline.js";

type Outcome = { result?: any; text?: string; error?: string };
type Generated = {
  toolDefinitions: { name: string; description: string; inputSchema: any; outputSchema: any }[];
  anthropicToolDefinitions: unknown[];
  openaiToolDefinitions: unknown[];
  createTools: (options: { client: unknown }) => Record<string, (args: unknown) => Promise<Outcome>>;
  registerTools: (server: unknown, tools: unknown, schemas: unknown) => void;
  projectListOrders: (response: unknown) => Promise<{ orders: { id: string }[] }>;
  ID_BOOK_SIZE: number;
};

const FIXTURE = join(ROOT, "test/fixtures/inputs/projector.yaml");
const A = "ord_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const A_TWIN = "ord_9f3a71c4-77aa-4f31-8d2c-1e5b6c9042af";
const B = "ord_0b7c52de-91a4-4f0e-8d3b-6e2a0c9f4417";

/** A tiny API: records every request's URL, answers /orders with `orders` and /orders/{id} for known ids. */
function fakeApi() {
  const requests: string[] = [];
  let orders: { id: string; state: number }[] = [];
  const server: HttpServer = createServer((request, response) => {
    requests.push(request.url ?? "");
    const url = new URL(request.url ?? "/", "http://x");
    response.setHeader("content-type", "application/json");
    if (url.pathname === "/orders") return response.end(JSON.stringify({ items: orders }));
    const id = decodeURIComponent(url.pathname.replace(/^\/orders\//, ""));
    const order = orders.find((o) => o.id === id);
    response.statusCode = order ? 200 : 404;
    response.end(JSON.stringify(order ?? { message: "no such order" }));
  });
  return {
    requests,
    server,
    serve: (list: { id: string; state: number }[]) => (orders = list),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
  };
}

let generated: Generated;
const api = fakeApi();
let baseUrl: string;
let tools: Record<string, (args: unknown) => Promise<Outcome>>;

beforeAll(async () => {
  const output = await generateFrom(FIXTURE);
  expect(output.problems).toEqual([]);
  generated = await importGenerated<Generated>(output.files);
  baseUrl = await api.start();
  tools = generated.createTools({ client: createClient({ baseUrl }) });
});
afterAll(() => new Promise<void>((resolve) => api.server.close(() => resolve())));

describe("toolDefinitions", () => {
  it("describes each tool from the operation or the annotation, and shows only the arguments the model sets", () => {
    const byName = Object.fromEntries(generated.toolDefinitions.map((d) => [d.name, d]));
    expect(byName["list_orders"]!.description).toBe("List orders\n\nNewest first.");
    expect(byName["get_order"]!.description).toBe("One order by its id.");
    const list = byName["list_orders"]!.inputSchema;
    expect(Object.keys(list.properties)).toEqual(["state", "stage", "color", "tag", "filter", "max", "page_number", "code"]);
    expect(list.properties.max).toEqual({ type: "integer", minimum: 1, maximum: 100, description: "How many orders, at most" });
    expect(list.additionalProperties).toBe(false);
    expect(byName["get_order"]!.inputSchema.required).toEqual(["order_id"]);
    // No `$schema`: validators of either draft compile it (test/ecosystem.test.ts).
    expect(Object.keys(byName["get_order"]!.outputSchema)).not.toContain("$schema");
  });

  it("shows a legend's words in place of the codes, from each source", () => {
    const properties = generated.toolDefinitions.find((d) => d.name === "list_orders")!.inputSchema.properties;
    expect(properties.state.enum).toEqual(["open", "shipped"]); // a resource field's legend, same $ref
    expect(properties.stage.enum).toEqual(["draft", "in review", "done"]); // the spec's x-enum-varnames
    expect(properties.color.enum).toEqual(["red", "green"]); // the annotation's inputs legend
  });

  it("gives the definitions in Anthropic's and OpenAI's shapes", () => {
    const first = generated.toolDefinitions[0]!;
    expect(generated.anthropicToolDefinitions[0]).toEqual({
      name: first.name,
      description: first.description,
      input_schema: first.inputSchema,
    });
    expect(generated.openaiToolDefinitions[0]).toEqual({
      type: "function",
      function: { name: first.name, description: first.description, parameters: first.inputSchema },
    });
  });
});

describe("createTools", () => {
  it("sends codes for words, form arrays, deepObject, renamed and fixed parameters", async () => {
    api.serve([{ id: A, state: 10 }]);
    const before = api.requests.length;
    const outcome = await tools["list_orders"]!({
      state: "shipped",
      stage: "in review",
      color: "green",
      tag: ["a", "b"],
      filter: { owner: "kim" },
      max: 5,
      page_number: 2,
    });
    expect(outcome.error).toBeUndefined();
    expect(api.requests.length).toBe(before + 1);
    const url = new URL(api.requests.at(-1)!, "http://x");
    expect(url.pathname).toBe("/orders");
    expect([...url.searchParams]).toEqual([
      ["state", "20"],
      ["stage", "2"],
      ["color", "g"],
      ["tag", "a"],
      ["tag", "b"],
      ["filter[owner]", "kim"],
      ["limit", "5"],
      ["page[number]", "2"],
      ["tenant", "acme"],
    ]);
    expect(outcome.result).toEqual({ orders: [{ id: "ord_9f3a71c4", state: "open" }] });
    expect(outcome.text).toBe(JSON.stringify(outcome.result));
  });

  it("takes the short id a result gave and sends the full id in the path", async () => {
    api.serve([{ id: A, state: 10 }]);
    const listed = await tools["list_orders"]!({});
    const outcome = await tools["get_order"]!({ order_id: listed.result.orders[0].id });
    expect(api.requests.at(-1)).toBe(`/orders/${A}`);
    expect(outcome.result).toEqual({ id: "ord_9f3a71c4", state: "open" });
  });

  it("sends an id it never handed out as given, and reports the 404 for the model in the API's words", async () => {
    const outcome = await tools["get_order"]!({ order_id: "ord_nothing" });
    expect(api.requests.at(-1)).toBe("/orders/ord_nothing");
    expect(outcome.error).toBe("get_order: the API answered 404: no such order");
  });

  it("lengthens colliding short ids, sends the longer forms in full, and refuses the ambiguous one", async () => {
    api.serve([
      { id: A, state: 10 },
      { id: A_TWIN, state: 20 },
    ]);
    const listed = await tools["list_orders"]!({});
    const ids: string[] = listed.result.orders.map((o: { id: string }) => o.id);
    expect(ids.every((id) => id.length > "ord_9f3a71c4".length && id.length < A.length)).toBe(true);
    await tools["get_order"]!({ order_id: ids[1] });
    expect(api.requests.at(-1)).toBe(`/orders/${A_TWIN}`);
    const before = api.requests.length;
    const ambiguous = await tools["get_order"]!({ order_id: "ord_9f3a71c4" });
    expect(ambiguous.error).toMatch(/^get_order: order_id "ord_9f3a71c4" is ambiguous/);
    expect(api.requests.length).toBe(before);
  });

  it("rejects bad arguments before any request, naming the field and what it accepts", async () => {
    const before = api.requests.length;
    expect((await tools["list_orders"]!({ state: "closed" })).error).toBe(
      'list_orders: bad arguments: state must be one of "open", "shipped", not "closed"',
    );
    expect((await tools["list_orders"]!({ max: 0 })).error).toBe("list_orders: bad arguments: max must be at least 1");
    expect((await tools["list_orders"]!({ tag: ["a", 3] })).error).toBe("list_orders: bad arguments: tag[1] must be string, not 3");
    expect((await tools["list_orders"]!({ tenant: "other" })).error).toBe(
      "list_orders: bad arguments: tenant is not an argument here; accepted: state, stage, color, tag, filter, max, page_number, code",
    );
    expect((await tools["list_orders"]!({ code: "ab" })).error).toBe("list_orders: bad arguments: code must match ^[A-Z]{3}$");
    expect((await tools["get_order"]!({})).error).toBe("get_order: bad arguments: order_id is required");
    expect(api.requests.length).toBe(before);
  });

  it("reports a network failure without throwing", async () => {
    const down = fakeApi();
    const url = await down.start();
    await new Promise<void>((resolve) => down.server.close(() => resolve()));
    const offline = generated.createTools({ client: createClient({ baseUrl: url }) });
    expect((await offline["list_orders"]!({})).error).toMatch(/^list_orders: could not reach the API \(.+\); try again later$/);
  });
});

describe("the id book", () => {
  it(`keeps the last ID_BOOK_SIZE short ids: the oldest is evicted and then sent as given`, async () => {
    const hex = (n: number) => n.toString(16).padStart(8, "0");
    const many = Array.from({ length: generated.ID_BOOK_SIZE + 1 }, (_, i) => ({
      id: `bk_${hex(i + 1)}-2d18-4b6e-9c05-8ab3f2e17d90`,
      state: 10,
    }));
    await generated.projectListOrders({ items: many });
    api.serve([]);
    await tools["get_order"]!({ order_id: `bk_${hex(1)}` });
    expect(api.requests.at(-1)).toBe(`/orders/bk_${hex(1)}`);
    await tools["get_order"]!({ order_id: `bk_${hex(2)}` });
    expect(api.requests.at(-1)).toBe(`/orders/${many[1]!.id}`);
  });

  it("never hands out a short id it forgot for another id: the model may still hold it for the first", async () => {
    const first = "ev_7a1c03d2-1111-4b6e-9c05-8ab3f2e17d90";
    const other = "ev_7a1c03d2-2222-4b6e-9c05-8ab3f2e17d90";
    const shown = await generated.projectListOrders({ items: [{ id: first, state: 10 }] });
    expect(shown.orders[0]!.id).toBe("ev_7a1c03d2");
    const hex = (n: number) => n.toString(16).padStart(8, "0");
    const filler = Array.from({ length: generated.ID_BOOK_SIZE }, (_, i) => ({
      id: `fl_${hex(i + 1)}-2d18-4b6e-9c05-8ab3f2e17d90`,
      state: 10,
    }));
    await generated.projectListOrders({ items: filler });
    // Forgotten by the book, the form goes to no other id: this one is shown whole, and each id is sent as meant.
    const later = await generated.projectListOrders({ items: [{ id: other, state: 10 }] });
    expect(later.orders[0]!.id).toBe(other);
    api.serve([]);
    await tools["get_order"]!({ order_id: "ev_7a1c03d2" });
    expect(api.requests.at(-1)).toBe("/orders/ev_7a1c03d2");
    await tools["get_order"]!({ order_id: other });
    expect(api.requests.at(-1)).toBe(`/orders/${other}`);
    // The id it stood for takes it again.
    const again = await generated.projectListOrders({ items: [{ id: first, state: 10 }] });
    expect(again.orders[0]!.id).toBe("ev_7a1c03d2");
    await tools["get_order"]!({ order_id: "ev_7a1c03d2" });
    expect(api.requests.at(-1)).toBe(`/orders/${first}`);
  });
});

describe("registerTools", () => {
  it("serves tools/list with the exact schemas and tools/call with structuredContent and one text block", async () => {
    const server = new Server({ name: "orders", version: "1.0.0" }, { capabilities: { tools: {} } });
    generated.registerTools(server, tools, { ListToolsRequestSchema, CallToolRequestSchema });
    const client = new McpClient({ name: "test", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const listed = await client.listTools();
    expect(JSON.parse(JSON.stringify(listed.tools))).toEqual(JSON.parse(JSON.stringify(generated.toolDefinitions)));
    api.serve([{ id: B, state: 20 }]);
    const called = await client.callTool({ name: "list_orders", arguments: { state: "shipped" } });
    expect(called.structuredContent).toEqual({ orders: [{ id: "ord_0b7c52de", state: "shipped" }] });
    expect(called.content).toEqual([{ type: "text", text: JSON.stringify(called.structuredContent) }]);
    const bad = await client.callTool({ name: "list_orders", arguments: { state: 3 } });
    expect(bad).toEqual({ content: [{ type: "text", text: "list_orders: bad arguments: state must be string, not 3" }], isError: true });
    await client.close();
  });
});
