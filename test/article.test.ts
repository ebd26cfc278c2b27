// The worked example of "Projecting a tool result", run through the checked-in generated code.
import { deepStrictEqual } from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  searchTicketsOutputSchema,
  projectGetTicket,
  projectSearchTickets,
  projectTicket,
  matchesShortId,
  ResolverError,
  ResponseShapeError,
  shortId,
  type ProjectionIssue,
  type SearchTicketsResponse,
} from "../generated/support/index.js";
import { recordingResolver } from "./helpers/pipeline.js";

/** The article's element, verbatim, with the assignee relationship's data set to null. */
const articleElement = {
  type: "ticket",
  id: "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90",
  attributes: {
    subject: "Card declined at checkout",
    status_code: 3,
    priority: 2,
    created_at: "2026-02-11T09:14:22.481Z",
    updated_at: "2026-02-14T16:02:07.113Z",
  },
  relationships: {
    assignee: { data: null },
    organization: { data: { type: "organization", id: "org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802" } },
  },
  links: { self: "https://api.example.com/v1/tickets/tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90" },
};

const articlePage = {
  data: [articleElement],
  links: { first: "…", next: "…", last: "…" },
  meta: { page: { number: 1, size: 25, total: 12 } },
} as unknown as SearchTicketsResponse;

const uuid = (n: number) => `${n.toString(16).padStart(8, "0")}-77aa-4f31-8d2c-1e5b6c9042af`;

/** Twelve tickets: four share one assignee, eight each have their own. */
function twelveTickets(included: unknown[] = []) {
  const assignees = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => `usr_${uuid(n)}`);
  return {
    data: assignees.map((assignee, i) => ({
      ...articleElement,
      id: `tkt_${uuid(100 + i)}`,
      relationships: {
        assignee: { data: { type: "user", id: assignee } },
        organization: { data: { type: "organization", id: `org_${uuid(200 + (i % 3))}` } },
      },
    })),
    included,
    links: { next: null },
    meta: { page: { total: 12 } },
  } as unknown as SearchTicketsResponse;
}

describe("the article's ticket", () => {
  it("projects the article's element to exactly the article's projection, with sla_due: null", async () => {
    const orgs = recordingResolver({ "org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802": "Northwind Foods" });
    const users = recordingResolver({});
    const result = await projectSearchTickets(articlePage, { users: users.resolver, orgs: orgs.resolver });
    expect(result.tickets).toStrictEqual([
      {
        id: "tkt_9f3a71c4",
        subject: "Card declined at checkout",
        status: "open",
        priority: "high",
        assignee: null,
        org: "Northwind Foods",
        opened: "2026-02-11",
        last_update: "2026-02-14",
        sla_due: null,
      },
    ]);
    // The article's own order, which is the annotation's: what the model meets first is chosen there.
    expect(JSON.stringify(result)).toBe(
      '{"tickets":[{"id":"tkt_9f3a71c4","subject":"Card declined at checkout","status":"open","priority":"high","assignee":null,"org":"Northwind Foods","opened":"2026-02-11","last_update":"2026-02-14","sla_due":null}],"total":12,"more":true}',
    );
    expect(result.total).toBe(12);
    expect(result.more).toBe(true);
    expect(users.calls).toEqual([]);
    expect(orgs.calls).toEqual([["org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802"]]);
  });

  it("projectTicket returns a plain object, equal to the literal of its fields by any comparison", () => {
    const result = projectTicket(articleElement as never, { users: new Map(), orgs: new Map() });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(["id", "subject", "status", "priority", "assignee", "org", "opened", "last_update", "sla_due"]);
    expect(() => deepStrictEqual(result, { ...result })).not.toThrow();
    expect(JSON.parse(JSON.stringify(result))).toStrictEqual({ ...result });
  });

  it("projectTicket is synchronous and pure over already-resolved labels", () => {
    const lookups = { users: new Map(), orgs: new Map([["org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802", "Northwind Foods"]]) };
    const first = projectTicket(articleElement as never, lookups);
    expect(projectTicket(articleElement as never, lookups)).toStrictEqual(first);
    expect(first.org).toBe("Northwind Foods");
    expect(first.sla_due).toBeNull();
  });

  it("writes sla_due at minute precision in UTC", () => {
    const due = { ...articleElement, attributes: { ...articleElement.attributes, sla_due_at: "2026-02-14T18:02:07.113+02:00" } };
    expect(projectTicket(due as never, { users: new Map(), orgs: new Map() }).sla_due).toBe("2026-02-14T16:02Z");
  });
});

