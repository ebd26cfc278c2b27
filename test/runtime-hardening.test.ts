// The generated runtime under hostile values: ids that all share a short form, numbers JSON cannot
// write, values where a relationship or a date belongs, resolvers that throw oddities or never answer.
// Everything present but unreadable becomes a typed marker and one issue, with bounded text.
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as support from "../generated/support/index.js";
import {
  shortArgumentId,
  context,
  date,
  datetime,
  joinMany,
  joinOne,
  legend,
  legendLookup,
  member,
  integer,
  number,
  refMany,
  refOne,
  relatedMany,
  relatedOne,
  relationshipIds,
  TEXT_OR_NUMBER_IDS,
  listAt,
  ResolverError,
  ResponseShapeError,
  shortenIds,
  shortId,
  matchesShortId,
  withDistinctShortIds,
  type ProjectionIssue,
} from "../templates/runtime/index.js";

const U1 = "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af";
const O1 = "org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802";

/** One ticket with the article's values, parts replaced by `attributes` and `relationships`. */
function ticket(attributes: Record<string, unknown> = {}, relationships: Record<string, unknown> = {}) {
  return {
    type: "ticket",
    id: "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90",
    attributes: {
      subject: "Card declined",
      status_code: 3,
      priority: 2,
      created_at: "2026-02-11T09:14:22Z",
      updated_at: "2026-02-14T16:02:07Z",
      sla_due_at: null,
      ...attributes,
    },
    relationships: {
      assignee: { data: { type: "user", id: U1 } },
      organization: { data: { type: "organization", id: O1 } },
      ...relationships,
    },
  };
}

const names = async (ids: readonly string[]) => new Map(ids.map((id) => [id, `name of ${id.slice(0, 12)}`]));
const RESOLVERS = { users: names, orgs: names };

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const validSearchTickets = ajv.compile(support.searchTicketsOutputSchema);

/** A search_tickets page projected from JSON text, checked against the tool's own output schema. */
async function searchTickets(json: string, options: support.ProjectOptions = {}) {
  const issues: ProjectionIssue[] = [];
  const result = await support.projectSearchTickets(JSON.parse(json) as never, RESOLVERS, {
    ...options,
    onIssue: (issue) => issues.push(issue),
  });
  expect(validSearchTickets(result), ajv.errorsText(validSearchTickets.errors)).toBe(true);
  return { result, issues };
}

/** A context that records its issues, for calling the run-time readers one by one. */
function recording() {
  const issues: ProjectionIssue[] = [];
  return { ctx: context("ticket", { onIssue: (issue) => issues.push(issue) }), issues };
}

describe("ids sharing one short form", () => {
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  /** UUIDv7-like ids made within one minute: their first eight hex digits are all the same. */
  const sameMinute = (count: number) =>
    Array.from({ length: count }, (_, i) => `tkt_0190a5d3-${hex(i & 0xffff, 4)}-7${hex(i >>> 16, 3)}-9c05-8ab3f2e17d90`);

  it("100,000 ids sharing their first eight hex digits all come out distinct, each answering to its id", () => {
    const ids = sameMinute(100_000);
    let projections = 0;
    const shorts = withDistinctShortIds({ options: {}, expectedIds: ids.length }, (options) => {
      projections++;
      const ctx = context("ticket", options);
      return ids.map((id) => shortArgumentId(id, { field: "id", required: true, ctx }) as string);
    });
    expect(projections).toBe(2);
    expect(new Set(shorts).size).toBe(ids.length);
    ids.forEach((id, i) => {
      if (!matchesShortId(id, shorts[i]!)) expect.fail(`${shorts[i]} does not answer to ${id}`);
    });
  });

  it("lengthens only the ids of a colliding group, repeats counted once", () => {
    const group = sameMinute(1000);
    const alone = "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af";
    const longer = shortenIds([...group, ...group, alone]);
    expect(longer.size).toBe(group.length);
    expect(longer.has(alone)).toBe(false);
    expect(new Set(longer.values()).size).toBe(group.length);
    for (const id of group) expect(longer.get(id)!.length).toBeGreaterThan(shortId(id).length);
  });
});

