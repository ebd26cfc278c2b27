// Amounts of money: an integer in the currency's minor units, written with its decimals and code.

import type { ValueRead } from "./context.js";
import { absent, unusable } from "./issues.js";
import type { Unusable } from "./markers.js";
import { described, typeName } from "./quoting.js";
import { PAST_2_53 } from "./values.js";

/** The codes in a list written as whitespace-separated words. */
const codes = (list: string): string[] => list.trim().split(/\s+/);

/**
 * Every current alphabetic code of ISO 4217 List One (published 2024-06-25, and the Caribbean
 * guilder XCG it has listed since 2025) with the digits its minor unit has: the standard's own
 * decimals, where Unicode CLDR (Node's Intl) gives some currencies others (IQD 0 where ISO says 3;
 * ALL, HUF, IRR and more 0 where it says 2).
 * src/rules/money.ts holds the same table.
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
  Object.entries(CODES_BY_DECIMALS).flatMap(([decimals, list]) =>
    codes(list).map((code) => [code, Number(decimals)] as const),
  ),
);

/**
 * The codes of List One whose minor unit the standard gives as "N.A.": the IMF's SDR, the precious
 * metals, the bond market units, the Sucre, the ADB unit of account, and the codes for testing and
 * for no currency. They have no minor unit to count an amount in. src/rules/money.ts holds the same
 * list.
 */
export const NO_MINOR_UNIT: ReadonlySet<string> = new Set(
  codes("XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX"),
);

/**
 * The digits after the point in an amount of `code` (2 for USD, 0 for JPY, 3 for KWD, 4 for CLF)
 * as ISO 4217 gives them; undefined for anything that is no current ISO 4217 code (a withdrawn one
 * such as DEM included), and for the codes with no minor unit ({@link NO_MINOR_UNIT}).
 */
export function currencyDecimals(code: unknown): number | undefined {
  return typeof code === "string" ? CURRENCY_DECIMALS.get(code) : undefined;
}

/**
 * `1234` with `"USD"` as `"12.34 USD"`, with `"JPY"` as `"1234 JPY"`, with `"KWD"` as `"1.234 KWD"`:
 * an integer amount in the currency's minor units. An amount that is no safe integer, and a
 * currency that is missing, no ISO 4217 code or one with no minor unit (`XDR`, `XAU`), are marked
 * unusable: never a guessed decimal point.
 */
export function money(
  value: unknown,
  {
    currency,
    ctx,
    field,
    required,
  }: ValueRead & { readonly currency: unknown },
): string | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  if (Number.isInteger(value) && !Number.isSafeInteger(value))
    return unusable(ctx, field, value, PAST_2_53);
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    return unusable(
      ctx,
      field,
      value,
      `expected an integer amount in minor units, got ${typeof value === "number" ? String(value) : typeName(value)}`,
    );
  if (currency === undefined || currency === null)
    return unusable(ctx, field, value, "no currency beside the amount");
  if (typeof currency === "string" && NO_MINOR_UNIT.has(currency))
    return unusable(
      ctx,
      field,
      value,
      `${currency} has no minor unit in ISO 4217: its amounts cannot be counted in minor units`,
    );
  const decimals = currencyDecimals(currency);
  if (decimals === undefined)
    return unusable(
      ctx,
      field,
      value,
      `not an ISO 4217 currency code: ${described(currency)}`,
    );
  const digits = String(Math.abs(value)).padStart(decimals + 1, "0");
  const amount =
    decimals === 0
      ? digits
      : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return `${value < 0 ? "-" : ""}${amount} ${currency as string}`;
}