describe("batched resolution", () => {
  it("calls each resolver once, with the distinct ids, for a page of 12", async () => {
    const users = recordingResolver(Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`usr_${uuid(n)}`, `User ${n}`])));
    const orgs = recordingResolver({});
    const result = await projectSearchTickets(twelveTickets(), { users: users.resolver, orgs: orgs.resolver });
    expect(users.calls).toHaveLength(1);
    expect(users.calls[0]).toHaveLength(9);
    expect(new Set(users.calls[0])).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => `usr_${uuid(n)}`)));
    expect(orgs.calls).toHaveLength(1);
    expect(orgs.calls[0]).toHaveLength(3);
    expect(result.tickets.map((t) => t.assignee).slice(0, 5)).toEqual(["User 0", "User 0", "User 0", "User 0", "User 1"]);
    expect(result.more).toBe(false);
  });

  it("takes labels from included and makes no users call when every user is there", async () => {
    const included = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({
      type: "user",
      id: `usr_${uuid(n)}`,
      attributes: { display_name: `Included ${n}` },
    }));
    const users = recordingResolver({});
    const orgs = recordingResolver({});
    const result = await projectSearchTickets(twelveTickets(included), { users: users.resolver, orgs: orgs.resolver });
    expect(users.calls).toEqual([]);
    expect(orgs.calls).toHaveLength(1);
    expect(result.tickets[4]!.assignee).toBe("Included 1");
  });

  it("projects in one walk: asks for the ids included did not name in page order, each once, and reports by record then field", async () => {
    // User 1 is included; users 0, 2 and 5 resolve; users 3, 4, 6, 7 and 8 do not. Ticket 5 has no subject.
    const included = [{ type: "user", id: `usr_${uuid(1)}`, attributes: { display_name: "Included 1" } }];
    const page = twelveTickets(included);
    (page.data[5] as { attributes: object }).attributes = { ...articleElement.attributes, subject: null };
    const users = recordingResolver(Object.fromEntries([0, 2, 5].map((n) => [`usr_${uuid(n)}`, `User ${n}`])));
    const orgs = recordingResolver({ [`org_${uuid(200)}`]: "Org A", [`org_${uuid(202)}`]: "Org C" });
    const issues: ProjectionIssue[] = [];
    const result = await projectSearchTickets(page, { users: users.resolver, orgs: orgs.resolver }, { onIssue: (i) => issues.push(i) });
    expect(users.calls).toEqual([[0, 2, 3, 4, 5, 6, 7, 8].map((n) => `usr_${uuid(n)}`)]);
    expect(orgs.calls).toEqual([[200, 201, 202].map((n) => `org_${uuid(n)}`)]);
    expect(result.tickets.map((t) => [t.assignee, t.org]).slice(3, 7)).toEqual([
      ["User 0", "Org A"],
      ["Included 1", { unresolved: `org_${uuid(201).slice(0, 8)}` }],
      ["User 2", "Org C"],
      [{ unresolved: `usr_${uuid(3).slice(0, 8)}` }, "Org A"],
    ]);
    const org = `org_${uuid(201)}`;
    const user = (n: number) => `usr_${uuid(n)}`;
    expect(issues.map((i) => [i.kind, i.field, i.value])).toEqual([
      ["unresolved", "organization", org],
      ["unresolved", "organization", org],
      ["missing", "subject", null],
      ["unresolved", "assignee", user(3)],
      ["unresolved", "assignee", user(4)],
      ["unresolved", "organization", org],
      ["unresolved", "assignee", user(6)],
      ["unresolved", "assignee", user(7)],
      ["unresolved", "organization", org],
      ["unresolved", "assignee", user(8)],
    ]);
  });

  it("makes no call at all for an empty page", async () => {
    const users = recordingResolver({});
    const orgs = recordingResolver({});
    const result = await projectSearchTickets({ data: [] } as unknown as SearchTicketsResponse, {
      users: users.resolver,
      orgs: orgs.resolver,
    });
    expect(result).toStrictEqual({ tickets: [], total: null, more: false });
    expect(users.calls).toEqual([]);
    expect(orgs.calls).toEqual([]);
  });
});

