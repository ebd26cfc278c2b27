// The id book refuses a text that stands for two ids whichever came first, and holds a bounded number of characters.
import { describe, expect, it, vi } from "vitest";
import type { ToolCall } from "../../templates/runtime/call-tool.js";

/**
 * A fresh copy of the runtime, its id book in use unless told otherwise: the test files of a worker
 * share one module graph, and the book is the id-book module's own state.
 */
async function freshRuntime({ inUse = true } = {}) {
  vi.resetModules();
  const book = await import("../../templates/runtime/id-book.js");
  const { callTool } = await import("../../templates/runtime/call-tool.js");
  const { context } = await import("../../templates/runtime/context.js");
  const { withDistinctShortIds } = await import("../../templates/runtime/distinct-short-ids.js");
  const { short } = await import("../../templates/runtime/ids.js");
  if (inUse) book.useIdBook();
  /** A tool's result: its short ids kept apart, as every generated tool keeps them. */
  const result = (ids: string[]) =>
    withDistinctShortIds({ options: {}, expectedIds: ids.length }, (options) =>
      ids.map((id) => short(id, context("ticket", options), "id")),
    );
  /** A record projected on its own, as by a `projectX` function called directly: nothing keeps its ids apart. */
  const record = (ids: string[]) => ids.map((id) => short(id, context("ticket", {}), "id"));
  const sent: unknown[] = [];
  const api = {
    GET: async (_: string, init: { params: unknown }) => {
      sent.push(init.params);
      return { data: { ok: 1 }, response: { status: 200, ok: true } };
    },
  };
  const getTicket = (ticket_id: string) => callTool(api, "get_ticket", GET_TICKET, TICKET_SCHEMA, { ticket_id }, async (data) => data);
  return { ...book, result, record, getTicket, sent };
}

const GET_TICKET: ToolCall = {
  method: "get",
  path: "/v1/tickets/{ticket_id}",
  parameters: [{ name: "ticket_id", in: "path", argument: "ticket_id", shortIds: ["ticket.id"] }],
};
/** The kind of the ids the tests hand out, as `short` reads them from field `id` of resource `ticket`. */
const KIND = "ticket.id";
const KINDS = [KIND];
const TICKET_SCHEMA = { type: "object", properties: { ticket_id: { type: "string" } }, required: ["ticket_id"] };

const WHOLE = "tkt_9f3a71c4";
const CUT = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
/** The form that tells CUT apart from WHOLE. */
const CUT_LONGER = "tkt_9f3a71c4-2";

const sentTo = (ticket_id: string) => ({ path: { ticket_id }, query: {} });

describe("a text shown as one record's whole id and as another record's short id", () => {
  it.each([
    ["the whole id first, in two results", "results", [WHOLE, CUT]],
    ["the short id first, in two results", "results", [CUT, WHOLE]],
    ["the whole id first, in one record projected on its own", "record", [WHOLE, CUT]],
    ["the short id first, in one record projected on its own", "record", [CUT, WHOLE]],
  ] as const)("is ambiguous, %s, and each record has a form of its own after", async (_, shownIn, ids) => {
    const book = await freshRuntime();
    if (shownIn === "results") expect(ids.map((id) => book.result([id])[0])).toEqual([WHOLE, WHOLE]);
    else expect(book.record([...ids])).toEqual([WHOLE, WHOLE]);
    expect(book.fullId(WHOLE, KINDS)).toEqual({ ambiguous: WHOLE });
    const forms = ids.map((id) => (id === CUT ? CUT_LONGER : WHOLE));
    expect(book.longerForms(WHOLE, KINDS)).toEqual(forms);
    expect(book.fullId(WHOLE, KINDS)).toBe(WHOLE);
    expect(book.fullId(CUT_LONGER, KINDS)).toBe(CUT);
  });

  it.each([
    ["the whole id first", [WHOLE, CUT]],
    ["the short id first", [CUT, WHOLE]],
  ])("is refused by a tool call, %s, with both forms; then each form fetches its own record", async (_, ids) => {
    const book = await freshRuntime();
    for (const id of ids) book.result([id]);
    expect(await book.getTicket(WHOLE)).toEqual({
      error: `get_ticket: ticket_id "${WHOLE}" is ambiguous: it is one record's whole id, and was shown as the short form of another's; pass it again for the record whose whole id it is, or the longer id of the one you mean: "${CUT_LONGER}"`,
    });
    expect(book.sent).toEqual([]);
    await book.getTicket(WHOLE);
    await book.getTicket(CUT_LONGER);
    expect(book.sent).toEqual([sentTo(WHOLE), sentTo(CUT)]);
  });

  it.each([
    ["the whole id first", [WHOLE, CUT]],
    ["the short id first", [CUT, WHOLE]],
  ])("is no short id at all in one tool result, which tells the two apart: %s", async (_, ids) => {
    const book = await freshRuntime();
    expect(book.result(ids)).toEqual(ids.map((id) => (id === CUT ? CUT_LONGER : WHOLE)));
    await book.getTicket(WHOLE);
    await book.getTicket(CUT_LONGER);
    expect(book.sent).toEqual([sentTo(WHOLE), sentTo(CUT)]);
  });

  it("is ambiguous again when a later result shows the other record's short id once more", async () => {
    const book = await freshRuntime();
    book.result([WHOLE]);
    book.result([CUT]);
    book.longerForms(WHOLE, KINDS);
    book.result([CUT]);
    expect(book.fullId(WHOLE, KINDS)).toEqual({ ambiguous: WHOLE });
  });

  it("leaves out whole ids that are no other id's short form, so a page of them evicts no short id", async () => {
    const book = await freshRuntime();
    book.result([CUT]);
    book.result(Array.from({ length: book.ID_BOOK_SIZE }, (_, i) => `usr_${i}`));
    expect(book.fullId(WHOLE, KINDS)).toBe(CUT);
  });
});

