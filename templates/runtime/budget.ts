// Token budgets: how many whole records of a result fit.

import { serializeToolResult } from "./table-text.js";

/** `false`, or how many whole records a budget let through out of how many the response had. */
export type Truncated =
  false | { readonly shown: number; readonly total: number };

/**
 * Half the UTF-8 byte length: an over-estimate for JSON under o200k_base and cl100k_base, which
 * run near one token per 2.5 to 4 bytes, so a result that fits by this count fits by theirs.
 * Pass a real tokenizer's count as `countTokens` to use the budget fully.
 */
export function conservativeTokenCount(text: string): number {
  return Math.ceil(new TextEncoder().encode(text).length / 2);
}

/** A tool's budget, as its annotation gives it: at most `rows` records and `tokens` tokens in a result. */
export interface ToolBudget {
  rows?: number;
  tokens?: number;
}

/** How {@link fitBudget} counts: a tokenizer (`conservativeTokenCount` if none), and how many records the response had. */
export interface BudgetCount {
  countTokens?: ((text: string) => number) | undefined;
  total?: number;
}

/**
 * Keeps the most whole records that fit the token budget, and says so when it had to cut. `total`
 * is how many records the response had, when a row budget already took some off before projecting.
 */
export function fitBudget<R, T>(
  records: readonly R[],
  budget: ToolBudget & BudgetCount,
  build: (records: R[], truncated: Truncated) => T,
): T {
  const {
    tokens,
    countTokens = conservativeTokenCount,
    total = records.length,
  } = budget;
  const attempt = (n: number) =>
    build(records.slice(0, n), n < total ? { shown: n, total } : false);
  const fits = (n: number) =>
    tokens === undefined ||
    countTokens(serializeToolResult(attempt(n))) <= tokens;
  let high = records.length;
  if (fits(high)) return attempt(high);
  let low = 0;
  while (low < high - 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return attempt(low);
}