describe("numbers JSON cannot write", () => {
  it('"priority": 1e400 is an unusable marker and an issue, and the result fits its own schema', async () => {
    const page = `{"data": [${JSON.stringify(ticket()).replace('"priority":2', '"priority":1e400')}], "meta": {"page": {"total": -1e400}}}`;
    const { result, issues } = await searchTickets(page);
    expect(result.tickets[0]!.priority).toEqual({ unusable: "expected a code, got Infinity" });
    expect(result.total).toEqual({ unusable: "expected an integer, got -Infinity" });
    expect(issues.map((issue) => [issue.kind, issue.field])).toEqual([
      ["unusable", "priority"],
      ["unusable", "total"],
    ]);
  });

  it.each([Infinity, -Infinity, NaN])("%s is unusable under every numeric rule", (value) => {
    const { ctx, issues } = recording();
    const readers = [
      () => legend(value, { words: new Map([[1, "low"]]), field: "priority", required: true, ctx }),
      () =>
        legendLookup(value, {
          labels: new Map([[String(value), "a word"]]),
          resolver: "codes",
          key: "code",
          field: "code",
          required: true,
          ctx,
        }),
      () => member(value, { allowed: new Set([1, 2]), field: "level", required: true, ctx }),
      () => number(value, { field: "count", required: true, ctx }),
      () => integer(value, { field: "count", required: true, ctx }),
      () => shortArgumentId(value, { field: "id", required: true, ctx }),
      () => date(value, { field: "created_at", required: true, ctx }),
      () => datetime(value, { field: "created_at", required: true, ctx }),
    ];
    for (const read of readers) expect(read()).toEqual({ unusable: expect.stringContaining(String(value)) });
    expect(issues).toHaveLength(readers.length);
    for (const issue of issues) expect(issue.kind).toBe("unusable");
    // As an id it is no id: the join is marked, not null.
    expect(
      refOne(value, {
        ids: TEXT_OR_NUMBER_IDS,
        labels: new Map(),
        resolver: "users",
        key: "owner",
        keys: { id: "id" },
        field: "owner",
        ctx,
      }),
    ).toEqual({
      unusable: expect.stringContaining(String(value)),
    });
    expect(
      joinOne(relationshipIds({ data: { type: "user", id: value } }, { ids: TEXT_OR_NUMBER_IDS }), {
        labels: new Map(),
        resolver: "users",
        key: "assignee",
        field: "assignee",
        ctx,
      }),
    ).toEqual({
      unusable: expect.stringContaining(String(value)),
    });
  });
});

