// `shorten` cuts any long opaque string id, not only prefix + UUID: kept apart within a result, and sent back whole.
import { describe, expect, it, vi } from "vitest";
import type { ToolCall } from "../../templates/runtime/call-tool.js";
import { matchesShortId, mayBeShortForm, shortenIds, shortId } from "../../templates/runtime/short-ids.js";

const STRIPE = "ch_3KpXb2Lkd9cQ2Tfa1B5e7LmN";
const STRIPE_SAME_START = "ch_3KpXb2LkdIwHu7ix0snN0B15";
const TWILIO = "SM0123456789abcdef0123456789abcdef";
const TWILIO_SAME_START = "SM01234567ffffffff0123456789abcdef";
const SNOWFLAKE = "175928847299117063";
const SNOWFLAKE_SAME_START = "175928847298765432";

/**
 * A fresh copy of the runtime with its id book in use: the test files of a worker share one module
 * graph, and the book is the id-book module's own state.
 */
async function freshRuntime() {
  vi.resetModules();
  const book = await import("../../templates/runtime/id-book.js");
  const { callTool } = await import("../../templates/runtime/call-tool.js");
  const { context } = await import("../../templates/runtime/context.js");
  const { withDistinctShortIds } = await import("../../templates/runtime/distinct-short-ids.js");
  const ids = await import("../../templates/runtime/ids.js");
  book.useIdBook();
  /** A tool's result: its short ids kept apart, as every generated tool keeps them. */
  const result = (given: string[]) =>
    withDistinctShortIds({ options: {}, expectedIds: given.length }, (options) =>
      given.map((id) => ids.short(id, context("charge", options), "id")),
    );
  const sent: unknown[] = [];
  const found = { data: { ok: 1 }, response: { status: 200, ok: true } };
  const api = (answer: object) => ({
    GET: async (_: string, init: { params: unknown }) => {
      sent.push(init.params);
      return answer;
    },
  });
  const getCharge = (charge_id: string, answer: object = found) =>
    callTool(api(answer), "get_charge", GET_CHARGE, CHARGE_SCHEMA, { charge_id }, async (data) => data);
  return { ...book, ...ids, result, getCharge, sent };
}

const GET_CHARGE: ToolCall = {
  method: "get",
  path: "/v1/charges/{charge_id}",
  parameters: [{ name: "charge_id", in: "path", argument: "charge_id", shortIds: ["charge.id"] }],
};
const CHARGE_SCHEMA = { type: "object", properties: { charge_id: { type: "string" } }, required: ["charge_id"] };
const sentTo = (charge_id: string) => ({ path: { charge_id }, query: {} });

