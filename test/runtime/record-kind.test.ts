// A record of another JSON:API type, or an object holding nothing of a record, is not the tool's
// record: the call answers an error, never a record read from the wrong thing.
import { describe, expect, it } from "vitest";
import * as support from "../../generated/support/index.js";
import { listAt, recordAt, type RecordsPlace } from "../../templates/runtime/records.js";

const ticket: RecordsPlace = { tool: "get_ticket", resource: "ticket", path: ["data"], nullable: false, keys: ["id"], type: "ticket" };
const tickets: RecordsPlace = { tool: "search_tickets", resource: "ticket", path: ["data"], nullable: false, type: "ticket" };
const noResolvers = { users: async () => new Map(), orgs: async () => new Map() };

describe("one JSON:API record", () => {
  it.each([
    [{ data: { type: "user", id: "usr_1", attributes: { subject: "Alice's profile" } } }, "data is a record of another type, not ticket"],
    [{ data: { type: "ticket" } }, "data is an object with none of the keys a ticket has"],
    [{ data: { type: "ticket", id: null, attributes: {} } }, "data is an object with none of the keys a ticket has"],
    [{ data: { links: { self: "/x" } } }, "data is an object with none of the keys a ticket has"],
  ])("%j is refused: %s", (body, got) => {
    const issues: unknown[] = [];
    expect(() => recordAt(body, ticket, (issue) => issues.push(issue))).toThrow(`(${got})`);
    expect(issues).toHaveLength(1);
  });

  it("of its own type is the record", () => {
    const record = { type: "ticket", id: "tkt_1" };
    expect(recordAt({ data: record }, ticket, undefined)).toBe(record);
  });

  it("of another type is an error for the model through get_ticket, with its text unquoted", async () => {
    const client = {
      GET: async () => ({
        data: { data: { type: "user-SECRET", id: "usr_1", attributes: { subject: "Alice's profile" } } },
        response: { status: 200, ok: true },
      }),
    };
    const tools = support.createTools({ client: client as never, resolvers: noResolvers });
    const outcome = await tools.get_ticket({ ticket_id: "tkt_1" });
    expect(outcome).toEqual({ error: expect.stringContaining("a record of another type, not ticket") });
    expect(JSON.stringify(outcome)).not.toContain("SECRET");
  });
});

describe("a JSON:API list", () => {
  it("with a record of another type is refused, naming the item", () => {
    const body = {
      data: [
        { type: "ticket", id: "tkt_1" },
        { type: "user", id: "usr_1" },
      ],
    };
    expect(() => listAt(body, tickets, undefined)).toThrow("(item 1 is a record of another type, not ticket)");
  });

  it("of its own type is the list", () => {
    const body = {
      data: [
        { type: "ticket", id: "tkt_1" },
        { type: "ticket", id: "tkt_2" },
      ],
    };
    expect(listAt(body, tickets, undefined)).toBe(body.data);
  });
});

describe("text from outside, in a message", () => {
  it("has its line separators, invisible characters and tag characters escaped", async () => {
    const { printable } = await import("../../templates/runtime/quoting.js");
    expect(printable("a\u2028b\u2029c\u200bd\ufeffe\u{e0041}f")).toBe("a\\u2028b\\u2029c\\u200bd\\ufeffe\\udb40\\udc41f");
  });
});