describe("present but unreadable is a marker, never null", () => {
  it("a date holding an object names its type only, and a long string is cut", async () => {
    const secret = { token: "do-not-echo", nested: { more: "x".repeat(10_000) } };
    const { result, issues } = await searchTickets(
      JSON.stringify({ data: [ticket({ created_at: secret, updated_at: `2026-13-01 ${"y".repeat(5000)}` })] }),
    );
    expect(result.tickets[0]!.opened).toEqual({ unusable: "not a date: object" });
    const cut = (result.tickets[0]!.last_update as { unusable: string }).unusable;
    expect(cut).toMatch(/^not a date: "2026-13-01 y+"… \(5011 characters\)$/);
    expect(cut.length).toBeLessThan(100);
    expect(JSON.stringify(issues)).not.toContain("do-not-echo");
    expect(issues.find((issue) => issue.field === "created_at")!.value).toBe("object");
  });

  it("a to-one relationship whose data is a list is marked, not guessed down to its first id", async () => {
    const { result, issues } = await searchTickets(
      JSON.stringify({
        data: [
          ticket(
            {},
            {
              assignee: {
                data: [
                  { type: "user", id: U1 },
                  { type: "user", id: "usr_2" },
                ],
              },
            },
          ),
        ],
      }),
    );
    expect(result.tickets[0]!.assignee).toEqual({ unusable: "expected one related record, got a list" });
    expect(issues).toEqual([
      {
        kind: "unusable",
        resource: "ticket",
        field: "assignee",
        value: "array",
        message: "ticket.assignee: expected one related record, got a list",
      },
    ]);
  });

  it.each([
    ["a string", "usr_41c2be09", "expected a relationship object, got string"],
    ["a number", 7, "expected a relationship object, got number"],
    ["an array", [{ type: "user", id: U1 }], "expected a relationship object, got array"],
    ["data that is a string", { data: U1 }, "expected a resource identifier { type, id } with a text id, got string"],
    [
      "data without an id",
      { data: { type: "user" } },
      "expected a resource identifier { type, id } with a text id, got an object without an id",
    ],
    [
      "data whose id is an object",
      { data: { type: "user", id: { secret: "x" } } },
      "expected a resource identifier { type, id } with a text id, got an id that is object",
    ],
  ])("a relationship that is %s is marked and reported", async (_, relationship, reason) => {
    const { result, issues } = await searchTickets(JSON.stringify({ data: [ticket({}, { assignee: relationship })] }));
    expect(result.tickets[0]!.assignee).toEqual({ unusable: reason });
    expect(issues.map((issue) => [issue.kind, issue.field, issue.message])).toEqual([
      ["unusable", "assignee", `ticket.assignee: ${reason}`],
    ]);
  });

  it("null stays null: an absent relationship, a null one, null data, no data", async () => {
    for (const assignee of [undefined, null, { data: null }, { links: { related: "/x" } }]) {
      const { result, issues } = await searchTickets(JSON.stringify({ data: [ticket({}, { assignee })] }));
      expect(result.tickets[0]!.assignee).toBeNull();
      expect(issues).toEqual([]);
    }
  });

  it("a to-many field given one id is marked; an unreadable item is marked in its place; a list is kept", () => {
    const { ctx, issues } = recording();
    const labels = new Map([["a", "A"]]);
    const keys = { id: "id" };
    expect(refMany("a", { ids: TEXT_OR_NUMBER_IDS, labels, resolver: "users", keys, field: "watchers", ctx })).toEqual({
      unusable: "expected a list of ids or records, got string",
    });
    expect(refMany(["a", { id: "a" }, null], { ids: TEXT_OR_NUMBER_IDS, labels, resolver: "users", keys, field: "watchers", ctx })).toEqual(
      ["A", "A", { unusable: "expected an id or a record with `id`, got null" }],
    );
    expect(refMany(["a", { id: "a" }], { ids: TEXT_OR_NUMBER_IDS, labels, resolver: "users", keys, field: "watchers", ctx })).toEqual([
      "A",
      "A",
    ]);
    expect(
      joinMany(relationshipIds({ data: { type: "user", id: "a" } }, { ids: TEXT_OR_NUMBER_IDS }), {
        labels,
        resolver: "users",
        field: "watchers",
        ctx,
      }),
    ).toEqual({
      unusable: "expected a list of related records, got one",
    });
    expect(
      relatedMany(relationshipIds({ data: { type: "user", id: "a" } }, { ids: TEXT_OR_NUMBER_IDS }), { field: "members", ctx }),
    ).toEqual({
      unusable: "expected a list of related records, got one",
    });
    expect(
      relatedMany(relationshipIds({ data: [{ type: "user", id: "a" }, "b"] }, { ids: TEXT_OR_NUMBER_IDS }), { field: "members", ctx }),
    ).toEqual(["a", { unusable: "expected a resource identifier { type, id }, got string" }]);
    expect(relatedOne(relationshipIds({ data: [] }, { ids: TEXT_OR_NUMBER_IDS }), { field: "parent", ctx })).toEqual({
      unusable: "expected one related record, got a list",
    });
    expect(relatedOne(relationshipIds("p1", { ids: TEXT_OR_NUMBER_IDS }), { field: "parent", ctx })).toEqual({
      unusable: "expected a relationship object, got string",
    });
    expect(issues.map((issue) => issue.field)).toEqual(["watchers", "watchers", "watchers", "members", "members", "parent", "parent"]);
  });

  it("a page field under a step that is not an object is marked, and so is a list under one", async () => {
    const { result, issues } = await searchTickets(JSON.stringify({ data: [ticket()], meta: { page: "SECRET page" } }));
    expect(result.total).toEqual({ unusable: "expected an object at meta.page, got string" });
    expect(issues).toEqual([
      {
        kind: "unusable",
        resource: "search_tickets",
        field: "total",
        value: "SECRET page",
        message: "search_tickets.total: expected an object at meta.page, got string",
      },
    ]);
    const absent = await searchTickets(JSON.stringify({ data: [ticket()], meta: { page: null } }));
    expect([absent.result.total, absent.issues]).toEqual([null, []]);
    const listUnder = await searchTickets(JSON.stringify({ data: [ticket()], meta: [{ page: { total: 3 } }] }));
    expect(listUnder.result.total).toEqual({ unusable: "expected an object at meta, got array" });
  });

  it("a code too long to be a code is unusable, not copied into an unknown_code marker", () => {
    const { ctx, issues } = recording();
    expect(legend("z".repeat(65), { words: new Map([["a", "A"]]), field: "status", required: true, ctx })).toEqual({
      unusable: "expected a code, got a string of 65 characters",
    });
    expect(legend("z".repeat(64), { words: new Map([["a", "A"]]), field: "status", required: true, ctx })).toEqual({
      unknown_code: "z".repeat(64),
    });
    expect(issues[1]!.message.length).toBeLessThan(120);
  });
});

