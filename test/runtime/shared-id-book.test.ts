// A shared id book: the short ids one process hands out are taken by any other, the ambiguity rule
// holds across processes, and a book that fails or does not answer is an error, never a guess.
import { describe, expect, it, vi } from "vitest";
import { type IdBook, idBookKey } from "../../templates/runtime/id-book.js";

/**
 * A store in memory standing for Redis, as the Redis adapter keeps it: each short form's ids, each
 * once, the most recently remembered last, at most eight. It can be made to fail or to hang.
 */
class FakeStore implements IdBook {
  readonly lists = new Map<string, string[]>();
  /** Each remember call's entries, in order. */
  readonly remembered: (readonly (readonly [string, string])[])[] = [];
  readonly recalled: string[] = [];
  failing: Error | undefined;
  hanging = false;
  answer: ((short: string) => unknown) | undefined;

  async remember(entries: readonly (readonly [string, string])[]): Promise<void> {
    await this.ready();
    this.remembered.push(entries);
    for (const [short, full] of entries) {
      const list = (this.lists.get(short) ?? []).filter((id) => id !== full);
      list.push(full);
      this.lists.set(short, list.slice(-8));
    }
  }

  async recall(short: string): Promise<readonly string[]> {
    await this.ready();
    this.recalled.push(short);
    return (this.answer?.(short) as string[] | undefined) ?? [...(this.lists.get(short) ?? [])];
  }

  private ready(): Promise<void> {
    if (this.hanging) return new Promise(() => {});
    return this.failing ? Promise.reject(this.failing) : Promise.resolve();
  }
}

const ORG = "org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802";

const ticket = (id: string) => ({
  type: "ticket",
  id,
  attributes: {
    subject: `Ticket ${id.slice(0, 12)}`,
    status_code: 3,
    priority: 2,
    created_at: "2026-02-11T00:14:22.481Z",
    updated_at: "2026-02-14T16:02:07.113Z",
    sla_due_at: null,
    internal_notes: null,
  },
  relationships: { assignee: { data: null }, organization: { data: { type: "organization", id: ORG } } },
});

const comment = (ticketId: string) => ({
  type: "comment",
  id: "cmt_1",
  attributes: { body: "Refunded.", public: true, created_at: "2026-02-14T16:02:07.113Z" },
  relationships: { ticket: { data: { type: "ticket", id: ticketId } }, author: { data: null } },
});

/**
 * The support desk's API: `tickets` is what a search lists, a ticket fetched by an id it does not
 * hold is a 404, a comment is added to any ticket. Every request is kept.
 */
class FakeApi {
  readonly sent: { method: string; path: string; params: unknown }[] = [];
  tickets: string[] = [];
  readonly client = {
    GET: async (path: string, init: { params: { path: Record<string, string> } }) => {
      this.sent.push({ method: "GET", path, params: init.params.path });
      if (path === "/tickets")
        return ok({ data: this.tickets.map(ticket), meta: { page: { total: this.tickets.length } }, links: { next: null } });
      const id = init.params.path["ticket_id"]!;
      return this.tickets.includes(id) ? ok({ data: ticket(id) }) : notFound();
    },
    POST: async (path: string, init: { params: { path: Record<string, string> } }) => {
      this.sent.push({ method: "POST", path, params: init.params.path });
      return ok({ data: comment(init.params.path["ticket_id"]!) });
    },
  };

  /** The ticket ids the API was asked for, one per request for one ticket or its comments. */
  get ticketIdsSent(): string[] {
    return this.sent
      .filter((request) => request.path !== "/tickets")
      .map((request) => (request.params as Record<string, string>)["ticket_id"]!);
  }
}

const ok = (data: unknown) => ({ data, response: { status: 200, ok: true } });
const notFound = () => ({ error: { errors: [{ detail: "no such ticket" }] }, response: { status: 404, ok: false } });
const resolvers = {
  users: async () => new Map<string, string>(),
  orgs: async (ids: readonly string[]) => new Map(ids.map((id) => [id, "Contoso"])),
};

/**
 * A process serving the generated tools: a fresh copy of the generated folder and its runtime, so
 * that nothing one process remembered in its memory is there for the next.
 */
