// `format: money`: an integer amount in minor units, with its currency's decimals and code.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { currencyDecimals, money } from "../../templates/runtime/money.js";
import { generateFrom, ROOT, tempDir } from "../helpers/pipeline.js";
import { fieldProblems } from "./field-problems.js";

const issues: ProjectionIssue[] = [];
const ctx = context("payment", { onIssue: (issue) => issues.push(issue) });
const read = (amount: unknown, currency: unknown) => money(amount, { currency, field: "amount", required: true, ctx });

describe("the money reader", () => {
  it.each([
    [1234, "USD", "12.34 USD"],
    [1234, "JPY", "1234 JPY"],
    [1234, "KWD", "1.234 KWD"],
    [5, "USD", "0.05 USD"],
    [-5, "KWD", "-0.005 KWD"],
    [0, "EUR", "0.00 EUR"],
  ])("writes %j %s as %j", (amount, currency, written) => {
    expect(read(amount, currency)).toBe(written);
  });

  it("takes each currency's decimals from ISO 4217", () => {
    expect([currencyDecimals("USD"), currencyDecimals("JPY"), currencyDecimals("KWD"), currencyDecimals("BHD")]).toEqual([2, 0, 3, 3]);
    expect([currencyDecimals("XYZ"), currencyDecimals("usd"), currencyDecimals(840)]).toEqual([undefined, undefined, undefined]);
  });

  it("marks an amount no integer, and a currency missing or unknown, unusable with an issue", () => {
    issues.length = 0;
    expect(read(12.5, "USD")).toEqual({ unusable: "expected an integer amount in minor units, got 12.5" });
    expect(read("1234", "USD")).toEqual({ unusable: "expected an integer amount in minor units, got string" });
    expect(read(2 ** 60, "USD")).toEqual({ unusable: "an integer past 2^53 cannot be shown exactly" });
    expect(read(1234, null)).toEqual({ unusable: "no currency beside the amount" });
    expect(read(1234, "XYZ")).toEqual({ unusable: 'not an ISO 4217 currency code: "XYZ"' });
    expect(read(1234, { code: "USD" })).toEqual({ unusable: "not an ISO 4217 currency code: object" });
    expect(issues.map((issue) => [issue.kind, issue.field])).toEqual(Array(6).fill(["unusable", "amount"]));
  });

  it("reads an absent amount as null, reported as missing where the spec promises one", () => {
    issues.length = 0;
    expect(read(undefined, "USD")).toBeNull();
    expect(money(null, { currency: "USD", field: "fee", required: false, ctx })).toBeNull();
    expect(issues.map((issue) => [issue.kind, issue.field])).toEqual([["missing", "amount"]]);
  });
});

describe("the money rule in an annotation", () => {
  it("needs its currency, and takes `currency` only with `format: money`", () => {
    expect(fieldProblems("      a: { format: money }\n").map((d) => d.message)).toEqual(["`format: money` needs its `currency`"]);
    expect(fieldProblems("      a: { format: date, currency: USD }\n").map((d) => d.message)).toEqual([
      "`currency` goes with `format: money`",
    ]);
    expect(fieldProblems("      a: { format: money, currency: USD }\n      b: { format: money, currency: price.currency }\n")).toEqual([]);
  });

  it("is refused where the amount is no integer, the code unknown, or the path names nothing beside it", async () => {
    const dir = tempDir();
    const fields = {
      amount: "{ format: money, currency: price.currency }",
      currency: '{ drop: "written with the amount" }',
      fee: "{ format: money, currency: XYZ }",
      description: "{ format: money, currency: USD }",
    };
    writeFileSync(
      join(dir, "projector.yaml"),
      [
        `spec: ${join(ROOT, "specs/scenarios/money/openapi.yaml")}`,
        "output: out",
        "resources:",
        "  payment:",
        "    schema: Payment",
        "    fields:",
        ...Object.entries(fields).map(([name, rule]) => `      ${name}: ${rule}`),
      ].join("\n"),
    );
    const { problems } = await generateFrom(join(dir, "projector.yaml"));
    expect(problems.map((d) => [d.code, d.message])).toEqual([
      ["PRJ029", "payment.amount: the spec declares no `price.currency` beside this amount"],
      ["PRJ029", "payment.fee: XYZ is not an ISO 4217 currency code"],
      ["PRJ029", "payment.description: format money applies to integer amounts in minor units, not string"],
    ]);
  });
});