describe("issue values are the offending value only, bounded", () => {
  it("a record where a list belongs is refused, and reported by its type, not copied", async () => {
    const issues: ProjectionIssue[] = [];
    const projected = support.projectSearchTickets(
      { data: { ...ticket(), attributes: { ...ticket().attributes, internal_notes: "staff only SECRET" } } } as never,
      RESOLVERS,
      { onIssue: (issue) => issues.push(issue) },
    );
    await expect(projected).rejects.toThrow(support.ResponseShapeError);
    await expect(projected).rejects.not.toThrow(/SECRET/);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.value).toBe("object");
    expect(JSON.stringify(issues)).not.toContain("SECRET");
  });

  it("a list under a step that is not an object is refused, by the step and its type", () => {
    const issues: ProjectionIssue[] = [];
    const place = { tool: "list_things", resource: "thing", path: ["result", "items"], nullable: false };
    const list = (body: unknown) => () => listAt(body, place, (issue) => issues.push(issue));
    expect(list({ result: "SECRET" })).toThrow(ResponseShapeError);
    expect(list({ result: { items: { SECRET: 1 } } })).toThrow(ResponseShapeError);
    expect(list({ result: null })).toThrow(ResponseShapeError);
    expect(issues.map((issue) => [issue.value, issue.message])).toEqual([
      ["SECRET", "list_things: the response body is not a list of thing records at result.items (result is a string)"],
      ["object", "list_things: the response body is not a list of thing records at result.items (result.items is an object)"],
      [null, "list_things: the response body is not a list of thing records at result.items (result is null)"],
    ]);
  });

  it("a long string is cut in the issue's value, and an id in its message", async () => {
    const long = `usr_${"7".repeat(5000)}`;
    const { issues } = await searchTickets(
      JSON.stringify({ data: [ticket({ subject: 1, created_at: "x".repeat(5000) }, { assignee: { data: { type: "user", id: long } } })] }),
      {},
    );
    for (const issue of issues) {
      expect(String(issue.value).length).toBeLessThan(250);
      expect(issue.message.length).toBeLessThan(400);
    }
  });
});

