// `format: money` with `currency:`: an integer amount in minor units, as the model reads it
// (`1234` with USD as `"12.34 USD"`). The runtime reader is templates/runtime/money.ts.

import type { Format } from "./types.js";

/** Where an amount's currency is: an ISO 4217 code written in the annotation, or the path of a value beside it. */
type Currency = { code: string } | { path: string[] };

const ISO_CODE = /^[A-Z]{3}$/;

/**
 * The ISO 4217 codes whose minor unit the standard gives as "N.A.", which an amount in minor units
 * cannot be counted in. The same list as the runtime's `NO_MINOR_UNIT` (templates/runtime/money.ts):
 * generate is built from src/ alone and the runtime is copied into the consumer's repo on its own,
 * so neither can import the other; a test holds the two lists equal.
 */
export const NO_MINOR_UNIT: ReadonlySet<string> = new Set([
  "XAG",
  "XAU",
  "XBA",
  "XBB",
  "XBC",
  "XBD",
  "XDR",
  "XPD",
  "XPT",
  "XSU",
  "XTS",
  "XUA",
  "XXX",
]);

/** Whether `code` is an ISO 4217 code, as the Intl data of the Node running generate knows them. */
const isCurrency = (code: string) => Intl.supportedValuesOf("currency").includes(code);

/** Why an amount cannot be in `code`, or undefined where it can. */
function currencyProblem(code: string): string | undefined {
  if (NO_MINOR_UNIT.has(code)) return `${code} has no minor unit in ISO 4217: its amounts cannot be counted in minor units`;
  return isCurrency(code) ? undefined : `${code} is not an ISO 4217 currency code`;
}

export const MONEY: Format<Currency> = {
  name: "money",
  keys: ["currency"],
  example: "`money` with `currency:` (1234 with USD: 12.34 USD)",
  docsRow: [
    "`{ format: money, currency: USD }` / `{ format: money, currency: PATH }`",
    "`1234` as `12.34 USD`: an integer amount in the currency's minor units, written with its decimals as the Unicode CLDR data in Node's `Intl` has them (JPY 0, USD 2, KWD 3); `currency` is an ISO 4217 code, or the path of a value beside the amount holding one. An amount that is no integer, and a currency missing, unknown or with no minor unit, are marked unusable",
  ],
  parse(rule, problem) {
    const currency = rule["currency"];
    if (typeof currency !== "string" || currency === "") {
      problem(
        "currency",
        "`format: money` needs its `currency`",
        "write `currency: USD` (an ISO 4217 code) or `currency: PATH` (the value beside the amount holding the code)",
      );
      return undefined;
    }
    return ISO_CODE.test(currency) ? { code: currency } : { path: currency.split(".") };
  },
  check({ kind, sibling }, currency) {
    if (kind !== "integer")
      return {
        key: "format",
        message: `format money applies to integer amounts in minor units, not ${kind ?? "this schema"}`,
        help: "remove `format`",
      };
    if ("code" in currency) {
      const problem = currencyProblem(currency.code);
      return problem === undefined
        ? undefined
        : { key: "currency", message: problem, help: "write the code of a currency with a minor unit, e.g. `currency: USD`" };
    }
    const held = sibling(currency.path);
    if (held === "string" || held === undefined) return undefined;
    return {
      key: "currency",
      message:
        held === "absent"
          ? `the spec declares no \`${currency.path.join(".")}\` beside this amount`
          : `\`${currency.path.join(".")}\` is ${held}, not a currency code`,
      help: "name the value beside the amount that holds its ISO 4217 code, or write the code itself, e.g. `currency: USD`",
    };
  },
  description: (currency) =>
    `Amount with its currency's decimals and ISO 4217 code${"code" in currency ? ` (${currency.code})` : ""}, e.g. 12.34 USD.`,
  read: (currency, sibling) => ({
    reader: "money",
    options: [["currency", "code" in currency ? JSON.stringify(currency.code) : sibling(currency.path)]],
  }),
  schema: () => ({ type: "string", pattern: "^-?\\d+(\\.\\d+)? [A-Z]{3}$" }),
};