describe("a long opaque id", () => {
  it.each([
    ["a Stripe id: its prefix and 8 characters", STRIPE, "ch_3KpXb2Lk"],
    ["a Stripe id with a two-part prefix", "cs_test_a1B2c3D4e5F6g7H8i9J0kLmN", "cs_test_a1B2c3D4"],
    ["a Twilio SID: 10 characters, its SM and 8 hex digits", TWILIO, "SM01234567"],
    ["a snowflake: its first 10 digits", SNOWFLAKE, "1759288472"],
    ["a path-like id", "gid://shopify/Product/10079785100123456", "gid://shopify/Product/10079785"],
  ])("shortens %s", (_, id, short) => {
    expect(shortId(id)).toBe(short);
    expect(matchesShortId(id, short)).toBe(true);
    expect(matchesShortId(id, short.slice(0, -1))).toBe(false);
  });

  it.each([
    ["too short to gain 6 characters", "cus_NffrFeUfNV"],
    ["a short id", "usr_123"],
    ["a date-like name", "2026-02-11-report"],
    ["text with a space", "Northwind Foods Company Ltd"],
    ["text beyond ASCII", "ticket_ÄÖÜäöüßÄÖÜäöüß"],
  ])("stays whole when %s", (_, id) => {
    expect(shortId(id)).toBe(id);
  });

  it.each([
    ["tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "tkt_9f3a71c4"],
    ["9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "9f3a71c4"],
    ["orgs/9F3A71C4-2D18-4B6E-9C05-8AB3F2E17D90", "orgs/9F3A71C4"],
    ["ch_3KpX/9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "ch_3KpX/9f3a71c4"],
  ])("holding a UUID is cut at the UUID's eighth digit, as before: %s", (id, short) => {
    expect(shortId(id)).toBe(short);
  });

  it.each([
    ["Stripe", STRIPE, STRIPE_SAME_START, ["ch_3KpXb2Lkd9", "ch_3KpXb2LkdI"]],
    ["Twilio", TWILIO, TWILIO_SAME_START, ["SM012345678", "SM01234567f"]],
    ["snowflake", SNOWFLAKE, SNOWFLAKE_SAME_START, ["175928847299", "175928847298"]],
  ])("is lengthened just enough where two %s ids of one result share a short form", async (_, a, b, forms) => {
    expect(shortId(a)).toBe(shortId(b));
    expect(shortenIds([a, b])).toEqual(new Map([a, b].map((id, i) => [id, forms[i]!])));
    const runtime = await freshRuntime();
    expect(runtime.result([a, b, a])).toEqual([forms[0], forms[1], forms[0]]);
  });

  it.each([
    ["Stripe", STRIPE, STRIPE_SAME_START],
    ["Twilio", TWILIO, TWILIO_SAME_START],
    ["snowflake", SNOWFLAKE, SNOWFLAKE_SAME_START],
  ])("goes back to the API whole: a %s id's short form, plain and lengthened, through the id book", async (_, a, b) => {
    const runtime = await freshRuntime();
    const [plain] = runtime.result([a]);
    await runtime.getCharge(plain!);
    const [first, second] = runtime.result([a, b]);
    await runtime.getCharge(first!);
    await runtime.getCharge(second!);
    expect(runtime.sent).toEqual([sentTo(a), sentTo(a), sentTo(b)]);
  });

  it("whose short form is another record's whole id is ambiguous whichever the model saw first", async () => {
    const whole = "ch_3KpXb2Lk";
    for (const order of [
      [whole, STRIPE],
      [STRIPE, whole],
    ]) {
      const runtime = await freshRuntime();
      expect(order.map((id) => runtime.result([id])[0])).toEqual([whole, whole]);
      expect(await runtime.getCharge(whole)).toMatchObject({ error: expect.stringContaining(`charge_id "${whole}" is ambiguous`) });
      expect(runtime.sent).toEqual([]);
    }
  });

  it("tells which whole ids may be another id's short form, so the id book keeps them", () => {
    for (const form of ["ch_3KpXb2Lk", "SM01234567", "1759288472", "ch_3KpXb2Lkd9", "tkt_9f3a71c4"])
      expect(mayBeShortForm(form)).toBe(true);
    for (const whole of ["ch_3KpXb2L", "usr_123", "SM0123456", "2026-02-11", "Café au lait x"]) expect(mayBeShortForm(whole)).toBe(false);
  });

  it("that the id book forgot gets the note on how to find it again when the API answers 404", async () => {
    const runtime = await freshRuntime();
    expect(await runtime.getCharge("ch_3KpXb2Lk", { error: { message: "No such charge" }, response: { status: 404, ok: false } })).toEqual({
      error:
        'get_charge: the API answered 404: No such charge; no record has the id "ch_3KpXb2Lk"; if a result gave it, the full id it stands for is no longer remembered; run the tool that listed it again and pass the id it gives now',
    });
  });
});

describe("an integer id", () => {
  it("is never shortened, however long", async () => {
    const runtime = await freshRuntime();
    const { context } = await import("../../templates/runtime/context.js");
    const ctx = context("message", {});
    expect(runtime.shortTextOrNumberId(1759288472991170, { field: "id", required: true, ctx })).toBe("1759288472991170");
    expect(runtime.integerId(1759288472991170, { field: "id", required: true, ctx })).toBe(1759288472991170);
  });
});