describe("absence and failure are written down", () => {
  it("marks an id the resolver could not name, keeping the short id, and reports it", async () => {
    const issues: ProjectionIssue[] = [];
    const users = recordingResolver({});
    const orgs = recordingResolver({});
    const result = await projectSearchTickets(
      twelveTickets(),
      { users: users.resolver, orgs: orgs.resolver },
      { onIssue: (i) => issues.push(i) },
    );
    expect(result.tickets[0]!.assignee).toEqual({ unresolved: `usr_${uuid(0).slice(0, 8)}` });
    expect(issues.filter((i) => i.kind === "unresolved" && i.resolver === "users")).toHaveLength(12);
  });

  it("marks an unknown code rather than guessing a word", () => {
    const issues: ProjectionIssue[] = [];
    const odd = { ...articleElement, attributes: { ...articleElement.attributes, status_code: 9 } };
    const result = projectTicket(odd as never, { users: new Map(), orgs: new Map() }, { onIssue: (i) => issues.push(i) });
    expect(result.status).toEqual({ unknown_code: 9 });
    expect(issues).toContainEqual(expect.objectContaining({ kind: "unknown_code", field: "status_code", value: 9 }));
  });

  it("rejects the call with an error naming the resolver that threw", async () => {
    const failing = async () => {
      throw new Error("connection refused");
    };
    const call = projectSearchTickets(twelveTickets(), { users: failing, orgs: recordingResolver({}).resolver });
    await expect(call).rejects.toBeInstanceOf(ResolverError);
    await expect(call).rejects.toThrow('resolver "users" failed: connection refused');
  });

  it("projects a response that does not match its schema as far as it can, without throwing", async () => {
    const issues: ProjectionIssue[] = [];
    const broken = {
      data: [
        { type: "ticket", id: "tkt_1" },
        { type: "ticket", id: 42, attributes: { subject: 7, status_code: "open", created_at: "yesterday" }, relationships: null },
      ],
    } as unknown as SearchTicketsResponse;
    const none = recordingResolver({});
    const result = await projectSearchTickets(broken, { users: none.resolver, orgs: none.resolver }, { onIssue: (i) => issues.push(i) });
    expect(result.tickets).toHaveLength(2);
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(searchTicketsOutputSchema);
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    expect(result.tickets[0]).toMatchObject({ id: "tkt_1", subject: null, status: null, assignee: null });
    expect(result.tickets[1]).toMatchObject({
      id: { unusable: "expected a string, got number" },
      subject: { unusable: "expected a string, got number" },
      status: { unusable: "expected an integer code, got string" },
    });
    expect(result.tickets[1]!.opened).toEqual({ unusable: 'not a date: "yesterday"' });
    expect(issues.some((i) => i.kind === "missing" && i.field === "subject")).toBe(true);
  });

  it("refuses a page holding an item that is no record, rather than showing a row of nulls", async () => {
    const page = { data: [{ type: "ticket", id: "tkt_1" }, null] } as unknown as SearchTicketsResponse;
    const none = recordingResolver({});
    const call = projectSearchTickets(page, { users: none.resolver, orgs: none.resolver });
    await expect(call).rejects.toBeInstanceOf(ResponseShapeError);
    await expect(call).rejects.toThrow("item 1 is null, not a record");
  });

  it("shortens colliding ids just enough to keep them apart", async () => {
    const twin = (suffix: string) => ({ ...articleElement, id: `tkt_9f3a71c4-${suffix}-4b6e-9c05-8ab3f2e17d90`, relationships: {} });
    const none = recordingResolver({});
    const result = await projectSearchTickets({ data: [twin("2d18"), twin("7e01")] } as unknown as SearchTicketsResponse, {
      users: none.resolver,
      orgs: none.resolver,
    });
    expect(result.tickets.map((t) => t.id)).toEqual(["tkt_9f3a71c4-2", "tkt_9f3a71c4-7"]);
  });

  it("projects a one-record tool to the record itself, naming users from included", async () => {
    const users = recordingResolver({});
    const orgs = recordingResolver({ "org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802": "Northwind Foods" });
    const response = {
      data: {
        ...articleElement,
        relationships: {
          ...articleElement.relationships,
          assignee: { data: { type: "user", id: "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af" } },
        },
      },
      included: [{ type: "user", id: "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af", attributes: { display_name: "Priya Raman" } }],
    };
    const result = await projectGetTicket(response as never, { users: users.resolver, orgs: orgs.resolver });
    expect(result).toMatchObject({ id: "tkt_9f3a71c4", assignee: "Priya Raman", org: "Northwind Foods" });
    expect(users.calls).toEqual([]);
  });
});

describe("run-time helpers", () => {
  it("refuses calendar days that do not exist", () => {
    const odd = (created_at: string) =>
      projectTicket({ ...articleElement, attributes: { ...articleElement.attributes, created_at } } as never, {
        users: new Map(),
        orgs: new Map(),
      }).opened;
    expect(odd("2026-02-30")).toEqual({ unusable: 'not a date: "2026-02-30"' });
    expect(odd("2026-13-45T10:00:00Z")).toEqual({ unusable: 'not a date: "2026-13-45T10:00:00Z"' });
    expect(odd("2026-02-28")).toBe("2026-02-28");
    expect(odd("2026-02-28T23:30:00-05:00")).toBe("2026-03-01");
    expect(odd("2026-02-28T23:30:00")).toBe("2026-02-28");
  });

  it("matches a short id the model passes back to its full id", () => {
    const full = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
    expect(matchesShortId(full, shortId(full))).toBe(true);
    expect(matchesShortId(full, "tkt_9f3a71c4")).toBe(true);
    expect(matchesShortId(full, "tkt_0b7c52de")).toBe(false);
    expect(matchesShortId(full, "")).toBe(false);
    // Shorter than any form a result gives: a truncated or made-up id, not this one.
    expect(matchesShortId(full, "tkt_9f3a")).toBe(false);
    expect(matchesShortId(full, "tkt_")).toBe(false);
    expect(matchesShortId(full, "tkt_9f3a71c4-2d")).toBe(true);
  });
});
