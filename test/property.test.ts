// Property-based tests over generated projectors: hostile and broken payloads never crash a projector,
// every kept field is always present, nothing the annotation does not keep ever reaches the output,
// each resolver is called at most once per call, and the result always matches the tool's output schema.
// Then the resolver contract, DataLoader-style: per-id errors, rejections, unasked ids, concurrency.
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import * as support from "../generated/support/index.js";
import {
  shortArgumentId,
  context,
  isUtcIso,
  matchesShortId,
  shortenIds,
  shortId,
  withDistinctShortIds,
  type ProjectionIssue,
} from "../templates/runtime/index.js";
import { importGenerated } from "./helpers/pipeline.js";
import { generatedScenario } from "./helpers/scenarios.js";

const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 200) };
type Json = Record<string, unknown>;
type Project = (response: unknown, resolvers: unknown, options?: unknown) => Promise<Json>;
type Resolver = (ids: readonly string[]) => Promise<Map<string, unknown>>;

// ---------------------------------------------------------------------------------------------
// Values

/** Sentinels mark everything the annotation does not keep; none may ever appear in a result. */
const SENTINEL = "SENTINEL_";
let planted = 0;
const sentinel = fc.constant(null).map(() => `${SENTINEL}${++planted}`);

/** Objects with own `__proto__` and `constructor` keys, as JSON.parse makes them. */
const protoJunk = fc
  .constantFrom(
    '{"__proto__": {"polluted": "yes", "subject": "from proto"}}',
    '{"constructor": {"prototype": {"polluted": "yes"}}, "toString": 1, "valueOf": "v"}',
    '{"__proto__": null, "hasOwnProperty": "h"}',
    '[{"__proto__": {"id": "usr_x"}}]',
  )
  .map((text) => JSON.parse(text) as unknown);

/** Anything a broken API might send where a value belongs; carries no sentinel. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 1e12 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.constantFrom("", "2026-02-30", "2026-02-30T10:00:00Z", "not a date", "__proto__", "constructor", "toString", "1e999"),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  protoJunk,
);

/** A coded value, or any junk: an object where a code belongs is marked unusable, never thrown on. */
const orCode = <T>(good: fc.Arbitrary<T>, weight = 4) =>
  fc.oneof({ weight, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: junk });

it("a coded value that is an object without toString is marked, not thrown", async () => {
  const payload = JSON.parse('{"data": {"type": "user", "id": "u1", "attributes": {"display_name": "x", "role": {"toString": 1}}}}');
  await expect(support.projectGetUser(payload, { orgs: async () => new Map() })).resolves.toMatchObject({
    role: { unusable: "expected a string code, got object" },
  });
});

/** Junk for a field the annotation drops: every string in it is a sentinel, and so are its keys. */
const tainted: fc.Arbitrary<unknown> = fc.oneof(
  sentinel,
  fc.array(sentinel, { minLength: 1, maxLength: 3 }),
  fc.tuple(sentinel, sentinel).map(([k, v]) => ({ [k]: v, nested: { deeper: v } })),
  sentinel.map((s) => JSON.parse(`{"__proto__": {"polluted": "${s}"}, "constructor": "${s}", "${s}": ["${s}"]}`) as unknown),
);

/** Adds 0-2 unknown keys, named and valued with sentinels, to an object; leaves other values alone. */
function withExtras<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.tuple(arb, fc.array(fc.tuple(sentinel, tainted), { maxLength: 2 })).map(([value, extras]) => {
    if (typeof value !== "object" || value === null || Array.isArray(value) || extras.length === 0) return value;
    const copy = { ...(value as Json) };
    for (const [key, extra] of extras) copy[key] = extra;
    return copy as T;
  });
}

/** Sometimes re-reads the object through JSON.parse with own `__proto__` and `constructor` keys full of sentinels. */
function withProtoKeys<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.tuple(arb, fc.boolean(), sentinel).map(([value, wrap, s]) => {
    if (!wrap || typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const body = JSON.stringify(value).slice(1, -1);
    const head = `"__proto__": {"polluted": "${s}", "attributes": {"subject": "${s}"}, "id": "${s}"}, "constructor": {"name": "${s}"}`;
    return JSON.parse(`{${head}${body ? `, ${body}` : ""}}`) as T;
  });
}

/** A value or junk; `absent` lets fc.record leave the key out. */
const or = <T>(good: fc.Arbitrary<T>, weight = 4) =>
  fc.oneof({ weight, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: junk });

const dateTime = fc.oneof(
  fc
    .date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom("2026-02-11", "2026-02-11T09:14", "2015-10-07T08:00:00-05:00", "2026-02-14T16:02:07.113+02:00"),
);

const TICKET_IDS = [
  "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90",
  "tkt_9f3a71c4-ffff-4b6e-9c05-8ab3f2e17d90", // same short form as the first
  "tkt_9f3a71c4", // is the first one's short form
  "tkt_0b7c52de-91a4-4f0e-8d3b-6e2a0c9f4417",
  "T-1",
  "__proto__",
  "constructor",
];
const USER_IDS = ["usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af", "usr_41c2be09-0000-4f31-8d2c-1e5b6c9042af", "usr_7", "__proto__", "toString"];
const ORG_IDS = ["org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802", "org_2", "hasOwnProperty"];
const id = (pool: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...pool) as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }) },
  );

/** Everything in the output as one string, to search for sentinels. */
const text = (value: unknown) => JSON.stringify(value) ?? "";

// ---------------------------------------------------------------------------------------------
// Resolvers and checks shared by every tool

