// A result the call refuses hands out nothing: its short ids never reach the id book, so one
// oversized answer neither evicts the short ids the model holds nor maps ids it never saw.
import { describe, expect, it } from "vitest";
import * as support from "../../generated/support/index.js";

const ticket = (n: number) => ({
  type: "ticket",
  id: `tkt_${n.toString(16).padStart(8, "0")}-2d18-4b6e-9c05-8ab3f2e17d90`,
  attributes: { subject: `Card declined at checkout, attempt ${n} of many`, status_code: 3, priority: 2 },
  relationships: {},
});
const noResolvers = { users: async () => new Map(), orgs: async () => new Map() };
const answering = (body: unknown) => ({ GET: async () => ({ data: body, response: { status: 200, ok: true } }) });

describe("a result refused as too long", () => {
  it("notes none of its short ids, and keeps those an earlier result gave", async () => {
    const first = support.createTools({ client: answering({ data: [ticket(0xabcdef01)] }) as never, resolvers: noResolvers });
    const shown = await first.search_tickets({});
    expect("result" in shown && shown.result.tickets[0]!.id).toBe("tkt_abcdef01");
    expect(support.fullId("tkt_abcdef01", ["ticket.id"])).toBe(ticket(0xabcdef01).id);

    const many = Array.from({ length: 12_000 }, (_, n) => ticket(n));
    const big = support.createTools({ client: answering({ data: many }) as never, resolvers: noResolvers });
    expect(await big.search_tickets({})).toEqual({ error: expect.stringMatching(/^search_tickets: the result is \d+ characters long/) });
    expect(support.fullId("tkt_00002ee0", ["ticket.id"])).toBe("tkt_00002ee0");
    expect(support.fullId("tkt_abcdef01", ["ticket.id"])).toBe(ticket(0xabcdef01).id);
  });
});
