// Amounts of money: an integer in the currency's minor units, written with its decimals and code.

import type { ValueRead } from "./context.js";
import { absent, unusable } from "./issues.js";
import type { Unusable } from "./markers.js";
import { described, typeName } from "./quoting.js";

/**
 * The ISO 4217 codes whose minor unit the standard gives as "N.A." (List One of 2024-06-25): the
 * IMF's SDR, the precious metals, the bond market units, the Sucre, the ADB unit of account, and
 * the codes for testing and for no currency. They have no minor unit to count an amount in, though
 * Intl gives each CLDR's default of 2 decimals. src/rules/money.ts holds the same list.
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

/** The ISO 4217 codes this process's Intl knows, read once it first meets an amount. */
let currencies: ReadonlySet<string> | undefined;
/** The decimals of each code met so far: at most one entry a code Intl knows. */
const decimalsByCode = new Map<string, number>();

/**
 * The digits after the point in an amount of `code` (2 for USD, 0 for JPY, 3 for KWD), as the
 * Unicode CLDR data in Node's Intl has them; undefined for anything that is no ISO 4217 code, and
 * for the codes with no minor unit ({@link NO_MINOR_UNIT}).
 */
export function currencyDecimals(code: unknown): number | undefined {
  if (typeof code !== "string" || NO_MINOR_UNIT.has(code)) return undefined;
  const known = decimalsByCode.get(code);
  if (known !== undefined) return known;
  // Typed by hand: not every TypeScript release and `lib` a consumer compiles with declares it.
  currencies ??= new Set(
    (
      Intl as unknown as { supportedValuesOf(key: "currency"): string[] }
    ).supportedValuesOf("currency"),
  );
  if (!currencies.has(code)) return undefined;
  const decimals = new Intl.NumberFormat("en", {
    style: "currency",
    currency: code,
  }).resolvedOptions().maximumFractionDigits;
  if (decimals === undefined) return undefined;
  decimalsByCode.set(code, decimals);
  return decimals;
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
