// What reaches a projection is what the API wrote: serve's masking changes a secret's text and
// nothing else (a number stays as written), an epoch is read from text of digits alone, and a JSON:API
// record whose section is there but not an object is no record of the tool's, never a row of nulls.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { projectTicket } from "../../generated/support/resources/ticket.js";
import { projectGetTicket } from "../../generated/support/tools/get-ticket.js";
import { projectSearchTickets } from "../../generated/support/tools/search-tickets.js";
import { maskedBody, maskingFetch, secretMasker } from "../../src/serve/secrets.js";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { date, datetime } from "../../templates/runtime/dates.js";
import { integer } from "../../templates/runtime/values.js";

const TOKEN = "sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const mask = secretMasker([TOKEN]);

/** Numbers as an API may write them, each of which a parse and a write again would change. */
const WRITTEN_NUMBERS = ["1e400", "-1e400", "1e-400", "12345678901234567890", "-0", "1.0", "0.10", "1E+2"];

/** A JSON text's strings, in order, and the text around them. */
function stringsAndRest(text: string): { strings: string[]; rest: string } {
  const strings: string[] = [];
  const rest = text.replace(/"(?:[^"\\]|\\.)*"/g, (written) => {
    strings.push(JSON.parse(written) as string);
    return '""';
  });
  return { strings, rest };
}

describe("serve's masking of an API's answer that echoes the secret", () => {
  it.each(WRITTEN_NUMBERS)("keeps the number %s as the API wrote it", (number) => {
    const body = `{"items":[{"id":"t1","meta":{"note":"seen ${TOKEN}"}}],"total":${number}}`;
    expect(maskedBody(body, mask)).toBe(`{"items":[{"id":"t1","meta":{"note":"seen [secret]"}}],"total":${number}}`);
  });

  it("hands the runtime an overflowed total it marks unusable, as it does when no secret is echoed", async () => {
    const body = `{"items":[{"meta":{"note":"seen ${TOKEN}"}}],"total":1e400}`;
    const masked = await maskingFetch(async () => new Response(body), mask, 1 << 20)(new Request("http://api.test/v1/items"));
    const { total } = (await masked.json()) as { total: unknown };
    const ctx = context("items", {});
    expect(integer(total, { field: "total", required: true, ctx })).toEqual({ unusable: "expected an integer, got Infinity" });
  });

  it("changes nothing outside the strings, and each string only where the secret was", () => {
    const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(TOKEN, `bad key: ${TOKEN}`, "\n", '"', "\\"));
    const space = fc.constantFrom("", " ", "\n  ");
    const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text.map((t) => JSON.stringify(t)),
        fc.constantFrom(...WRITTEN_NUMBERS, "true", "null"),
        fc.array(fc.tuple(space, tie("value")), { maxLength: 3 }).map((items) => `[${items.map((p) => p.join("")).join(",")}]`),
        fc
          .array(fc.tuple(text, space, tie("value")), { maxLength: 3 })
          .map((members) => `{${members.map(([key, gap, item]) => `${JSON.stringify(key)}:${gap}${item}`).join(",")}}`),
      ),
    })).value;
    fc.assert(
      fc.property(value, (body) => {
        const before = stringsAndRest(body);
        const after = stringsAndRest(maskedBody(body, mask));
        expect(after.rest).toBe(before.rest);
        expect(after.strings).toEqual(before.strings.map(mask));
      }),
      { numRuns: 300 },
    );
  });
});

describe("an epoch read from text", () => {
  const issues: string[] = [];
  const ctx = context("event", { onIssue: (issue) => issues.push(issue.message) });

  it("is read from nine digits or more and nothing else", () => {
    expect(datetime("1700000000", { field: "at", required: false, ctx })).toBe("2023-11-14T22:13Z");
    expect(date("1700000000000", { field: "at", required: false, ctx })).toBe("2023-11-14");
  });

  it.each(["-1700000000", "1700000000.5", "99999999999.9999999", "+1700000000", "1700000000."])(
    "is not read from %j, which is unusable text",
    (text) => {
      issues.length = 0;
      expect(datetime(text, { field: "at", required: true, ctx })).toEqual({ unusable: `not a date-time: ${JSON.stringify(text)}` });
      expect(date(text, { field: "at", required: true, ctx })).toEqual({ unusable: `not a date: ${JSON.stringify(text)}` });
      expect(issues).toHaveLength(2);
    },
  );
});

describe("a JSON:API record whose section is not an object", () => {
  const ATTRIBUTES = {
    subject: "Refund",
    status_code: 1,
    priority: 1,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-02T00:00:00Z",
  };
  const RELATIONSHIPS = { assignee: { data: { type: "user", id: "u1" } }, organization: { data: { type: "organization", id: "o1" } } };
  const RESOLVERS = {
    users: async (ids: readonly string[]) => new Map(ids.map((id) => [id, "Dana"])),
    orgs: async (ids: readonly string[]) => new Map(ids.map((id) => [id, "Northwind"])),
  };
  const projected = (sections: Record<string, unknown>) => {
    const issues: ProjectionIssue[] = [];
    const ticket = projectTicket(
      { type: "ticket", id: "tkt_1", ...sections } as never,
      {
        users: new Map([["u1", "Dana"]]),
        orgs: new Map([["o1", "Northwind"]]),
      },
      { onIssue: (issue) => issues.push(issue) },
    );
    return { ticket, issues };
  };

  const page = (record: Record<string, unknown>) => ({
    data: [{ type: "ticket", id: "tkt_0", attributes: ATTRIBUTES, relationships: RELATIONSHIPS }, record],
    meta: { page: { total: 2 } },
    links: {},
  });

  it.each([[["subject"]], ["x"], [5], [true]])(
    "refuses a page holding a record whose attributes is %j: nothing of it can be read, and no row of nulls is shown",
    async (attributes) => {
      const issues: ProjectionIssue[] = [];
      await expect(
        projectSearchTickets(page({ type: "ticket", id: "tkt_1", attributes, relationships: RELATIONSHIPS }) as never, RESOLVERS, {
          onIssue: (issue) => issues.push(issue),
        }),
      ).rejects.toThrow(
        new RegExp(`item 1 is a record whose attributes is ${Array.isArray(attributes) ? "a list" : "an? \\w+"}, not an object`),
      );
      expect(issues).toHaveLength(1);
    },
  );

  it("refuses a record whose relationships is not an object, on a page and alone", async () => {
    await expect(
      projectSearchTickets(page({ type: "ticket", id: "tkt_1", attributes: ATTRIBUTES, relationships: ["assignee"] }) as never, RESOLVERS),
    ).rejects.toThrow(/item 1 is a record whose relationships is a list, not an object/);
    await expect(
      projectGetTicket({ data: { type: "ticket", id: "tkt_1", attributes: ATTRIBUTES, relationships: "x" } } as never, RESOLVERS),
    ).rejects.toThrow(/data is a record whose relationships is .+, not an object/);
  });

  it("reads the fields of attributes null or absent as the API's nulls, a missing value reported", () => {
    for (const sections of [{ attributes: null }, {}]) {
      const { ticket, issues } = projected({ ...sections, relationships: RELATIONSHIPS });
      expect(ticket).toMatchObject({ subject: null, status: null, opened: null, sla_due: null, assignee: "Dana" });
      expect(issues.filter((issue) => issue.kind === "missing").map((issue) => issue.field)).toEqual([
        "subject",
        "status_code",
        "priority",
        "created_at",
        "updated_at",
      ]);
    }
  });
});
