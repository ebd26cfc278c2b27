// The epoch rule of `format: date | datetime`, at its edges: seconds below 100,000,000,000,
// milliseconds from there on, numeric text of nine digits or more, and nothing out of range.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { context } from "../../templates/runtime/context.js";
import { date, datetime, isUtcIso } from "../../templates/runtime/dates.js";

const issues: string[] = [];
const ctx = context("event", { onIssue: (issue) => issues.push(issue.message) });

describe("epoch timestamps", () => {
  it.each([
    [1663597223, "2022-09-19T14:20Z"],
    [1663597223456, "2022-09-19T14:20Z"],
    ["1663597223", "2022-09-19T14:20Z"],
    ["1663597223456", "2022-09-19T14:20Z"],
    [99_999_999_999, "5138-11-16T09:46Z"], // the last second read as seconds
    [100_000_000_000, "1973-03-03T09:46Z"], // the first value read as milliseconds
    [0, "1970-01-01T00:00Z"],
    [-86_400, "1969-12-31T00:00Z"],
  ])("reads %j as %s", (value, expected) => {
    expect(datetime(value, { field: "at", required: false, ctx })).toBe(expected);
    expect(date(value, { field: "at", required: false, ctx })).toBe(expected.slice(0, 10));
  });

  it.each([
    ["20260211"],
    [1.5],
    [99_999_999_999.9],
    [9e16],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    ["1e12"],
    [" 1663597223"],
    [true],
    [{ seconds: 1663597223 }],
  ])("marks %j as unusable, and reports it", (value) => {
    issues.length = 0;
    expect(datetime(value, { field: "at", required: false, ctx })).toMatchObject({
      unusable: expect.stringContaining("not a date-time"),
    });
    expect(date(value, { field: "at", required: false, ctx })).toMatchObject({ unusable: expect.stringContaining("not a date") });
    expect(issues).toHaveLength(2);
  });

  it("keeps null and absence as null", () => {
    expect(datetime(null, { field: "at", required: false, ctx })).toBeNull();
    expect(date(undefined, { field: "at", required: false, ctx })).toBeNull();
  });
});

describe("UTC ISO text", () => {
  it.each([
    ["2026-02-11", true],
    ["2024-02-29", true],
    ["2100-02-29", false],
    ["2026-02-30", false],
    ["2026-13-01", false],
    ["2026-02-11T09:14Z", true],
    ["2026-02-11T09:14:22Z", true],
    ["2026-02-11T09:14:22.481Z", true],
    ["2026-02-11T24:00Z", false],
    ["2026-02-11T09:14:22+01:00", false],
    ["2026-02-11T09:14:22.Z", false],
  ])("%s is one: %s", (text, expected) => {
    expect(isUtcIso(text)).toBe(expected);
  });

  it("reads a date-time with an offset in UTC", () => {
    expect(datetime("2026-02-11T23:30:00-02:00", { field: "at", required: false, ctx })).toBe("2026-02-12T01:30Z");
    expect(date("2026-02-11T23:30:00-02:00", { field: "at", required: false, ctx })).toBe("2026-02-12");
    expect(date("2026-02-30", { field: "at", required: false, ctx })).toEqual({ unusable: 'not a date: "2026-02-30"' });
  });
});

describe("the text of recent days and minutes, shared between records", () => {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  // Few distinct years, days and minutes, so that values repeat and land on each other's slots.
  const isoText = fc
    .tuple(
      fc.constantFrom(1999, 2000, 2024, 2026),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 28 }),
      fc.integer({ min: 0, max: 23 }),
      fc.constantFrom(0, 1, 16, 59),
      fc.constantFrom("", ":07", ":07.113", ":59.5"),
      fc.boolean(),
    )
    .map(([year, month, day, hour, minute, rest, dateOnly]) => {
      const day10 = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
      return dateOnly ? day10 : `${day10}T${pad(hour)}:${pad(minute)}${rest}Z`;
    });

  it("cuts every value as a Date would read it, whatever came before", () => {
    fc.assert(
      fc.property(fc.array(isoText, { minLength: 1, maxLength: 40 }), (values) => {
        for (const value of values) {
          const read = new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toISOString();
          expect(date(value, { field: "at", required: true, ctx })).toBe(read.slice(0, 10));
          if (value.length > 10) expect(datetime(value, { field: "at", required: true, ctx })).toBe(`${read.slice(0, 16)}Z`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("hands out one text for one day and one minute, and never a neighbour's", () => {
    const first = date("2026-02-11T09:14:22.481Z", { field: "at", required: true, ctx });
    expect(date("2026-02-14T16:02:07.113Z", { field: "at", required: true, ctx })).toBe("2026-02-14");
    expect(date("2026-02-11T23:59:59Z", { field: "at", required: true, ctx })).toBe(first);
    expect(datetime("2026-02-11T09:14:59Z", { field: "at", required: true, ctx })).toBe("2026-02-11T09:14Z");
    expect(datetime("2026-02-11T09:15:00Z", { field: "at", required: true, ctx })).toBe("2026-02-11T09:15Z");
    // 2026-02-27 and 2026-03-11 are 16 day numbers apart in the key, and fall in one slot.
    expect(date("2026-03-11", { field: "at", required: true, ctx })).toBe("2026-03-11");
    expect(date("2026-02-27", { field: "at", required: true, ctx })).toBe("2026-02-27");
    expect(date("2026-03-11", { field: "at", required: true, ctx })).toBe("2026-03-11");
  });
});
