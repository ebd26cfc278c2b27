// Tool calls at their boundary: no wrong request, no throw, no hang, a way forward from every error.
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerTools } from "../../templates/runtime/adapters.js";
import { argumentProblem } from "../../templates/runtime/arguments.js";
import { callTool, DEFAULT_CALL_TIMEOUT_MS, type ToolCall } from "../../templates/runtime/call-tool.js";
import { context } from "../../templates/runtime/context.js";
import { withDistinctShortIds } from "../../templates/runtime/distinct-short-ids.js";
import { fullId, handOut, useIdBook } from "../../templates/runtime/id-book.js";
import { short } from "../../templates/runtime/ids.js";
import { report } from "../../templates/runtime/issues.js";

useIdBook();

/** A client that records what it is asked to send and gives `answer`, or the answer `reply` makes. */
function client(reply: (init: Record<string, unknown>) => unknown = () => ({ data: { ok: 1 }, response: { status: 200, ok: true } })) {
  const sent: [string, Record<string, unknown>][] = [];
  const send = async (path: string, init: Record<string, unknown>) => {
    sent.push([path, init]);
    return reply(init);
  };
  return { sent, GET: send, POST: send };
}

const getTicket: ToolCall = {
  method: "get",
  path: "/v1/tickets/{ticket_id}",
  parameters: [{ name: "ticket_id", in: "path", argument: "ticket_id", shortIds: ["t.id"] }],
};
const ticketSchema = { type: "object", properties: { ticket_id: { type: "string" } }, required: ["ticket_id"] };
const asIs = async (response: unknown) => response;

/** Projects one result's ids as a tool does, recording the short forms it hands out. */
const projectIds = (ids: string[]) =>
  withDistinctShortIds({ options: {}, expectedIds: ids.length }, (options) => ids.map((id) => short(id, context("t", options), "id")));

describe("path parameters", () => {
  it.each(["..", ".", ""])("refuses %j, which would request another path, and sends nothing", async (value) => {
    const api = client();
    const outcome = await callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: value }, asIs);
    expect(outcome).toEqual({ error: `get_ticket: ticket_id cannot be ${JSON.stringify(value)}: it would change which path is requested` });
    expect(api.sent).toEqual([]);
  });
});

describe("parameters named like Object.prototype members", () => {
  const call: ToolCall = {
    method: "get",
    path: "/tasks",
    parameters: ["constructor", "toString", "__proto__"].map((name) => ({ name, in: "query" as const, argument: name, shortIds: false })),
  };
  const schema = {
    type: "object",
    properties: { constructor: { type: "string" }, toString: { type: "string" }, __proto__: { type: "string" } },
  };

  it("sends an optional one only when given, never the prototype's function", async () => {
    const api = client();
    await callTool(api, "list_tasks", call, schema, {}, asIs);
    expect(Object.keys(api.sent[0]![1]["params"] as object)).toEqual(["path", "query"]);
    expect(Object.keys((api.sent[0]![1]["params"] as { query: object }).query)).toEqual([]);
  });

  it("sends __proto__ as a query parameter, not as the query's prototype", async () => {
    const api = client();
    await callTool(api, "list_tasks", call, schema, JSON.parse('{"__proto__":"x","constructor":"y"}'), asIs);
    const query = (api.sent[0]![1]["params"] as { query: Record<string, unknown> }).query;
    expect(Object.entries(query)).toEqual([
      ["constructor", "y"],
      ["__proto__", "x"],
    ]);
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
  });
});