/** Marks what a resolver's per-id Error says: it may reach an issue's message, never the result. */
const RESOLVER_SAID = "RESOLVER_SAID_";

/**
 * Resolvers that record their calls. Per id they answer with a label, nothing, an `Error`, or a
 * non-string value (a sentinel object): only the label may reach the output. They also return
 * labels nobody asked for, which must be ignored.
 */
function hostileResolvers(names: readonly string[], salt: number) {
  const calls: Record<string, string[][]> = {};
  const resolvers: Record<string, Resolver> = {};
  for (const name of names) {
    resolvers[name] = async (ids) => {
      (calls[name] ??= []).push([...ids]);
      await Promise.resolve();
      const answer = new Map<string, unknown>();
      for (const asked of ids) {
        let hash = salt;
        for (const c of asked) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
        const pick = hash % 5;
        if (pick === 0 || pick === 1) answer.set(asked, `${name} label for ${asked}`);
        else if (pick === 2) answer.set(asked, new Error(`${RESOLVER_SAID}lookup failed for ${asked}`));
        else if (pick === 3) answer.set(asked, { name: `${SENTINEL}not a string` });
      }
      answer.set(`${SENTINEL}unasked`, `${SENTINEL}label nobody asked for`);
      return answer;
    };
  }
  return { resolvers, calls };
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const validators = new Map<object, ReturnType<typeof ajv.compile>>();
function validate(schema: object, value: unknown): string | undefined {
  let check = validators.get(schema);
  if (!check) validators.set(schema, (check = ajv.compile(schema)));
  return check(value) ? undefined : ajv.errorsText(check.errors);
}

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join();
const PROTOTYPE = prototypeKeys();

interface ToolUnderTest {
  project: Project;
  schema: { required: readonly string[]; properties: Json; $defs?: Json };
  resolverNames: readonly string[];
  /** The keys of each record: the resource's result schema's properties. */
  recordKeys: readonly string[];
  list?: string;
  /** Whether a response holds what the tool projects where the spec declares it: else it is refused. */
  holdsRecords: (payload: unknown) => boolean;
}

/**
 * Whether a response holds, at `path`, what a tool takes for its records: a list (`list`) of objects
 * each saying it is the JSON:API `type` and holding one of a record's declared `keys` (null or not),
 * or an object with one of those keys not null and, for JSON:API, that type. A JSON:API body with
 * both `data` and `errors` holds none.
 */
const holds =
  (path: readonly string[], keys: readonly string[], type?: string, list = false) =>
  (payload: unknown): boolean => {
    const isObject = (item: unknown): item is Json => typeof item === "object" && item !== null && !Array.isArray(item);
    if (type !== undefined && isObject(payload) && Object.hasOwn(payload, "data") && Object.hasOwn(payload, "errors")) return false;
    let value = payload;
    for (const key of path)
      value = typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Json)[key] : undefined;
    // A JSON:API record's sections, where there and not null, are objects.
    const section = (value: unknown) => value === undefined || value === null || isObject(value);
    const ofType = (item: Json) =>
      type === undefined || (item["type"] === type && section(item["attributes"]) && section(item["relationships"]));
    if (list)
      return Array.isArray(value) && value.every((item) => isObject(item) && ofType(item) && keys.some((key) => Object.hasOwn(item, key)));
    return isObject(value) && ofType(value) && keys.some((key) => Object.hasOwn(value, key) && value[key] != null);
  };
const JSON_API_RECORD = ["id"];
/** The keys the rest-foreign-keys spec declares for an incident. */
const INCIDENT_KEYS = ["created_at", "html_url", "id", "incident_number", "owner_id", "service", "title", "urgency", "watcher_ids"];

/**
 * Runs one payload through a tool and checks properties (a) to (e). Returns the result and calls,
 * for tool-specific checks.
 */
async function runAndCheck(tool: ToolUnderTest, payload: unknown, salt: number) {
  const { resolvers, calls } = hostileResolvers(tool.resolverNames, salt);
  const issues: unknown[] = [];
  // (a) never throws: every resolver succeeds (per-id errors are values, not rejections). Only a
  // body without the declared list or record is refused, with a typed error told to onIssue.
  let result: Json;
  try {
    result = await tool.project(payload, resolvers, { onIssue: (issue: unknown) => issues.push(issue) });
  } catch (error) {
    expect((error as Error).name).toBe("ResponseShapeError");
    expect(tool.holdsRecords(payload)).toBe(false);
    expect((error as Error).message).not.toContain(SENTINEL);
    expect(issues).toEqual([expect.objectContaining({ kind: "unusable", message: (error as Error).message })]);
    expect(Object.values(calls)).toEqual([]);
    return { result: undefined, calls, issues };
  }
  expect(tool.holdsRecords(payload)).toBe(true);
  // (b) every kept field is present, in every record.
  expect(Object.keys(result).sort()).toEqual([...tool.schema.required].sort());
  const records = tool.list === undefined ? [result] : (result[tool.list] as Json[]);
  expect(Array.isArray(records)).toBe(true);
  for (const record of records) expect(Object.keys(record).sort()).toEqual([...tool.recordKeys].sort());
  // (c) nothing from a dropped field, an unknown field, a resolver's unasked or non-string answer,
  // in the result or in any issue; a resolver's per-id error in no result either.
  expect(text(result)).not.toContain(SENTINEL);
  expect(text(result)).not.toContain(RESOLVER_SAID);
  for (const issue of issues as ProjectionIssue[]) {
    expect(issue.message).not.toContain(SENTINEL);
    expect(String(issue.value)).not.toContain(SENTINEL);
    // The offending value only: never an object or array, a string no longer than the bound.
    expect(typeof issue.value === "object" && issue.value !== null).toBe(false);
  }
  // (d) each resolver at most once, never with an empty list, with distinct ids.
  for (const [name, list] of Object.entries(calls)) {
    expect(list.length, `${name} calls`).toBeLessThanOrEqual(1);
    for (const ids of list) {
      expect(ids.length, `${name} called with an empty list`).toBeGreaterThan(0);
      expect(new Set(ids).size, `${name} called with duplicate ids`).toBe(ids.length);
      for (const asked of ids) expect(typeof asked).toBe("string");
    }
  }
  // (e) the result matches the tool's own output schema.
  expect(validate(tool.schema as object, result)).toBeUndefined();
  // And projecting never touches Object.prototype.
  expect(prototypeKeys()).toBe(PROTOTYPE);
  expect(({} as Json)["polluted"]).toBeUndefined();
  return { result, calls, issues };
}

