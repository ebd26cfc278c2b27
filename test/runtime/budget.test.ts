// Token budgets keep the most whole records that fit, and say how many were cut.
import { describe, expect, it } from "vitest";
import { conservativeTokenCount, fitBudget, type Truncated } from "../../templates/runtime/budget.js";

const build = (records: number[], truncated: Truncated) => ({ records, truncated });
const byLength = (text: string) => text.length;

describe("budgets", () => {
  it("counts half the UTF-8 bytes, rounded up", () => {
    expect(conservativeTokenCount("abcd")).toBe(2);
    expect(conservativeTokenCount("abc")).toBe(2);
    expect(conservativeTokenCount("é")).toBe(1);
    expect(conservativeTokenCount("")).toBe(0);
  });

  it("keeps every record when there is no budget or all fit", () => {
    expect(fitBudget([1, 2, 3], { countTokens: byLength }, build)).toEqual({ records: [1, 2, 3], truncated: false });
    expect(fitBudget([1, 2, 3], { tokens: 1000, countTokens: byLength }, build)).toEqual({ records: [1, 2, 3], truncated: false });
  });

  it("keeps the most whole records that fit, out of the response's total", () => {
    // {"records":[1,2],"truncated":{"shown":2,"total":9}} is 51 characters; with three records, 53.
    expect(fitBudget([1, 2, 3], { tokens: 51, countTokens: byLength, total: 9 }, build)).toEqual({
      records: [1, 2],
      truncated: { shown: 2, total: 9 },
    });
    expect(fitBudget([1, 2, 3], { tokens: 10, countTokens: byLength }, build)).toEqual({ records: [], truncated: { shown: 0, total: 3 } });
  });
});