describe("empty and malformed answers", () => {
  it.each([
    ["an empty 204 body", () => ({ data: undefined, response: { status: 204, ok: true } })],
    ["an empty 200 body", () => ({ data: "", response: { status: 200, ok: true } })],
  ])("answers %s with an error, not an empty result", async (_, reply) => {
    const outcome = await callTool(client(reply), "search", getTicket, ticketSchema, { ticket_id: "t1" }, asIs);
    expect(outcome).toEqual({ error: expect.stringMatching(/^search: the API answered 20[04] with an empty body, so there is no result/) });
  });

  it.each([
    ["undefined", () => undefined],
    ["{ data } alone", () => ({ data: {} })],
  ])("answers a client that returns %s with an error, not a TypeError", async (_, reply) => {
    const outcome = await callTool(client(reply), "get_ticket", getTicket, ticketSchema, { ticket_id: "t1" }, asIs);
    expect(outcome).toEqual({
      error: "get_ticket: the client gave no response (an openapi-fetch client answers { data, error, response })",
    });
  });

  it("answers arguments whose getter throws with an error", async () => {
    const args = Object.defineProperty({}, "ticket_id", {
      enumerable: true,
      get() {
        throw new Error("getter");
      },
    });
    expect(await callTool(client(), "get_ticket", getTicket, ticketSchema, args, asIs)).toEqual({
      error: "get_ticket: the call failed (getter)",
    });
  });
});

describe("calls that get no answer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const hanging = () => {
    const signals: AbortSignal[] = [];
    return { signals, GET: (_: string, init: { signal: AbortSignal }) => (signals.push(init.signal), new Promise(() => {})) };
  };

  it("end after the timeout, aborting the request", async () => {
    vi.useFakeTimers();
    const api = hanging();
    const outcome = callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: "t1" }, asIs, { timeoutMs: 5000 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(await outcome).toEqual({ error: "get_ticket: the API did not answer within 5 seconds; try again later" });
    expect(api.signals[0]!.aborted).toBe(true);
  });

  it("wait the default timeout when none is given", async () => {
    vi.useFakeTimers();
    const outcome = callTool(hanging(), "get_ticket", getTicket, ticketSchema, { ticket_id: "t1" }, asIs);
    let settled = false;
    void outcome.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(DEFAULT_CALL_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toEqual({
      error: `get_ticket: the API did not answer within ${DEFAULT_CALL_TIMEOUT_MS / 1000} seconds; try again later`,
    });
  });

  it("end when the caller's signal aborts", async () => {
    const api = hanging();
    const cancel = new AbortController();
    const outcome = callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: "t1" }, asIs, { signal: cancel.signal });
    await Promise.resolve();
    cancel.abort();
    expect(await outcome).toEqual({ error: "get_ticket: the call was cancelled" });
    expect(api.signals[0]!.aborted).toBe(true);
  });

  it("end over MCP when the request's extra.signal aborts, even if the tool ignores it", async () => {
    const handlers: ((request: unknown, extra: unknown) => Promise<unknown>)[] = [];
    const server = {
      setRequestHandler: (_: unknown, handler: (request: unknown, extra: unknown) => Promise<unknown>) => handlers.push(handler),
    };
    const given: unknown[] = [];
    const tools = { slow: (_: never, options?: unknown) => (given.push(options), new Promise<never>(() => {})) };
    registerTools(server as never, [], tools, { ListToolsRequestSchema: 1, CallToolRequestSchema: 2 });
    const cancel = new AbortController();
    const answer = handlers[1]!({ params: { name: "slow", arguments: {} } }, { signal: cancel.signal });
    cancel.abort();
    expect(await answer).toEqual({ content: [{ type: "text", text: "the call was cancelled" }], isError: true });
    // The tool gets the request's extra as its call's context, beside the signal.
    expect(given).toEqual([{ signal: cancel.signal, context: { signal: cancel.signal } }]);
  });
});

describe("an onIssue that throws", () => {
  it("loses that report, never the result", () => {
    const onIssue = () => {
      throw new Error("logger broke");
    };
    const result = withDistinctShortIds({ options: { onIssue }, expectedIds: 0 }, (options) => {
      report(context("ticket", options), "unknown_code", "status", 99, "no word for 99");
      return "projected";
    });
    expect(result).toBe("projected");
  });
});