const required = (schema: unknown) => (schema as { required: readonly string[] }).required;

// ---------------------------------------------------------------------------------------------
// The bundled support desk (JSON:API), through the checked-in generated code

const relationshipOne = (type: string, pool: string[]) =>
  or(
    withExtras(
      fc.record(
        {
          data: fc.oneof(
            fc.constant(null),
            withExtras(fc.record({ type: fc.oneof(fc.constant(type), sentinel), id: id(pool), meta: tainted }, { requiredKeys: ["id"] })),
            fc.array(fc.record({ type: sentinel, id: id(pool) }), { maxLength: 2 }), // an array where an object belongs
            junk,
          ),
          links: tainted,
          meta: tainted,
        },
        { requiredKeys: [] },
      ),
    ),
  );

const ticketAttributes = withProtoKeys(
  withExtras(
    fc.record(
      {
        subject: or(fc.string({ maxLength: 20 })),
        status_code: orCode(fc.oneof(fc.constantFrom(1, 2, 3, 4, 5), fc.integer({ min: -2, max: 9 }), fc.constantFrom("3", 3.5))),
        priority: orCode(fc.oneof(fc.constantFrom(1, 2, 3), fc.integer({ min: 0, max: 9 }))),
        created_at: or(dateTime),
        updated_at: or(dateTime),
        sla_due_at: or(fc.oneof(dateTime, fc.constant(null))),
        internal_notes: tainted,
      },
      { requiredKeys: [] },
    ),
  ),
);

const ticket = withProtoKeys(
  withExtras(
    fc.record(
      {
        type: fc.oneof(fc.constant("ticket"), sentinel),
        id: or(id(TICKET_IDS)),
        attributes: or(ticketAttributes, 6), // sometimes missing, sometimes an array, a string, null
        relationships: or(
          withExtras(
            fc.record(
              { assignee: relationshipOne("user", USER_IDS), organization: relationshipOne("organization", ORG_IDS) },
              { requiredKeys: [] },
            ),
          ),
          6,
        ),
        links: tainted,
        meta: tainted,
      },
      { requiredKeys: [] },
    ),
  ),
);

/** `included`: labels for some ids, duplicates, records pointing back at tickets and at each other, and unreferenced records. */
const includedRecord = fc.oneof(
  withExtras(
    fc.record(
      {
        type: fc.constantFrom("user", "organization", "ticket"),
        id: id([...USER_IDS, ...ORG_IDS, ...TICKET_IDS]),
        attributes: or(
          fc.record(
            {
              display_name: or(fc.constantFrom("Priya Raman", "Sam Okafor")),
              name: or(fc.constantFrom("Northwind Foods", "Contoso")),
              email: tainted,
              role: tainted,
              subject: tainted,
              internal_notes: tainted,
            },
            { requiredKeys: [] },
          ),
        ),
        relationships: fc.record({
          tickets: fc.record({ data: fc.array(fc.record({ type: fc.constant("ticket"), id: id(TICKET_IDS) }), { maxLength: 2 }) }),
          organization: fc.record({ data: fc.record({ type: fc.constant("organization"), id: id(ORG_IDS) }), links: tainted }),
        }),
        links: tainted,
      },
      { requiredKeys: ["type", "id"] },
    ),
  ),
  // Nobody refers to these: their labels must not be used anywhere.
  fc.record({
    type: fc.constantFrom("user", "organization"),
    id: sentinel,
    attributes: fc.record({ display_name: sentinel, name: sentinel }),
  }),
  junk,
);

const included = or(fc.array(includedRecord, { maxLength: 6 }));

const searchTicketsPage = withProtoKeys(
  withExtras(
    fc.record(
      {
        data: or(fc.array(fc.oneof({ weight: 8, arbitrary: ticket }, { weight: 1, arbitrary: junk }), { maxLength: 6 }), 8),
        included,
        links: or(
          fc.record(
            { first: tainted, next: fc.oneof(tainted, fc.constant(null), fc.constant("")), last: tainted, self: tainted },
            { requiredKeys: [] },
          ),
        ),
        meta: or(
          withExtras(
            fc.record(
              {
                page: or(withExtras(fc.record({ number: tainted, size: tainted, total: or(fc.nat({ max: 500 })) }, { requiredKeys: [] }))),
              },
              { requiredKeys: [] },
            ),
          ),
        ),
        jsonapi: tainted,
      },
      { requiredKeys: [] },
    ),
  ),
);