async function serve(options: { idBook?: IdBook; api?: FakeApi; timeoutMs?: number } = {}) {
  vi.resetModules();
  const { createTools } = await import("../../generated/support/index.js");
  const api = options.api ?? new FakeApi();
  const tools = createTools({
    client: api.client,
    resolvers,
    ...(options.idBook ? { idBook: options.idBook } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { tools, api };
}

/** The short ids a search showed for the tickets the API lists. */
async function listed(tools: Awaited<ReturnType<typeof serve>>["tools"]): Promise<string[]> {
  const outcome = await tools.search_tickets({});
  if ("error" in outcome) throw new Error(outcome.error);
  return outcome.result.tickets.map((shown) => (shown as { id: string }).id);
}

const A = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const B = "tkt_9f3a71c4-77aa-4f31-8d2c-1e5b6c9042af";
const C = "tkt_5498ee00-8600-4e00-8e38-b39f4e006600";
/** An id shown whole that is the text A's short form is too. */
const WHOLE = "tkt_9f3a71c4";
/** The key a ticket's id is kept under in the book: the support desk hands ticket ids out as `ticket.id`. */
const ticketKey = (short: string) => idBookKey("ticket.id", short);

describe("a shared id book", () => {
  it("lets a process send the full id of a short id another process handed out", async () => {
    const store = new FakeStore();
    const first = await serve({ idBook: store });
    first.api.tickets = [A, C];
    expect(await listed(first.tools)).toEqual(["tkt_9f3a71c4", "tkt_5498ee00"]);

    const api = new FakeApi();
    api.tickets = [A, C];
    const second = await serve({ idBook: store, api });
    const outcome = await second.tools.get_ticket({ ticket_id: "tkt_9f3a71c4" });
    expect(outcome).not.toHaveProperty("error");
    expect(api.ticketIdsSent).toEqual([A]);
  });

  it("is needed: without one, a process sends a short id another process handed out as given", async () => {
    const first = await serve();
    first.api.tickets = [A];
    await listed(first.tools);
    const second = await serve();
    second.api.tickets = [A];
    expect(await second.tools.get_ticket({ ticket_id: "tkt_9f3a71c4" })).toEqual({
      error: `get_ticket: the API answered 404: no such ticket; no record has the id "tkt_9f3a71c4"; if a result gave it, the full id it stands for is no longer remembered; run the tool that listed it again and pass the id it gives now`,
    });
    expect(second.api.ticketIdsSent).toEqual(["tkt_9f3a71c4"]);
  });

  it("is given each result's short ids in one call, each pair once, whole ids only when they could be a short form", async () => {
    const store = new FakeStore();
    const { tools, api } = await serve({ idBook: store });
    api.tickets = [A, C, "tkt_1", WHOLE];
    // A shares its short form with WHOLE in this page, so it is shown longer.
    expect(await listed(tools)).toEqual(["tkt_9f3a71c4-2", "tkt_5498ee00", "tkt_1", WHOLE]);
    expect(store.remembered).toEqual([
      [
        [ticketKey("tkt_9f3a71c4-2"), A],
        [ticketKey("tkt_5498ee00"), C],
        [ticketKey(WHOLE), WHOLE],
      ],
    ]);
    await tools.get_ticket({ ticket_id: "tkt_5498ee00" });
    expect(store.remembered).toHaveLength(2);
    expect(store.remembered[1]).toEqual([[ticketKey("tkt_5498ee00"), C]]);
  });

  it("is asked once for each kind of id an argument that may be a short id takes, and never for one that cannot be", async () => {
    const store = new FakeStore();
    const { tools, api } = await serve({ idBook: store });
    api.tickets = ["tkt_1"];
    await tools.get_ticket({ ticket_id: "tkt_1" });
    await tools.get_ticket({ ticket_id: "tkt_9f3a71c4" });
    await tools.get_ticket({ ticket_id: `tkt_9f3a71c4${"0".repeat(2_000)}` });
    // get_ticket's ticket_id takes a ticket's own id and the ticket a comment names.
    expect(store.recalled).toEqual([ticketKey("tkt_9f3a71c4"), idBookKey("comment.ticket", "tkt_9f3a71c4")]);
    expect(api.ticketIdsSent).toEqual(["tkt_1", "tkt_9f3a71c4", `tkt_9f3a71c4${"0".repeat(2_000)}`]);
  });

  it("keeps the process's own book out of it: a short id is not taken from memory once the shared book forgot it", async () => {
    const store = new FakeStore();
    const { tools, api } = await serve({ idBook: store });
    api.tickets = [A];
    await listed(tools);
    store.lists.clear();
    const outcome = await tools.get_ticket({ ticket_id: "tkt_9f3a71c4" });
    expect(outcome).toHaveProperty("error");
    expect(api.ticketIdsSent).toEqual(["tkt_9f3a71c4"]);
  });

  it("expands a short id in a request body's id properties too", async () => {
    vi.resetModules();
    const { callTool } = await import("../../templates/runtime/call-tool.js");
    const store = new FakeStore();
    await store.remember([[idBookKey("user.id", "usr_0baa8c00"), "usr_0baa8c00-cc40-4700-8c00-46abcc000c00"]]);
    const bodies: unknown[] = [];
    const client = { POST: async (_: string, init: { body: unknown }) => (bodies.push(init.body), ok({})) };
    const call = {
      method: "post",
      path: "/assignments",
      parameters: [{ name: "body", in: "body", argument: "body", shortIds: false, shortIdProperties: [["user_id", ["user.id"]]] }],
    } as const;
    const schema = { type: "object", properties: { body: { type: "object" } } };
    await callTool(client, "assign", call, schema, { body: { user_id: "usr_0baa8c00" } }, async (data) => data, {}, { idBook: store });
    expect(bodies).toEqual([{ user_id: "usr_0baa8c00-cc40-4700-8c00-46abcc000c00" }]);
  });
});

describe("a short form shown for two ids by different processes", () => {
  it.each([
    ["the first id first", [A, B]],
    ["the second id first", [B, A]],
  ])("is refused with a longer form for each, %s; each longer form then works in any process", async (_, order) => {
    const store = new FakeStore();
    for (const id of order) {
      const { tools, api } = await serve({ idBook: store });
      api.tickets = [id];
      expect(await listed(tools)).toEqual(["tkt_9f3a71c4"]);
    }
    const api = new FakeApi();
    api.tickets = [A, B];
    const { tools } = await serve({ idBook: store, api });
    const forms = order.map((id) => (id === A ? "tkt_9f3a71c4-2" : "tkt_9f3a71c4-7"));
    expect(await tools.get_ticket({ ticket_id: "tkt_9f3a71c4" })).toEqual({
      error: `get_ticket: ticket_id "tkt_9f3a71c4" is ambiguous: it was shown for 2 different records; pass the longer id of the one you mean: ${forms.map((form) => JSON.stringify(form)).join(" or ")}`,
    });
    expect(api.sent).toEqual([]);
    const other = await serve({ idBook: store, api });
    await other.tools.get_ticket({ ticket_id: "tkt_9f3a71c4-7" });
    await other.tools.get_ticket({ ticket_id: "tkt_9f3a71c4-2" });
    expect(api.ticketIdsSent).toEqual([B, A]);
    // The plain short form stays ambiguous: neither id is that text itself.
    expect(await other.tools.get_ticket({ ticket_id: "tkt_9f3a71c4" })).toHaveProperty("error");
    expect(api.ticketIdsSent).toEqual([B, A]);
  });

  it.each([
    ["the whole id first", [WHOLE, A]],
    ["the short id first", [A, WHOLE]],
  ])("is refused when one is an id shown whole, %s; after the refusal the text is the whole id's", async (_, order) => {
    const store = new FakeStore();
    for (const id of order) {
      const { tools, api } = await serve({ idBook: store });
      api.tickets = [id];
      expect(await listed(tools)).toEqual([WHOLE]);
    }
    const api = new FakeApi();
    api.tickets = [A, WHOLE];
    const { tools } = await serve({ idBook: store, api });
    expect(await tools.get_ticket({ ticket_id: WHOLE })).toEqual({
      error: `get_ticket: ticket_id "${WHOLE}" is ambiguous: it is one record's whole id, and was shown as the short form of another's; pass it again for the record whose whole id it is, or the longer id of the one you mean: "tkt_9f3a71c4-2"`,
    });
    expect(api.sent).toEqual([]);
    const other = await serve({ idBook: store, api });
    await other.tools.get_ticket({ ticket_id: WHOLE });
    await other.tools.get_ticket({ ticket_id: "tkt_9f3a71c4-2" });
    expect(api.ticketIdsSent).toEqual([WHOLE, A]);
  });

  it("is ambiguous again when a later result shows the other record's short id once more", async () => {
    const store = new FakeStore();
    const { tools, api } = await serve({ idBook: store });
    api.tickets = [WHOLE];
    await listed(tools);
    api.tickets = [A];
    await listed(tools);
    expect(await tools.get_ticket({ ticket_id: WHOLE })).toHaveProperty("error");
    await listed(tools);
    const other = await serve({ idBook: store, api });
    expect(await other.tools.get_ticket({ ticket_id: WHOLE })).toHaveProperty("error");
    expect(api.ticketIdsSent).toEqual([]);
  });

  it("is ambiguous when a page whose ids collide is projected twice without a joined tool", async () => {
    vi.resetModules();
    const { callTool } = await import("../../templates/runtime/call-tool.js");
    const { context } = await import("../../templates/runtime/context.js");
    const { withDistinctShortIds } = await import("../../templates/runtime/distinct-short-ids.js");
    const { short } = await import("../../templates/runtime/ids.js");
    const store = new FakeStore();
    const call = {
      method: "get",
      path: "/t/{id}",
      parameters: [{ name: "id", in: "path", argument: "id", shortIds: ["ticket.id"] }],
    } as const;
    const schema = { type: "object", properties: { id: { type: "string" } } };
    const sent: unknown[] = [];
    const client = { GET: async (_: string, init: { params: unknown }) => (sent.push(init.params), ok({})) };
    const list = (ids: string[]) =>
      callTool(
        client,
        "list",
        call,
        schema,
        { id: "x" },
        async (_data, projection) =>
          withDistinctShortIds({ options: projection, expectedIds: ids.length }, (options) =>
            ids.map((id) => short(id, context("ticket", options), "id")),
          ),
        {},
        { idBook: store },
      );
    expect(await list([A, B])).toMatchObject({ result: ["tkt_9f3a71c4-2", "tkt_9f3a71c4-7"] });
    expect(await list([C])).toMatchObject({ result: ["tkt_5498ee00"] });
    expect(store.remembered).toEqual([
      [
        [ticketKey("tkt_9f3a71c4-2"), A],
        [ticketKey("tkt_9f3a71c4-7"), B],
      ],
      [[ticketKey("tkt_5498ee00"), C]],
    ]);
  });
});

describe("a shared id book that fails", () => {
  it.each([
    [
      "throws",
      (store: FakeStore) => void (store.failing = new Error("connect ECONNREFUSED 127.0.0.1:6390 redis://:hunter2@cache")),
      "the store failed",
    ],
    ["does not answer", (store: FakeStore) => void (store.hanging = true), "it did not answer within 0.05 seconds"],
    ["answers no list", (store: FakeStore) => void (store.answer = () => "tkt_9f3a71c4"), "its answer is string, not a list of ids"],
    [
      "answers an id no result could have given",
      (store: FakeStore) => void (store.answer = () => ["x".repeat(1_025)]),
      "its answer holds an id of 1025 characters, which no result could have given",
    ],
  ])("when a call is given a short id (it %s) fails the call, and no request is sent", async (_, fail, reason) => {
    const store = new FakeStore();
    const { tools, api } = await serve({ idBook: store, timeoutMs: 50 });
    api.tickets = [A];
    await listed(tools);
    fail(store);
    expect(await tools.get_ticket({ ticket_id: "tkt_9f3a71c4" })).toEqual({
      error: `get_ticket: the short ids given could not be looked up in the id book (${reason}), so no request was sent; try again later`,
    });
    expect(api.ticketIdsSent).toEqual([]);
  });

  it("when a result's short ids cannot be stored fails the call: the result is not shown", async () => {
    const store = new FakeStore();
    const { tools, api } = await serve({ idBook: store, timeoutMs: 50 });
    api.tickets = [A];
    store.failing = new Error("Connection is closed.");
    expect(await tools.search_tickets({})).toEqual({
      error:
        "search_tickets: the API answered 200, but the short ids of its result could not be stored in the id book (the store failed), so the result is not shown: its short ids could not be passed back; try again later",
    });
    store.failing = undefined;
    // The ticket's full id is looked up first, as any text that may be a short form is; only storing hangs.
    vi.spyOn(store, "remember").mockReturnValue(new Promise(() => {}));
    expect(await tools.add_comment({ ticket_id: A, body: { data: { type: "comment", attributes: { body: "Refunded." } } } })).toEqual({
      error:
        "add_comment: the API answered 200, but the short ids of its result could not be stored in the id book (it did not answer within 0.05 seconds), so the result is not shown: its short ids could not be passed back; the POST request was made, so check whether it took effect before sending it again",
    });
  });

  it("when the longer forms of an ambiguous short id cannot be stored, says so", async () => {
    const store = new FakeStore();
    await store.remember([
      [ticketKey("tkt_9f3a71c4"), A],
      [ticketKey("tkt_9f3a71c4"), B],
    ]);
    const { tools, api } = await serve({ idBook: store });
    const remember = vi.spyOn(store, "remember").mockRejectedValue(new Error("READONLY You can't write against a read only replica."));
    expect(await tools.get_ticket({ ticket_id: "tkt_9f3a71c4" })).toEqual({
      error: `get_ticket: ticket_id "tkt_9f3a71c4" is ambiguous: it was shown for 2 different records, and the longer ids that tell them apart could not be stored in the id book (the store failed); try again later`,
    });
    expect(remember).toHaveBeenCalledTimes(1);
    expect(api.sent).toEqual([]);
  });

  it("is cancelled with the call", async () => {
    const store = new FakeStore();
    store.hanging = true;
    const { tools, api } = await serve({ idBook: store });
    const controller = new AbortController();
    const outcome = tools.get_ticket({ ticket_id: "tkt_9f3a71c4" }, { signal: controller.signal });
    controller.abort();
    expect(await outcome).toEqual({ error: "get_ticket: the call was cancelled" });
    expect(api.sent).toEqual([]);
  });

  it.each([
    ["an empty object", {}, "an object without them"],
    ["an object without recall", { remember: async () => {} }, "an object without them"],
    ["a URL", "redis://localhost", "string"],
  ])("is refused by createTools when it is no book: %s", async (_, idBook, got) => {
    vi.resetModules();
    const { createTools } = await import("../../generated/support/index.js");
    expect(() => createTools({ client: new FakeApi().client, resolvers, idBook: idBook as never })).toThrow(
      new TypeError(`createTools: idBook must be an object with the methods remember(entries) and recall(short); got ${got}`),
    );
  });
});

describe("a shared id book's answer for a short form", () => {
  it("is refused when an id does not begin with that form, and nothing is sent", async () => {
    const { callTool } = await import("../../templates/runtime/call-tool.js");
    const sent: unknown[] = [];
    const client = {
      GET: async (_path: string, init: unknown) => {
        sent.push(init);
        return { data: { id: "x" }, response: { status: 200, ok: true } };
      },
    };
    const book = { remember: async () => {}, recall: async () => ["../../admin"] };
    const call = {
      method: "get",
      path: "/charges/{id}",
      parameters: [{ name: "id", in: "path" as const, argument: "id", shortIds: ["charge.id"] }],
    };
    const outcome = await callTool(
      client,
      "get_charge",
      call,
      { type: "object", properties: { id: { type: "string" } } },
      { id: "ch_3KpXb2Lk" },
      async (r) => r,
      {},
      { idBook: book },
    );
    expect(outcome).toEqual({ error: expect.stringContaining("does not begin with the short form asked for") });
    expect(sent).toEqual([]);
  });

  it.each([
    ["a control character after the form", ["ch_3KpXb2Lk\n"]],
    ["a longer id whose own short form is shorter than the one asked for, cut elsewhere", ["ch_3KpXb2Lk d9cQ2Tfa1B5e7LmN"]],
  ])("refuses an answer holding %s, which no result could have given for that form, and sends nothing", async (_, answer) => {
    const { callTool } = await import("../../templates/runtime/call-tool.js");
    const sent: unknown[] = [];
    const client = {
      GET: async (_path: string, init: unknown) => {
        sent.push(init);
        return { data: { id: "x" }, response: { status: 200, ok: true } };
      },
    };
    const book = { remember: async () => {}, recall: async () => answer };
    const call = {
      method: "get",
      path: "/charges/{id}",
      parameters: [{ name: "id", in: "path" as const, argument: "id", shortIds: ["charge.id"] }],
    };
    const outcome = await callTool(
      client,
      "get_charge",
      call,
      { type: "object", properties: { id: { type: "string" } } },
      { id: "ch_3KpXb2Lk" },
      async (r) => r,
      {},
      { idBook: book },
    );
    expect(outcome).toEqual({ error: expect.stringContaining("whose short form is not the one asked for") });
    expect(sent).toEqual([]);
  });
});