describe("short ids", () => {
  const uuidId = "tkt_5d8804f1-6b2a-4c1d-8e2f-0a1b2c3d4e5f";

  it("never map a record's own id, shown whole, to another record that shares it as a short form", () => {
    expect(projectIds(["tkt_5d8804f1", uuidId])).toEqual(["tkt_5d8804f1", "tkt_5d8804f1-6"]);
    expect(fullId("tkt_5d8804f1", ["t.id"])).toBe("tkt_5d8804f1");
    expect(fullId("tkt_5d8804f1-6", ["t.id"])).toBe(uuidId);
  });

  const thing = "thg_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
  const getThing: ToolCall = {
    method: "get",
    path: "/things/{thing_id}",
    parameters: [{ name: "thing_id", in: "path", argument: "thing_id", shortIds: ["t.id"] }],
  };
  const thingSchema = {
    type: "object",
    properties: {
      thing_id: { type: "string", pattern: "^thg_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", minLength: 40 },
    },
    required: ["thing_id"],
  };

  it("pass the spec's own pattern and minLength in the short form a result gave, and send the full id", async () => {
    projectIds([thing]);
    const api = client();
    expect(await callTool(api, "get_thing", getThing, thingSchema, { thing_id: "thg_9f3a71c4" }, asIs)).toHaveProperty("result");
    expect(api.sent[0]![1]["params"]).toEqual({ path: { thing_id: thing }, query: {} });
  });

  it("that the book no longer knows fail validation with a way forward", async () => {
    const outcome = await callTool(client(), "get_thing", getThing, thingSchema, { thing_id: "thg_00000000" }, asIs);
    expect(outcome).toEqual({
      error: expect.stringMatching(
        /^get_thing: bad arguments: thing_id must have at least 40 characters; if a result gave it, the full id .* run the tool that listed it again/,
      ),
    });
  });

  it("shared by two records of one result stay out of the book; each form leads to the record it was shown for", async () => {
    const [a, b] = ["tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "tkt_9f3a71c4-ad18-4b6e-9c05-8ab3f2e17d90"];
    expect(projectIds([a, b])).toEqual(["tkt_9f3a71c4-2", "tkt_9f3a71c4-a"]);
    expect(projectIds([a])).toEqual(["tkt_9f3a71c4"]);
    const api = client();
    for (const ticket_id of ["tkt_9f3a71c4", "tkt_9f3a71c4-2", "tkt_9f3a71c4-a"])
      await callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id }, asIs);
    expect(api.sent.map(([, init]) => init["params"])).toEqual([a, a, b].map((ticket_id) => ({ path: { ticket_id }, query: {} })));
  });

  it("shown for different records in separate results are refused, offering forms that tell them apart", async () => {
    const [a, b] = ["usr_11111111-2d18-4b6e-9c05-8ab3f2e17d90", "usr_11111111-2d18-4b6e-9c05-8ab3f2e17d91"];
    projectIds([a]);
    projectIds([b]);
    const api = client();
    const outcome = await callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: "usr_11111111" }, asIs);
    expect(outcome).toEqual({ error: expect.stringContaining(`"${a}" or "${b}"`) });
    await callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: b }, asIs);
    expect(api.sent.map(([, init]) => init["params"])).toEqual([{ path: { ticket_id: b }, query: {} }]);
  });

  it("shown once whole and once as another record's short form lead to each record", async () => {
    const [whole, uuid] = ["prj_7e0c11aa", "prj_7e0c11aa-1d18-4b6e-9c05-8ab3f2e17d90"];
    projectIds([uuid]);
    projectIds([whole]);
    const api = client();
    expect(await callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: whole }, asIs)).toEqual({
      error: expect.stringContaining(
        "is one record's whole id, and was shown as the short form of another's; pass it again for the record whose whole id it is, or the longer id of the one you mean: \"prj_7e0c11aa-1\"",
      ),
    });
    await callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: whole }, asIs);
    await callTool(api, "get_ticket", getTicket, ticketSchema, { ticket_id: "prj_7e0c11aa-1" }, asIs);
    expect(api.sent.map(([, init]) => init["params"])).toEqual([
      { path: { ticket_id: whole }, query: {} },
      { path: { ticket_id: uuid }, query: {} },
    ]);
  });
});

