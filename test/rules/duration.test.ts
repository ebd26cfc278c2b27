// `format: duration`: a number of seconds or milliseconds, in days, hours, minutes and seconds.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { duration } from "../../templates/runtime/duration.js";
import { generateFrom, ROOT, tempDir } from "../helpers/pipeline.js";
import { fieldProblems } from "./field-problems.js";

const issues: ProjectionIssue[] = [];
const ctx = context("track", { onIssue: (issue) => issues.push(issue) });
const read = (value: unknown, unit: "seconds" | "milliseconds" = "seconds") =>
  duration(value, { unit, field: "length", required: true, ctx });

describe("the duration reader", () => {
  it.each([
    [3725, "seconds", "1h 2m 5s"],
    [0, "seconds", "0s"],
    [90061, "seconds", "1d 1h 1m 1s"],
    [3600, "seconds", "1h"],
    [86_405, "seconds", "1d 5s"],
    [59.99, "seconds", "59s"],
    [215000, "milliseconds", "3m 35s"],
    [999, "milliseconds", "0s"],
    [3_725_999, "milliseconds", "1h 2m 5s"],
  ] as const)("writes %j %s as %j", (value, unit, written) => {
    expect(read(value, unit)).toBe(written);
  });

  it("marks a negative, non-finite, oversized or non-number value unusable with an issue", () => {
    issues.length = 0;
    expect(read(-1)).toEqual({ unusable: "expected a number of seconds from 0 to 2^53 - 1, got -1" });
    expect(read(Number.NaN)).toEqual({ unusable: "expected a number of seconds from 0 to 2^53 - 1, got NaN" });
    expect(read(Number.POSITIVE_INFINITY, "milliseconds")).toEqual({
      unusable: "expected a number of milliseconds from 0 to 2^53 - 1, got Infinity",
    });
    // A number this large is an integer the parse has rounded: never quoted as read.
    expect(read(1e300)).toEqual({ unusable: "an integer past 2^53 cannot be shown exactly" });
    expect(read(2 ** 53 + 2)).toEqual({ unusable: "an integer past 2^53 cannot be shown exactly" });
    expect(read("215000")).toEqual({ unusable: "expected a number of seconds from 0 to 2^53 - 1, got string" });
    expect(read({ seconds: 5 })).toEqual({ unusable: "expected a number of seconds from 0 to 2^53 - 1, got object" });
    expect(issues.map((issue) => [issue.kind, issue.field])).toEqual(Array(7).fill(["unusable", "length"]));
  });

  it("reads an absent value as null, reported as missing where the spec promises one", () => {
    issues.length = 0;
    expect(read(undefined)).toBeNull();
    expect(duration(null, { unit: "seconds", field: "intro", required: false, ctx })).toBeNull();
    expect(issues.map((issue) => [issue.kind, issue.field])).toEqual([["missing", "length"]]);
  });
});

describe("the duration rule in an annotation", () => {
  it("takes `unit: seconds` or `milliseconds`, seconds by default, and `unit` only with `format: duration`", () => {
    expect(fieldProblems("      a: { format: duration }\n      b: { format: duration, unit: milliseconds }\n")).toEqual([]);
    expect(fieldProblems("      a: { format: duration, unit: minutes }\n").map((d) => [d.code, d.message, d.help])).toEqual([
      ["PRJ002", 'unknown unit "minutes"', "write `unit: seconds` or `unit: milliseconds`"],
    ]);
    expect(fieldProblems("      a: { format: duration, unit: milisecond }\n").map((d) => d.message)).toEqual([
      'unknown unit "milisecond" (did you mean "milliseconds"?)',
    ]);
    expect(fieldProblems("      a: { format: date, unit: seconds }\n").map((d) => d.message)).toEqual([
      "`unit` goes with `format: duration`",
    ]);
  });

  it("is refused where the spec declares the value anything but a number", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "projector.yaml"),
      [
        `spec: ${join(ROOT, "specs/scenarios/duration/openapi.yaml")}`,
        "output: out",
        "resources:",
        "  track:",
        "    schema: Track",
        "    fields:",
        "      name: { format: duration }",
        "      duration_ms: { format: duration, unit: milliseconds }",
        "      intro_seconds: { format: duration }",
      ].join("\n"),
    );
    const { problems } = await generateFrom(join(dir, "projector.yaml"));
    expect(problems.map((d) => [d.code, d.message])).toEqual([
      ["PRJ029", "track.name: format duration applies to numbers of seconds or milliseconds, not string"],
    ]);
  });
});
