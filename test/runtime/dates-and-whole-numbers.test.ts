// A date is read from text that states its instant (ISO 8601 with a zone, or an ISO date-time read
// as UTC), never in the host's time zone; and a value kept whole never shows a number that overflowed
// as `null`. The date cases run under several zones in this process, so that one that leans on the
// host's zone gives two answers; the zone is restored afterwards, since workers share the process.
import { afterAll, describe, expect, it } from "vitest";
import { context } from "../../templates/runtime/context.js";
import { date, datetime } from "../../templates/runtime/dates.js";
import { whole } from "../../templates/runtime/values.js";

const issues: string[] = [];
const ctx = context("item", { onIssue: (issue) => issues.push(issue.message) });
const read = { field: "created", required: false, ctx };

const ZONES = ["UTC", "America/New_York", "Asia/Kolkata"];
const hostZone = process.env.TZ;

afterAll(() => {
  if (hostZone === undefined) delete process.env.TZ;
  else process.env.TZ = hostZone;
});

/** What `reader` gives in each of {@link ZONES}, checking that the zones really differ. */
function underEachZone<T>(reader: () => T): T[] {
  const offsets = new Set<number>();
  const answers = ZONES.map((zone) => {
    process.env.TZ = zone;
    offsets.add(new Date(2026, 0, 2).getTimezoneOffset());
    return reader();
  });
  expect(offsets.size).toBe(ZONES.length);
  return answers;
}

describe("a date-time read from text", () => {
  it.each([
    ["2026-01-02T03:04:05Z", "2026-01-02T03:04Z"],
    ["2026-01-02T03:04:05", "2026-01-02T03:04Z"],
    ["2026-01-02T03:04", "2026-01-02T03:04Z"],
    ["2026-01-02T03:04:05.1234567Z", "2026-01-02T03:04Z"],
    ["2026-01-02t03:04:05z", "2026-01-02T03:04Z"],
    ["2026-01-02T03:04:05+05:30", "2026-01-01T21:34Z"],
    ["2026-01-02T03:04:05-0800", "2026-01-02T11:04Z"],
    ["2026-01-02 03:04Z", "2026-01-02T03:04Z"],
    ["2026-01-02 03:04:05-05:00", "2026-01-02T08:04Z"],
    ["2026-12-31T23:59:60Z", "2026-12-31T23:59Z"],
    ["2016-12-31T23:59:60.5Z", "2016-12-31T23:59Z"],
    ["2015-06-30T19:59:60-04:00", "2015-06-30T23:59Z"],
    ["2026-01-02", "2026-01-02T00:00Z"],
    ["0099-03-01T12:00Z", "0099-03-01T12:00Z"],
  ])("reads %j as %s in every zone", (text, expected) => {
    expect(underEachZone(() => datetime(text, read))).toEqual(ZONES.map(() => expected));
  });

  it.each([
    "2026-01-02 03:04",
    "2026-01-02 03:04:05",
    "2026-01-02 ",
    " 2026-01-02",
    "2026-01-02 03:04 PST",
    "2026-01-02T03:04:05 GMT",
    "2026-01-02T03:04:05+25:00",
    "2026-01-02T24:00Z",
    "2026-01-02T3:04Z",
    "2026-02-30T03:04Z",
    "2026/01/02",
    "2026-1-2",
    "Fri, 02 Jan 2026 03:04:05 GMT",
    "+002026-01-02",
    "2026-01-01T00:00:60Z",
    "2026-06-15T23:59:60Z",
    "2026-06-30T23:58:60Z",
    "2026-06-30T23:59:60+01:00",
  ])("marks %j unusable in every zone: its zone is not stated, it is no ISO text, or its leap second is not a month's last", (text) => {
    issues.length = 0;
    const marker = { unusable: `not a date-time: ${JSON.stringify(text)}` };
    expect(underEachZone(() => datetime(text, read))).toEqual(ZONES.map(() => marker));
    expect(issues).toHaveLength(ZONES.length);
  });

  it("reads a date from a stated zone's text, and refuses a local timestamp", () => {
    expect(underEachZone(() => date("2026-01-02 23:30-02:00", read))).toEqual(ZONES.map(() => "2026-01-03"));
    expect(underEachZone(() => date("2026-01-02 23:30", read))).toEqual(ZONES.map(() => ({ unusable: 'not a date: "2026-01-02 23:30"' })));
  });
});

describe("epoch digits sent as text", () => {
  it.each(["0123456789", "-0123456789", "00000000001"])("refuses %j, which has a leading zero", (text) => {
    expect(datetime(text, read)).toEqual({ unusable: `not a date-time: ${JSON.stringify(text)}` });
    expect(date(text, read)).toEqual({ unusable: `not a date: ${JSON.stringify(text)}` });
  });

  it("still reads digits that start with another digit", () => {
    expect(datetime("1234567890", read)).toBe("2009-02-13T23:31Z");
  });
});

describe("a number that overflowed inside a value kept whole", () => {
  const keep = (json: string, schema = {}) => whole(JSON.parse(json).extra, { schema, field: "extra", required: false, ctx });

  it.each([
    ['{"extra": {"n": 1e400}}', "Infinity"],
    ['{"extra": [1, -1e400]}', "-Infinity"],
    ['{"extra": {"deep": {"er": [{"n": 1e999}]}}}', "Infinity"],
    ['{"extra": 1e400}', "Infinity"],
  ])("makes %s unusable rather than show it as null", (json, shown) => {
    issues.length = 0;
    expect(keep(json)).toEqual({ unusable: `expected a number, got ${shown}` });
    expect(issues).toHaveLength(1);
  });

  it("makes an untyped member of a declared object unusable, naming the member", () => {
    const schema = { type: "object" as const, properties: { meta: {} } };
    expect(keep('{"extra": {"meta": {"n": 1e400}}}', schema)).toEqual({
      unusable: "meta: expected a number, got Infinity",
    });
  });

  it("keeps finite numbers, however large, as they are", () => {
    expect(keep('{"extra": {"n": 1.7976931348623157e308, "m": [-5e-324]}}')).toEqual({
      n: 1.7976931348623157e308,
      m: [-5e-324],
    });
  });
});