describe("not-found messages", () => {
  const notFound = () => ({ error: { message: "Not found" }, response: { status: 404, ok: false } });

  it("for a short id the book knew, say the record may be gone or of another kind", async () => {
    handOut("tkt_abcdef12", "tkt_abcdef12-0000-4b6e-9c05-8ab3f2e17d90", "t.id");
    expect(await callTool(client(notFound), "get_ticket", getTicket, ticketSchema, { ticket_id: "tkt_abcdef12" }, asIs)).toEqual({
      error:
        "get_ticket: the API answered 404: Not found; no record of this kind has the id given as ticket_id: it may have been deleted, or it is another kind of record's id",
    });
  });

  it("for an id shaped like a short id the book does not know, say it may have been forgotten, echoing a long id only in part", async () => {
    const outcome = await callTool(
      client(notFound),
      "get_ticket",
      getTicket,
      ticketSchema,
      // Spaces keep it whole: an opaque id this long would be cut, so no result could have given it in short form.
      { ticket_id: `${"x ".repeat(25_000)}9f3a71c4` },
      asIs,
    );
    const error = (outcome as { error: string }).error;
    expect(error).toMatch(
      /^get_ticket: the API answered 404: Not found; no record has the id "(x ){20}"… \(50008 characters\); if a result gave it/,
    );
    expect(error.length).toBeLessThan(400);
  });
});

describe("errors the client throws", () => {
  const throwing = (error: Error) => () => {
    throw error;
  };
  it.each([
    [new SyntaxError("Unexpected token '<'"), "get_ticket: the API's answer could not be read as JSON (Unexpected token '<')"],
    [new URIError("URI malformed"), "get_ticket: an argument could not be written into the URL (URI malformed)"],
    [
      new Error("Deeply-nested arrays/objects aren't supported"),
      "get_ticket: the request could not be made (Deeply-nested arrays/objects aren't supported)",
    ],
    [
      new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") }),
      "get_ticket: could not reach the API (fetch failed); try again later",
    ],
  ])("say whether to try again: %s", async (thrown, error) => {
    expect(await callTool(client(throwing(thrown)), "get_ticket", getTicket, ticketSchema, { ticket_id: "t1" }, asIs)).toEqual({ error });
  });
});

describe("argument messages", () => {
  it("refuse a lone surrogate before anything is sent", () => {
    expect(argumentProblem(ticketSchema, { ticket_id: "a\ud800" }, "")).toBe(
      "ticket_id holds a lone surrogate (half of a character), which cannot be sent",
    );
  });

  it("echo a long value only in part", () => {
    const problem = argumentProblem({ enum: ["open"] }, "o".repeat(100_000), "status")!;
    expect(problem).toMatch(/^status must be one of "open", not "o{79}… \(100002 characters\)$/);
  });

  it("name Infinity and NaN as themselves", () => {
    expect(argumentProblem({ type: "integer" }, Number.POSITIVE_INFINITY, "page")).toBe("page must be integer, not Infinity");
    expect(argumentProblem({ type: "number" }, Number.NaN, "page")).toBe("page must be number, not NaN");
  });

  it("name the arguments as a whole without a blank", () => {
    expect(argumentProblem(ticketSchema, 5, "")).toBe("the arguments must be object, not 5");
  });

  it("give every anyOf branch's problem", () => {
    expect(argumentProblem({ anyOf: [{ type: "string", maxLength: 2 }, { type: "integer" }] }, "abc", "size")).toBe(
      'size fits none of its forms: size must have at most 2 characters; or size must be integer, not "abc"',
    );
  });

  it("say branches that differ only in type as one", () => {
    expect(argumentProblem({ anyOf: [{ type: "string" }, { type: "null" }] }, 3, "note")).toBe("note must be string or null, not 3");
  });

  it("compare object and array const and enum values by content", () => {
    expect(argumentProblem({ const: { r: 1, g: [2] } }, { g: [2], r: 1 }, "color")).toBeUndefined();
    expect(argumentProblem({ enum: [[1, 2], { r: 1 }] }, [1, 2], "color")).toBeUndefined();
    expect(argumentProblem({ const: { r: 1 } }, { r: 2 }, "color")).toBe('color must be {"r":1}');
  });
});
