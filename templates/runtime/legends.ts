// Coded values: enums, codes expanded to words by a legend, codes looked up at run time.

import type { Context, LabelsRead, ValueRead } from "./context.js";
import { absent, report, unusable } from "./issues.js";
import type { UnknownCode, Unusable } from "./markers.js";
import { described, typeName } from "./quoting.js";
import { later, LabelsLater } from "./labels-later.js";
import { PAST_2_53 } from "./values.js";

/** The longest string taken for a code: a longer one is no code, and is not copied into a marker. */
export const CODE_CHARACTERS = 64;

/** An enum kept as its own values: one outside the spec's list is marked, not passed off as valid. */
export function member<T extends string | number | boolean>(
  value: unknown,
  {
    allowed,
    ctx,
    field,
    required,
  }: ValueRead & { readonly allowed: ReadonlySet<unknown> },
): T | null | UnknownCode | Unusable {
  if (allowed.has(value)) return value as T;
  return noWord(value, allowed, ctx, field, required);
}

/** What the codes of a legend or enum are, as a marker says it, where they are all numbers or all text. */
type CodeType = "an integer" | "a number" | "a string";

// A legend's codes never change: their type is found once, at the first value that is none of them.
const codeTypes = new WeakMap<object, CodeType | null>();

function codeTypeOf(
  codes: ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>,
): CodeType | null {
  let type = codeTypes.get(codes);
  if (type === undefined) {
    // A nullable enum lists null, which is no code's type.
    const all = [...codes.keys()].filter((code) => code !== null);
    type =
      all.length === 0
        ? null
        : all.every((code) => typeof code === "string")
          ? "a string"
          : all.every((code) => Number.isInteger(code))
            ? "an integer"
            : all.every((code) => typeof code === "number")
              ? "a number"
              : null;
    codeTypes.set(codes, type);
  }
  return type;
}

/**
 * A value the codes have no word for, or none at all. A value of another JSON type than the codes
 * (`true` where they are integers) is no code of theirs, so not an unknown one.
 */
function noWord(
  value: unknown,
  codes: ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>,
  ctx: Context,
  field: string,
  required: boolean,
): null | UnknownCode | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  return (
    notOfType(value, codeTypeOf(codes), ctx, field) ??
    unknownCode(ctx, field, value)
  );
}

/**
 * The marker for a value of another type than the codes', or undefined. An integer past 2^53 was
 * rounded as the JSON was parsed: shown, or looked up, it would be another code.
 */
function notOfType(
  value: unknown,
  type: CodeType | null,
  ctx: Context,
  field: string,
): Unusable | undefined {
  if (
    type !== null &&
    typeof value !== (type === "a string" ? "string" : "number")
  )
    return unusable(
      ctx,
      field,
      value,
      `expected ${type} code, got ${typeName(value)}`,
    );
  if (
    type === "an integer" &&
    Number.isFinite(value) &&
    !Number.isSafeInteger(value)
  )
    return unusable(
      ctx,
      field,
      value,
      Number.isInteger(value)
        ? PAST_2_53
        : "expected an integer code, got a number that is not whole",
    );
  return undefined;
}

/** The code types a looked-up legend is told, as the spec declares them. */
const DECLARED_CODES = {
  integer: "an integer",
  number: "a number",
  string: "a string",
} as const satisfies Record<string, CodeType>;

/**
 * A code the legend does not know. An object or array in a coded field is no code at all, nor is a
 * number JSON cannot write (`1e400` parses to Infinity) or a string too long to be a code.
 */
export function unknownCode(
  ctx: Context,
  field: string,
  value: unknown,
  resolver?: string,
): UnknownCode | Unusable {
  if (
    typeof value === "number"
      ? !Number.isFinite(value)
      : typeof value !== "string" && typeof value !== "boolean"
  ) {
    return unusable(
      ctx,
      field,
      value,
      `expected a code, got ${typeName(value)}`,
    );
  }
  if (typeof value === "string" && value.length > CODE_CHARACTERS)
    return unusable(
      ctx,
      field,
      value,
      `expected a code, got a string of ${value.length} characters`,
    );
  const code = typeof value === "number" ? value : String(value);
  report(
    ctx,
    "unknown_code",
    field,
    value,
    `${ctx.resource}.${field}: no word for code ${described(code)}`,
    resolver,
  );
  return { unknown_code: code };
}

/** A coded value expanded to its word. */
export function legend<W extends string>(
  value: unknown,
  at: ValueRead & { readonly words: ReadonlyMap<unknown, W> },
): W | null | UnknownCode | Unusable {
  const word = at.words.get(value);
  // The miss is kept apart so that this reader inlines.
  return word !== undefined
    ? word
    : noWord(value, at.words, at.ctx, at.field, at.required);
}

/**
 * A coded value whose word comes from a resolver at run time. Where the spec declares the codes'
 * type (`codes`), a value of another type is no code and is never looked up: `"10"` is not the
 * integer code 10, and neither is 10.5.
 */
export function legendLookup(
  value: unknown,
  {
    labels,
    resolver,
    key,
    codes,
    ctx,
    field,
    required,
  }: ValueRead & LabelsRead & { readonly codes?: keyof typeof DECLARED_CODES },
): string | null | UnknownCode | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  const wrongType =
    codes === undefined
      ? undefined
      : notOfType(value, DECLARED_CODES[codes], ctx, field);
  if (wrongType) return wrongType;
  const code =
    (typeof value === "string" && value.length <= CODE_CHARACTERS) ||
    (typeof value === "number" && Number.isFinite(value));
  // A resolver looks up text or numbers: true is no code it could know, whatever the field's type.
  if (typeof value === "boolean")
    return unusable(ctx, field, value, "expected a code, got boolean");
  if (!code) return unknownCode(ctx, field, value, resolver);
  // While the page is walked, a code leaves a place for the resolver's word.
  if (labels instanceof LabelsLater)
    return later(value as string | number, labels, ctx, field, key, true);
  const word = labels.get(String(value));
  return typeof word === "string"
    ? word
    : unknownCode(ctx, field, value, resolver);
}