const oneTicketDocument = withExtras(fc.record({ data: or(ticket, 8), included, links: tainted, meta: tainted }, { requiredKeys: [] }));

const user = withExtras(
  fc.record(
    {
      type: fc.oneof(fc.constant("user"), sentinel),
      id: or(id(USER_IDS)),
      attributes: or(
        withProtoKeys(
          withExtras(
            fc.record(
              {
                display_name: or(fc.string({ maxLength: 10 })),
                email: or(fc.string({ maxLength: 10 })),
                role: orCode(fc.constantFrom("agent", "admin", "viewer", "owner")),
              },
              { requiredKeys: [] },
            ),
          ),
        ),
      ),
      relationships: or(withExtras(fc.record({ organization: relationshipOne("organization", ORG_IDS) }, { requiredKeys: [] }))),
      links: tainted,
    },
    { requiredKeys: [] },
  ),
);
const userDocument = withExtras(fc.record({ data: or(user, 8), included, links: tainted }, { requiredKeys: [] }));

/** Ids the response's `included` already names for a resolver: the resolver must not be asked for them. */
function includedIds(payload: unknown, type: string, label: string): Set<string> {
  const found = new Set<string>();
  const list = (payload as Json | null)?.["included"];
  if (!Array.isArray(list)) return found;
  for (const item of list as unknown[]) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const record = item as Json;
    const key = typeof record["id"] === "number" ? String(record["id"]) : record["id"];
    const attributes = record["attributes"];
    if (
      record["type"] !== type ||
      typeof key !== "string" ||
      typeof attributes !== "object" ||
      attributes === null ||
      Array.isArray(attributes)
    )
      continue;
    if (Object.hasOwn(attributes, label) && typeof (attributes as Json)[label] === "string") found.add(key);
  }
  return found;
}

