// The epoch rule of `format: date | datetime`, at its edges: seconds below 100,000,000,000,
// milliseconds from there on, numeric text of nine digits or more, and nothing out of range.
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
    ["1663600000.5", "2022-09-19T15:06Z"],
    [99_999_999_999, "5138-11-16T09:46Z"], // the last second read as seconds
    [100_000_000_000, "1973-03-03T09:46Z"], // the first value read as milliseconds
    [0, "1970-01-01T00:00Z"],
    [-86_400, "1969-12-31T00:00Z"],
  ])("reads %j as %s", (value, expected) => {
    expect(datetime(value, ctx, "at", false)).toBe(expected);
    expect(date(value, ctx, "at", false)).toBe(expected.slice(0, 10));
  });

  it.each([["20260211"], [9e16], [Number.NaN], [Number.POSITIVE_INFINITY], ["1e12"], [" 1663597223"], [true], [{ seconds: 1663597223 }]])(
    "marks %j as unusable, and reports it",
    (value) => {
      issues.length = 0;
      expect(datetime(value, ctx, "at", false)).toMatchObject({ unusable: expect.stringContaining("not a date-time") });
      expect(date(value, ctx, "at", false)).toMatchObject({ unusable: expect.stringContaining("not a date") });
      expect(issues).toHaveLength(2);
    },
  );

  it("keeps null and absence as null", () => {
    expect(datetime(null, ctx, "at", false)).toBeNull();
    expect(date(undefined, ctx, "at", false)).toBeNull();
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
    expect(datetime("2026-02-11T23:30:00-02:00", ctx, "at", false)).toBe("2026-02-12T01:30Z");
    expect(date("2026-02-11T23:30:00-02:00", ctx, "at", false)).toBe("2026-02-12");
    expect(date("2026-02-30", ctx, "at", false)).toEqual({ unusable: 'not a date: "2026-02-30"' });
  });
});