describe("resolver failures are always ResolverErrors", () => {
  const failingWith = (thrown: () => unknown) =>
    support.projectSearchTickets(JSON.parse(JSON.stringify({ data: [ticket()] })), {
      users: async () => {
        throw thrown();
      },
      orgs: names,
    });

  it("whatever a resolver rejects with", async () => {
    const badMessage = new Error("x");
    Object.defineProperty(badMessage, "message", {
      get() {
        throw new Error("getter");
      },
    });
    for (const [thrown, said] of [
      [() => Object.create(null), "a thrown object"],
      [() => badMessage, "an error that cannot be read"],
      [() => undefined, "undefined"],
      [() => "x".repeat(10_000), "… (10000 characters)"],
      [() => ({ message: "not an Error" }), "a thrown object"],
    ] as const) {
      const error = await failingWith(thrown).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(support.ResolverError);
      expect(error).toMatchObject({ resolver: "users", message: expect.stringContaining(said) });
      expect((error as Error).message.length).toBeLessThan(300);
    }
  });

  it("a per-id Error whose message cannot be read is an unresolved marker, not a TypeError", async () => {
    const odd = new Error("x");
    Object.defineProperty(odd, "message", {
      get() {
        throw new Error("getter");
      },
    });
    const issues: ProjectionIssue[] = [];
    const result = await support.projectSearchTickets(
      JSON.parse(JSON.stringify({ data: [ticket()] })),
      { users: async () => new Map([[U1, odd]]), orgs: names },
      { onIssue: (issue) => issues.push(issue) },
    );
    expect(result.tickets[0]!.assignee).toEqual({ unresolved: "usr_41c2be09" });
    expect(issues[0]!.message).toContain("an error that cannot be read");
  });

  it("ResolverError itself never throws while being made", () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(new ResolverError("users", revoked.proxy).message).toBe('resolver "users" failed: an error that cannot be read');
  });
});

describe("a resolver that never answers", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const never = () => new Promise<Map<string, string>>(() => {});
  const page = () => JSON.parse(JSON.stringify({ data: [ticket()] })) as never;

  it(`fails the call after the default ${support.DEFAULT_RESOLVER_TIMEOUT_MS} ms with a ResolverError naming it`, async () => {
    vi.useFakeTimers();
    const call = support.projectSearchTickets(page(), { users: never, orgs: names });
    const settled = call.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(support.DEFAULT_RESOLVER_TIMEOUT_MS - 1);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(support.ResolverError);
    expect(error).toMatchObject({
      resolver: "users",
      message: `resolver "users" failed: did not answer within ${support.DEFAULT_RESOLVER_TIMEOUT_MS} ms`,
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("honours timeoutMs, and leaves no timer behind once a call finishes", async () => {
    vi.useFakeTimers();
    const settled = support.projectSearchTickets(page(), { users: names, orgs: never }, { timeoutMs: 50 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(50);
    expect(await settled).toMatchObject({ name: "ResolverError", resolver: "orgs" });
    await support.projectSearchTickets(page(), RESOLVERS);
    expect(vi.getTimerCount()).toBe(0);
    await expect(
      support.projectSearchTickets(page(), { users: names, orgs: async () => Promise.reject(new Error("down")) }),
    ).rejects.toBeInstanceOf(support.ResolverError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("fails at once when the signal aborts, before or during the call", async () => {
    const before = new AbortController();
    before.abort(new Error("client went away"));
    let calls = 0;
    const counted = async (ids: readonly string[]) => (calls++, names(ids));
    await expect(support.projectSearchTickets(page(), { users: counted, orgs: counted }, { signal: before.signal })).rejects.toMatchObject({
      name: "ResolverError",
      resolver: "orgs",
      message: expect.stringContaining("client went away"),
    });
    expect(calls).toBe(0);
    const during = new AbortController();
    const call = support.projectSearchTickets(page(), { users: never, orgs: never }, { signal: during.signal, timeoutMs: Infinity });
    during.abort();
    await expect(call).rejects.toMatchObject({ name: "ResolverError", resolver: "orgs" });
  });

  it("refuses a timeout that is not a positive number, before calling any resolver", async () => {
    let calls = 0;
    const counted = async (ids: readonly string[]) => (calls++, names(ids));
    for (const timeoutMs of [0, -1, NaN]) {
      await expect(support.projectSearchTickets(page(), { users: counted, orgs: counted }, { timeoutMs })).rejects.toBeInstanceOf(
        RangeError,
      );
    }
    expect(calls).toBe(0);
  });
});