describe("the support desk projectors (checked-in generated/support)", () => {
  const ticketKeys = Object.keys(support.ticketResultSchema.properties);
  const userKeys = Object.keys(support.userResultSchema.properties);
  const searchTickets: ToolUnderTest = {
    project: support.projectSearchTickets as unknown as Project,
    schema: support.searchTicketsOutputSchema,
    resolverNames: ["users", "orgs"],
    recordKeys: ticketKeys,
    list: "tickets",
    holdsRecords: holds(["data"], JSON_API_RECORD, "ticket", true),
  };

  it("search_tickets: (a)-(e) hold for any page, conforming or not", async () => {
    await fc.assert(
      fc.asyncProperty(searchTicketsPage, fc.nat(), async (payload, salt) => {
        const { calls } = await runAndCheck(searchTickets, payload, salt);
        // Labels `included` gives are used first: the resolver is never asked for them.
        const known = { users: includedIds(payload, "user", "display_name"), orgs: includedIds(payload, "organization", "name") };
        for (const name of ["users", "orgs"] as const)
          for (const asked of calls[name]?.[0] ?? []) expect(known[name].has(asked), `${name} asked for ${asked}`).toBe(false);
      }),
      RUNS,
    );
  });

  it("search_tickets: distinct ticket ids stay distinct once shortened", async () => {
    const page = fc
      .array(fc.constantFrom(...TICKET_IDS, "tkt_9f3a71c4-2d18-0000-0000-000000000000", "tkt_9f3a71c4-2d18"), { maxLength: 8 })
      .map((ids) => ({
        data: ids.map((ticketId) => ({ type: "ticket", id: ticketId, attributes: {} })),
      }));
    await fc.assert(
      fc.asyncProperty(page, async (payload) => {
        const result = await support.projectSearchTickets(payload as never, { users: async () => new Map(), orgs: async () => new Map() });
        const pairs = new Map<string, unknown>();
        payload.data.forEach((record, i) => pairs.set(record.id, result.tickets[i]!.id));
        expect(new Set(pairs.values()).size).toBe(pairs.size);
      }),
      RUNS,
    );
  });

  it("get_ticket: (a)-(e) hold for any document", async () => {
    const tool: ToolUnderTest = {
      project: support.projectGetTicket as unknown as Project,
      schema: support.getTicketOutputSchema,
      resolverNames: ["users", "orgs"],
      recordKeys: ticketKeys,
      holdsRecords: holds(["data"], JSON_API_RECORD, "ticket"),
    };
    await fc.assert(
      fc.asyncProperty(oneTicketDocument, fc.nat(), async (payload, salt) => void (await runAndCheck(tool, payload, salt))),
      RUNS,
    );
  });

  it("get_user: (a)-(e) hold for any document", async () => {
    const tool: ToolUnderTest = {
      project: support.projectGetUser as unknown as Project,
      schema: support.getUserOutputSchema,
      resolverNames: ["orgs"],
      recordKeys: userKeys,
      holdsRecords: holds(["data"], JSON_API_RECORD, "user"),
    };
    await fc.assert(
      fc.asyncProperty(userDocument, fc.nat(), async (payload, salt) => void (await runAndCheck(tool, payload, salt))),
      RUNS,
    );
  });

  it("any value at all as the response: search_tickets never throws and still answers in shape", async () => {
    const anything = fc.oneof(junk, fc.anything({ maxDepth: 2, withNullPrototype: true, withObjectString: true }), protoJunk);
    await fc.assert(
      fc.asyncProperty(anything, fc.nat(), async (payload, salt) => void (await runAndCheck(searchTickets, payload, salt))),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Plain REST scenarios, generated in memory

describe("rest-foreign-keys (plain REST: foreign keys, { id } references, arrays of ids)", () => {
  let tool: ToolUnderTest;
  beforeAll(async () => {
    const generated = await generatedScenario("rest-foreign-keys");
    expect(generated.problems).toEqual([]);
    const module = await importGenerated(generated.files);
    tool = {
      project: module["projectListIncidents"] as Project,
      schema: module["listIncidentsOutputSchema"] as ToolUnderTest["schema"],
      resolverNames: ["services", "users"],
      recordKeys: required(module["incidentResultSchema"]),
      list: "incidents",
      holdsRecords: holds(["incidents"], INCIDENT_KEYS, undefined, true),
    };
  });

  const userRef = fc.oneof(
    id(["PXPGF42", "PAM4FGS", "__proto__"]),
    fc.record(
      { id: id(["PXPGF42", "PAM4FGS"]), type: sentinel, summary: sentinel, self: sentinel, html_url: sentinel },
      { requiredKeys: ["id"] },
    ),
    junk,
  );
  const incident = withProtoKeys(
    withExtras(
      fc.record(
        {
          id: or(fc.oneof(fc.constantFrom("PT4KHLK", "PT4KHLM"), fc.nat())),
          incident_number: or(fc.integer()),
          title: or(fc.string({ maxLength: 10 })),
          urgency: orCode(fc.constantFrom("high", "low", "HIGH", "critical")),
          // A reference whose summary, self link and html_url the annotation does not keep.
          service: or(
            fc.oneof(
              withExtras(
                fc.record(
                  { id: id(["PIJ90N7", "PIJ90N8"]), type: sentinel, summary: sentinel, self: sentinel, html_url: sentinel },
                  { requiredKeys: [] },
                ),
              ),
              id(["PIJ90N7"]),
              fc.constant(null),
            ),
          ),
          owner_id: or(userRef),
          watcher_ids: or(fc.array(userRef, { maxLength: 4 })),
          html_url: tainted,
          created_at: or(dateTime),
        },
        { requiredKeys: [] },
      ),
    ),
  );
  const page = withProtoKeys(
    withExtras(
      fc.record(
        {
          incidents: or(fc.array(fc.oneof({ weight: 6, arbitrary: incident }, { weight: 1, arbitrary: junk }), { maxLength: 6 }), 8),
          limit: tainted,
          offset: tainted,
          total: or(fc.oneof(fc.nat(), fc.constant(null))),
          more: or(fc.boolean()),
        },
        { requiredKeys: [] },
      ),
    ),
  );

  it("list_incidents: (a)-(e) hold for any page, conforming or not", async () => {
    await fc.assert(
      fc.asyncProperty(page, fc.nat(), async (payload, salt) => void (await runAndCheck(tool, payload, salt))),
      RUNS,
    );
  });
});

describe("nested-paths (dotted paths into an object, a part dropped, objects kept whole)", () => {
  let tool: ToolUnderTest;
  beforeAll(async () => {
    const generated = await generatedScenario("nested-paths");
    expect(generated.problems).toEqual([]);
    const module = await importGenerated(generated.files);
    tool = {
      project: module["projectGetCustomer"] as Project,
      schema: module["getCustomerOutputSchema"] as ToolUnderTest["schema"],
      resolverNames: [],
      recordKeys: required(module["customerResultSchema"]),
      holdsRecords: holds([], ["id", "name", "address", "tags", "preferences"]),
    };
  });

  // `address` is classified part by part: `street` is dropped, and so is any part the spec does not declare.
  const geo = withProtoKeys(
    withExtras(fc.record({ lat: or(fc.double({ noNaN: true, noDefaultInfinity: true })), lng: or(fc.integer()) }, { requiredKeys: [] })),
  );
  const address = withProtoKeys(
    withExtras(
      fc.record(
        { street: tainted, city: or(fc.string({ maxLength: 8 })), country_code: or(fc.constantFrom("PT", "DE")), geo: or(geo) },
        { requiredKeys: [] },
      ),
    ),
  );
  // `tags` and `preferences` are kept whole, so what they hold is kept too: no sentinels inside them.
  const customer = (tags: fc.Arbitrary<unknown>, preferences: fc.Arbitrary<unknown>) =>
    withProtoKeys(
      withExtras(
        fc.record(
          { id: or(fc.constantFrom("cus_01", "cus_02")), name: or(fc.string({ maxLength: 8 })), address: or(address), tags, preferences },
          { requiredKeys: [] },
        ),
      ),
    );
  // The values the spec declares inside the objects kept whole. See the known defect below for the rest.
  const conformingTags = fc.oneof(
    fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
    fc.constant(null),
    fc.string(),
    fc.integer(),
    fc.constant({ not: "an array" }),
  );
  const conformingPreferences = fc.oneof(
    fc.record({ newsletter: fc.boolean(), language: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null)) }, { requiredKeys: [] }),
    fc.constant(null),
    fc.constant([true]),
    fc.string(),
  );

  it("get_customer: (a)-(e) hold for any record (values inside objects kept whole as the spec declares them)", async () => {
    await fc.assert(
      fc.asyncProperty(customer(conformingTags, conformingPreferences), async (payload) => void (await runAndCheck(tool, payload, 0))),
      RUNS,
    );
  });

  // A value kept whole is checked against its declared shape all the way down and trimmed to it.
  it("get_customer: (e) holds with any junk inside tags and preferences, and no undeclared key rides along", async () => {
    await fc.assert(
      fc.asyncProperty(
        customer(or(fc.array(junk)), or(fc.dictionary(fc.constantFrom("newsletter", "language"), junk))),
        async (payload) => void (await runAndCheck(tool, payload, 0)),
      ),
      RUNS,
    );
    const result = (await tool.project(
      { id: "c", name: "n", tags: ["a"], preferences: { newsletter: true, undeclared_secret: "SENTINEL_KEPT_WHOLE" } },
      {},
      {},
    )) as Record<string, unknown>;
    expect(result["preferences"]).toEqual({ newsletter: true });
  });
  it("get_customer: (a)-(d) hold with any junk inside the objects kept whole", async () => {
    const anyTags = or(fc.array(junk, { maxLength: 3 }));
    const anyPreferences = or(fc.dictionary(fc.constantFrom("newsletter", "language", "other"), junk, { maxKeys: 3 }));
    await fc.assert(
      fc.asyncProperty(customer(anyTags, anyPreferences), async (payload) => {
        if (!tool.holdsRecords(payload)) return void (await expect(tool.project(payload, {}, {})).rejects.toThrow("get_customer"));
        const result = await tool.project(payload, {}, {});
        expect(Object.keys(result).sort()).toEqual([...tool.recordKeys].sort());
        expect(text(result)).not.toContain(SENTINEL);
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Resolver failures, DataLoader-style, on the checked-in support desk

const T1 = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const T2 = "tkt_0b7c52de-91a4-4f0e-8d3b-6e2a0c9f4417";
const U1 = "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af";
const U2 = "usr_0aa1b2c3-77aa-4f31-8d2c-1e5b6c9042af";
const O1 = "org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802";
const O2 = "org_00000000-0000-4000-8000-000000000001";

const ticketRecord = (ticketId: string, assignee: string, org: string) => ({
  type: "ticket",
  id: ticketId,
  attributes: { subject: "s", status_code: 1, priority: 1, created_at: "2026-02-11T09:14:22.481Z", updated_at: "2026-02-11T09:14:22.481Z" },
  relationships: { assignee: { data: { type: "user", id: assignee } }, organization: { data: { type: "organization", id: org } } },
});
const twoTickets = (included: unknown[] = []) =>
  ({
    data: [ticketRecord(T1, U1, O1), ticketRecord(T2, U2, O2)],
    included,
    links: { next: null },
    meta: { page: { total: 2 } },
  }) as unknown as support.SearchTicketsResponse;

/** Fails the test instead of hanging when the projection never settles. */
function within<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`did not settle within ${ms} ms: resolvers deadlocked`)), ms)),
  ]);
}

describe("resolvers, DataLoader-style", () => {
  it("a per-id Error becomes an unresolved marker for that id only, and is reported", async () => {
    const issues: support.ProjectionIssue[] = [];
    const result = await support.projectSearchTickets(
      twoTickets(),
      {
        users: async () =>
          new Map<string, string | Error>([
            [U1, new Error("user store timed out")],
            [U2, "Sam Okafor"],
          ]),
        orgs: async () =>
          new Map([
            [O1, "Northwind Foods"],
            [O2, "Contoso"],
          ]),
      },
      { onIssue: (issue) => issues.push(issue) },
    );
    expect(result.tickets.map((t) => [t.assignee, t.org])).toEqual([
      [{ unresolved: "usr_41c2be09" }, "Northwind Foods"],
      ["Sam Okafor", "Contoso"],
    ]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ kind: "unresolved", resource: "ticket", field: "assignee", value: U1, resolver: "users" });
    expect(issues[0]!.message).toContain("user store timed out");
    expect(text(result)).not.toContain("timed out");
  });

  it("a rejected resolver fails the call with a ResolverError naming it", async () => {
    const call = support.projectSearchTickets(twoTickets(), {
      users: async () => new Map(),
      orgs: async () => Promise.reject(new Error("org service down")),
    });
    await expect(call).rejects.toBeInstanceOf(support.ResolverError);
    await expect(call).rejects.toMatchObject({ name: "ResolverError", resolver: "orgs", message: expect.stringContaining('"orgs"') });
    await expect(call).rejects.toMatchObject({ message: expect.stringContaining("org service down") });
  });

  it("a resolver that throws synchronously, or answers with something other than a Map, fails the call the same way", async () => {
    const throwing = () => {
      throw new Error("sync boom");
    };
    await expect(
      support.projectSearchTickets(twoTickets(), { users: throwing as never, orgs: async () => new Map() }),
    ).rejects.toMatchObject({ resolver: "users", message: expect.stringContaining("sync boom") });
    await expect(
      support.projectSearchTickets(twoTickets(), {
        users: async () => new Map(),
        orgs: (async () => ({ [O1]: "Northwind Foods" })) as never,
      }),
    ).rejects.toMatchObject({ resolver: "orgs" });
    await expect(
      support.projectSearchTickets(twoTickets(), { users: async () => new Map(), orgs: (async () => null) as never }),
    ).rejects.toBeInstanceOf(support.ResolverError);
  });

  it("ids a resolver returns unasked are ignored: not used, not overriding `included`, no crash", async () => {
    const included = [{ type: "organization", id: O1, attributes: { name: "Northwind Foods" } }];
    const orgCalls: string[][] = [];
    const result = await support.projectSearchTickets(twoTickets(included), {
      users: async (ids) => new Map([...ids.map((u) => [u, `name of ${u}`] as const), ["usr_never_asked", `${SENTINEL}unasked user`]]),
      orgs: async (ids) => {
        orgCalls.push([...ids]);
        return new Map<string, string | Error>([
          [O2, "Contoso"],
          [O1, `${SENTINEL}overrides included`],
          ["org_never_asked", `${SENTINEL}unasked org`],
          ["__proto__", new Error(`${SENTINEL}unasked error`)],
        ]);
      },
    });
    expect(orgCalls).toEqual([[O2]]);
    expect(result.tickets.map((t) => t.org)).toEqual(["Northwind Foods", "Contoso"]);
    expect(result.tickets.map((t) => t.assignee)).toEqual([`name of ${U1}`, `name of ${U2}`]);
    expect(text(result)).not.toContain(SENTINEL);
  });

  it("the resolvers of one call run concurrently: one waiting on the other does not deadlock", async () => {
    for (const [waiter, releaser] of [
      ["users", "orgs"],
      ["orgs", "users"],
    ] as const) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const resolvers = {
        [waiter]: async (ids: readonly string[]) => {
          await gate;
          return new Map(ids.map((i) => [i, `label ${i}`]));
        },
        [releaser]: async (ids: readonly string[]) => {
          release();
          return new Map(ids.map((i) => [i, `label ${i}`]));
        },
      } as unknown as support.SearchTicketsResolvers;
      const result = await within(support.projectSearchTickets(twoTickets(), resolvers));
      expect(result.tickets[0]).toMatchObject({ assignee: `label ${U1}`, org: `label ${O1}` });
    }
  });

  it("both resolvers are in flight before either answers", async () => {
    const started: string[] = [];
    let settle!: () => void;
    const bothStarted = new Promise<void>((resolve) => (settle = resolve));
    const resolver = (name: string) => async (ids: readonly string[]) => {
      started.push(name);
      if (started.length === 2) settle();
      await within(bothStarted, 1000);
      return new Map(ids.map((i) => [i, name]));
    };
    await support.projectSearchTickets(twoTickets(), { users: resolver("users"), orgs: resolver("orgs") });
    expect(started.sort()).toEqual(["orgs", "users"]);
  });

  it("a page where every id is already in `included` calls no resolver at all", async () => {
    const users = { calls: 0 };
    const included = [
      { type: "user", id: U1, attributes: { display_name: "Priya Raman" } },
      { type: "user", id: U2, attributes: { display_name: "Sam Okafor" } },
      { type: "organization", id: O1, attributes: { name: "Northwind Foods" } },
      { type: "organization", id: O2, attributes: { name: "Contoso" } },
    ];
    const never = async () => {
      users.calls++;
      return new Map<string, string>();
    };
    const result = await support.projectSearchTickets(twoTickets(included), { users: never, orgs: never });
    expect(users.calls).toBe(0);
    expect(result.tickets.map((t) => [t.assignee, t.org])).toEqual([
      ["Priya Raman", "Northwind Foods"],
      ["Sam Okafor", "Contoso"],
    ]);
  });
});

describe("short ids of one result", () => {
  // Few prefixes and digits, so that short forms collide, share a key, or differ only in case.
  const id = fc.oneof(
    fc
      .tuple(
        fc.constantFrom("tkt_", "usr_", "TKT_", "", "x-", "a"),
        fc.constantFrom("9f3a71c4", "9F3A71C4", "00000000", "9f3a71c5"),
        fc.constantFrom("2d18", "2d19", "7e01"),
        fc.constantFrom("4b6e-9c05-8ab3f2e17d90", "4b6e-9c05-000000000000"),
      )
      .map(([prefix, digits, group, rest]) => `${prefix}${digits}-${group}-${rest}`),
    fc.constantFrom("42", "tkt_9f3a71c4", "tkt_9f3a71c4-2", "my-tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90"),
  );

  it("tells every id of a result apart, each by a prefix the id answers to", () => {
    fc.assert(
      fc.property(fc.array(id, { maxLength: 24 }), (ids) => {
        const longer = shortenIds(ids);
        const distinct = [...new Set(ids)];
        const shorts = distinct.map((full) => longer.get(full) ?? shortId(full));
        expect(new Set(shorts).size).toBe(distinct.length);
        distinct.forEach((full, i) => expect(matchesShortId(full, shorts[i]!)).toBe(true));
        // Only colliding ids are lengthened.
        for (const full of longer.keys()) expect(distinct.some((other) => other !== full && shortId(other) === shortId(full))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  /** The short forms a tool result would give `ids`, how many projections that took, and the issues passed on. */
  function shortsOfResult(ids: string[], expected = 1) {
    let projections = 0;
    const issues: ProjectionIssue[] = [];
    const shorts = withDistinctShortIds({ options: { onIssue: (issue) => issues.push(issue) }, expectedIds: expected }, (options) => {
      projections++;
      options.onIssue?.({ kind: "missing", resource: "ticket", field: "sla_due_at", value: null, message: `projection ${projections}` });
      const ctx = context("ticket", options);
      return ids.map((full) => shortArgumentId(full, { field: "id", required: true, ctx }));
    });
    return { shorts, projections, issues };
  }

  it("projects once when no two short forms collide, twice when some do, and passes issues on once", () => {
    fc.assert(
      fc.property(fc.array(id, { maxLength: 24 }), (ids) => {
        const { shorts, projections, issues } = shortsOfResult(ids);
        const collides = shortenIds(ids).size > 0;
        expect(projections).toBe(collides ? 2 : 1);
        // Once, and from the projection that is kept.
        expect(issues.map((issue) => issue.message)).toEqual([`projection ${projections}`]);
        ids.forEach((full, i) => expect(shorts[i]).toBe(shortenIds(ids).get(full) ?? shortId(full)));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["an id kept whole and a UUID id cut to it", ["tkt_9f3a71c4", "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90"]],
    [
      "upper- and lower-case digits",
      ["tkt_9F3A71C4-2d18-4b6e-9c05-8ab3f2e17d90", "tkt_9F3A71C4-7e01-4b6e-9c05-8ab3f2e17d90", "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90"],
    ],
    ["a UUID inside a longer id", ["ref:ticket/9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "ref:ticket/9f3a71c4-7e01-4b6e-9c05-8ab3f2e17d90"]],
  ])("tells apart ids that share a short form however each was cut: %s", (_, ids) => {
    const { shorts, projections } = shortsOfResult(ids);
    expect(projections).toBe(2);
    expect(new Set(shorts).size).toBe(ids.length);
  });

  it("passes on what a failing projection reported before it failed, then its error", () => {
    const issues: ProjectionIssue[] = [];
    const failing = () =>
      withDistinctShortIds({ options: { onIssue: (issue) => issues.push(issue) }, expectedIds: 1 }, (options) => {
        options.onIssue?.({ kind: "missing", resource: "ticket", field: "sla_due_at", value: null, message: "before the failure" });
        throw new Error("countTokens failed");
      });
    expect(failing).toThrow("countTokens failed");
    expect(issues.map((issue) => issue.message)).toEqual(["before the failure"]);
  });

  it("keeps the ids of unresolved markers apart too", async () => {
    const ticket = (id: string, assignee: string) => ({
      type: "ticket",
      id,
      attributes: {
        subject: "s",
        status_code: 1,
        priority: 1,
        created_at: "2026-02-11T09:14:22Z",
        updated_at: "2026-02-11T09:14:22Z",
        sla_due_at: null,
      },
      relationships: { assignee: { data: { type: "user", id: assignee } }, organization: { data: null } },
    });
    const page = {
      data: [
        ticket("tkt_00000001-2d18-4b6e-9c05-8ab3f2e17d90", "usr_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90"),
        ticket("tkt_00000002-2d18-4b6e-9c05-8ab3f2e17d90", "usr_9f3a71c4-7e01-4b6e-9c05-8ab3f2e17d90"),
      ],
      included: [],
    };
    const nobody = async () => new Map<string, string>();
    const result = await support.projectSearchTickets(page as never, { users: nobody, orgs: nobody });
    expect(result.tickets.map((t) => t.assignee)).toEqual([{ unresolved: "usr_9f3a71c4-2" }, { unresolved: "usr_9f3a71c4-7" }]);
    expect(result.tickets.map((t) => t.id)).toEqual(["tkt_00000001", "tkt_00000002"]);
  });

  it("finds a collision among thousands of ids, wherever it falls", () => {
    const hex = (n: number) => n.toString(16).padStart(8, "0");
    const page = Array.from({ length: 5000 }, (_, i) => `tkt_${hex(i * 7919)}-2d18-4b6e-9c05-8ab3f2e17d90`);
    // The same ids again, as when a record repeats, and other kinds sharing the digits: no collision.
    const repeats = [...page, ...page.map((full) => full.replace("tkt_", "usr_")), ...page.slice(0, 100)];
    expect(shortsOfResult(repeats).projections).toBe(1);
    expect(shortsOfResult(repeats, repeats.length).projections).toBe(1);
    fc.assert(
      fc.property(fc.nat(page.length - 1), fc.nat(page.length), (which, where) => {
        const twin = page[which]!.replace("2d18", "7e01");
        const ids = [...page.slice(0, where), twin, ...page.slice(where)];
        const { shorts, projections } = shortsOfResult(ids, which);
        expect(projections).toBe(2);
        expect(new Set(shorts).size).toBe(ids.length);
      }),
      { numRuns: 50 },
    );
  });
});

describe("UTC dates cut without a Date", () => {
  /** The rule by the book: the shape by a RegExp, the calendar by Date.UTC. */
  function byTheBook(value: string): boolean {
    const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?Z)?$/.exec(value);
    if (!match) return false;
    const [year, month, day, hour = 0, minute = 0, second = 0] = match
      .slice(1)
      .map((part) => (part === undefined ? undefined : Number(part))) as number[];
    // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
    const daysInMonth = new Date(new Date(0).setUTCFullYear(year!, month!, 0)).getUTCDate();
    // A leap second (60) is left to the full reader, which checks it ends a month.
    return month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59;
  }

  it("takes exactly the real UTC dates and date-times, whatever a character is changed to", () => {
    const samples = [
      "2026-02-11",
      "2024-02-29",
      "2100-02-29",
      "2000-02-29",
      "2026-02-11T09:14Z",
      "2026-02-11T09:14:22Z",
      "2026-12-31T23:59:60.5Z",
      "2026-02-11T09:14:22.481Z",
    ];
    const char = fc.constantFrom(..."0123456789-:TZ.+x ");
    // Each edit overwrites, inserts or deletes a character, so every length up to the longest sample's is reached.
    const edit = fc.tuple(fc.constantFrom("overwrite", "insert", "delete"), fc.nat(30), char);
    const mutated = fc.tuple(fc.constantFrom(...samples), fc.array(edit, { maxLength: 4 })).map(([sample, edits]) => {
      const chars = [...sample];
      for (const [how, at, c] of edits) chars.splice(at % (chars.length + 1), how === "insert" ? 0 : 1, ...(how === "delete" ? [] : [c]));
      return chars.join("");
    });
    fc.assert(
      fc.property(mutated, (value) => {
        expect(isUtcIso(value), value).toBe(byTheBook(value));
      }),
      { numRuns: 5000 },
    );
  });
});
