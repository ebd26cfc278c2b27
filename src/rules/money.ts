// `format: money` with `currency:`: an integer amount in minor units, as the model reads it
// (`1234` with USD as `"12.34 USD"`). The runtime reader is templates/runtime/money.ts.

import type { Format } from "./types.js";

/** Where an amount's currency is: an ISO 4217 code written in the annotation, or the path of a value beside it. */
type Currency = { code: string } | { path: string[] };

const ISO_CODE = /^[A-Z]{3}$/;

/** The codes in a list written as whitespace-separated words. */
const codes = (list: string): string[] => list.trim().split(/\s+/);

/**
 * Every current alphabetic code of ISO 4217 List One (published 2024-06-25, and the Caribbean
 * guilder XCG it has listed since 2025) with the digits its minor unit has. The same table as the runtime's (templates/runtime/money.ts): generate is built
 * from src/ alone and the runtime is copied into the consumer's repo on its own, so neither can
 * import the other; a test holds the two tables equal, and equal to ISO's list.
 */
const CODES_BY_DECIMALS: Readonly<Record<number, string>> = {
  0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
  2: `
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN
    BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
    CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK
    DKK DOP DZD
    EGP ERN ETB EUR
    FJD FKP
    GBP GEL GHS GIP GMD GTQ GYD
    HKD HNL HTG HUF
    IDR ILS INR IRR
    JMD
    KES KGS KHR KPW KYD KZT
    LAK LBP LKR LRD LSL
    MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN
    NAD NGN NIO NOK NPR NZD
    PAB PEN PGK PHP PKR PLN
    QAR
    RON RSD RUB
    SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL
    THB TJS TMT TOP TRY TTD TWD TZS
    UAH USD USN UYU UZS
    VED VES
    WST
    XCD XCG
    YER
    ZAR ZMW ZWG`,
  3: "BHD IQD JOD KWD LYD OMR TND",
  4: "CLF UYW",
};

/** The decimals of each ISO 4217 code with a minor unit. */
export const CURRENCY_DECIMALS: ReadonlyMap<string, number> = new Map(
  Object.entries(CODES_BY_DECIMALS).flatMap(([decimals, list]) => codes(list).map((code) => [code, Number(decimals)] as const)),
);

/**
 * The codes of List One whose minor unit the standard gives as "N.A.", which an amount in minor
 * units cannot be counted in. The same list as the runtime's `NO_MINOR_UNIT`.
 */
export const NO_MINOR_UNIT: ReadonlySet<string> = new Set(codes("XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX"));

/** Why an amount cannot be in `code`, or undefined where it can. */
function currencyProblem(code: string): string | undefined {
  if (NO_MINOR_UNIT.has(code)) return `${code} has no minor unit in ISO 4217: its amounts cannot be counted in minor units`;
  return CURRENCY_DECIMALS.has(code) ? undefined : `${code} is not an ISO 4217 currency code`;
}

export const MONEY: Format<Currency> = {
  name: "money",
  keys: ["currency"],
  example: "`money` with `currency:` (1234 with USD: 12.34 USD)",
  docsRow: [
    "`{ format: money, currency: USD }` / `{ format: money, currency: PATH }`",
    "`1234` as `12.34 USD`: an integer amount in the currency's minor units, written with the decimals ISO 4217 gives its minor unit (JPY 0, USD 2, KWD 3, CLF 4); `currency` is an ISO 4217 code, or the path of a value beside the amount holding one. An amount that is no integer, and a currency missing, unknown or with no minor unit, are marked unusable",
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