describe("the id book's characters", () => {
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  /** An id of 1,000 characters whose short form is 12, kept under a key of 23. */
  const longId = (n: number) => `tkt_${hex(n)}-2d18-4b6e-9c05-8ab3f2e17d90`.padEnd(1_000, "x");
  const shortOf = (n: number) => `tkt_${hex(n)}`;

  it("are bounded: the least recently used go first, however few the entries", async () => {
    const book = await freshRuntime();
    const fit = Math.floor(book.ID_BOOK_CHARACTERS / (book.idBookKey(KIND, shortOf(0)).length + 1_000));
    expect(fit).toBeLessThan(book.ID_BOOK_SIZE);
    for (let n = 0; n <= fit; n++) book.handOut(shortOf(n), longId(n), KIND);
    expect(book.fullId(shortOf(0), KINDS)).toBe(shortOf(0));
    expect(book.fullId(shortOf(1), KINDS)).toBe(longId(1));
    expect(book.fullId(shortOf(fit), KINDS)).toBe(longId(fit));
  });

  it("count each entry once, however often it is handed out, looked up, shared or told apart", async () => {
    const book = await freshRuntime();
    for (let round = 0; round < 50; round++) {
      book.result([CUT]);
      book.fullId(WHOLE, KINDS);
      book.result([WHOLE]);
      book.fullId(WHOLE, KINDS);
      book.longerForms(WHOLE, KINDS);
      book.result([CUT, WHOLE]);
    }
    // The entries above, the oldest, make room; the ids that fit the bound exactly all stay.
    const fit = Math.floor(book.ID_BOOK_CHARACTERS / (book.idBookKey(KIND, shortOf(0)).length + 1_000));
    for (let n = 0; n < fit; n++) book.handOut(shortOf(n), longId(n), KIND);
    expect(book.fullId(shortOf(0), KINDS)).toBe(longId(0));
  });

  it.each([true, false])(
    "show an id longer than ID_BOOK_LONGEST_ID whole, and remember nothing for it (book in use: %s)",
    async (inUse) => {
      const book = await freshRuntime({ inUse });
      const longest = `${CUT}-`.padEnd(book.ID_BOOK_LONGEST_ID, "x");
      const tooLong = `${longest}x`;
      expect(book.result([tooLong])).toEqual([tooLong]);
      expect(book.fullId(WHOLE, KINDS)).toBe(WHOLE);
      expect(book.result([longest])).toEqual([WHOLE]);
      expect(book.fullId(WHOLE, KINDS)).toBe(inUse ? longest : WHOLE);
    },
  );

  it("send an id shown whole for its length back as it is", async () => {
    const book = await freshRuntime();
    const tooLong = `${CUT}-`.padEnd(20_040, "x");
    const [shown] = book.result([tooLong]);
    await book.getTicket(shown!);
    expect(book.sent).toEqual([sentTo(tooLong)]);
  });
});
