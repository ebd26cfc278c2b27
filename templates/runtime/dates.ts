// Dates and date-times, read from ISO text or unix epochs, written in UTC.

import type { ValueRead } from "./context.js";
import { absent, unusable } from "./issues.js";
import type { Unusable } from "./markers.js";
import { described } from "./quoting.js";

/**
 * Unix epoch seconds below 100,000,000,000 (up to the year 5138), milliseconds from there on (any
 * time after March 1973): the two read alike for every timestamp an API sends today.
 */
const EPOCH_MILLISECONDS_FROM = 1e11;

/**
 * Epoch digits in a string: nine or more, so that a compact date (`20260211`) is never read as
 * seconds, and no leading zero, which no clock writes: `0123456789` is some other number's text.
 * Digits alone: a sign (`-1700000000`, 1916) or a fraction (`1700000000.5`) is no clock's text either,
 * and a fractional epoch number is unusable too.
 */
const EPOCH_TEXT = /^[1-9]\d{8,}$/;

function fromEpoch(value: number): Date {
  return new Date(
    Math.abs(value) < EPOCH_MILLISECONDS_FROM ? value * 1000 : value,
  );
}

/**
 * ISO 8601 text as RFC 3339 writes it: a date, or a date and a time of day to the minute or finer,
 * then `Z` or an offset (`+05:30`, or `+0530`). `T` and `Z` may be lower case, as RFC 3339 allows,
 * and a space may stand for `T` where the zone is stated.
 */
const ISO_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:([Tt ])(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * The instant ISO text writes, read field by field and never by `Date.parse`, which reads other
 * forms in the host's zone. A time with no zone and a `T` is read as UTC, as APIs that leave the
 * zone out of ISO text mean; with a space it is a database's local timestamp (`2026-01-02 03:04`),
 * whose zone nothing states, so it is no date.
 */
function fromIsoText(text: string): Date | undefined {
  const fields = ISO_TEXT.exec(text);
  if (!fields) return undefined;
  const [
    ,
    year,
    month,
    day,
    separator,
    hour = "0",
    minute = "0",
    second = "0",
    zone,
    sign,
    offsetHours = "0",
    offsetMinutes = "0",
  ] = fields;
  if (
    (separator === " " && zone === undefined) ||
    !isRealDay(Number(year), Number(month), Number(day)) ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 60 ||
    Number(offsetHours) > 23 ||
    Number(offsetMinutes) > 59
  )
    return undefined;
  const offset =
    (sign === "-" ? -1 : 1) *
    (Number(offsetHours) * 60 + Number(offsetMinutes));
  // setUTCFullYear, unlike Date.UTC, keeps a year below 100 as written; a leap second keeps its minute.
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(
    Number(hour),
    Number(minute) - offset,
    Math.min(Number(second), 59),
  );
  // A leap second is the last of a month in UTC (23:59:60): at any other minute it names no instant.
  if (Number(second) === 60 && !endsAMonth(date)) return undefined;
  return date;
}

/** Whether the second after `date` (a time to the second, in UTC) begins a month. */
function endsAMonth(date: Date): boolean {
  const next = new Date(date.getTime() + 1000);
  return (
    next.getUTCDate() === 1 &&
    next.getUTCHours() === 0 &&
    next.getUTCMinutes() === 0 &&
    next.getUTCSeconds() === 0
  );
}

/**
 * The date `value` writes, if any. A number is an epoch only where the spec declares one
 * (`epochNumbers`), and only a whole one: `1.5` is no timestamp an API means, whatever it rounds to.
 */
function toDate(value: unknown, epochNumbers: boolean): Date | undefined {
  let date: Date | undefined;
  if (typeof value === "number")
    date =
      epochNumbers && Number.isInteger(value) ? fromEpoch(value) : undefined;
  else if (typeof value === "string")
    date = EPOCH_TEXT.test(value)
      ? fromEpoch(Number(value))
      : fromIsoText(value);
  // Outside years 0 to 9999 an ISO text is no longer YYYY-MM-DD: such a value is out of range.
  return date &&
    !Number.isNaN(date.getTime()) &&
    date.getUTCFullYear() >= 0 &&
    date.getUTCFullYear() <= 9999
    ? date
    : undefined;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether the calendar has this day: Date would roll 2026-02-30 over to March. */
function isRealDay(year: number, month: number, day: number): boolean {
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    (day <= DAYS[month - 1]! ||
      (month === 2 &&
        day === 29 &&
        year % 4 === 0 &&
        (year % 100 !== 0 || year % 400 === 0)))
  );
}

/** The number two ASCII digits at `at` write, or -1. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9
    ? tens * 10 + ones
    : -1;
}

/**
 * The date and minute the last successful {@link isUtcIso} read. Module state rather than an
 * object it returns, so that reading a date allocates nothing on the hot path of a page.
 */
let readYear = 0;
let readMonth = 0;
let readDay = 0;
let readHour = 0;
let readMinute = 0;

/**
 * Whether the text is a real UTC date (`2026-02-11`) or date-time (`2026-02-11T09:14:22.481Z`),
 * so the text itself can be cut; when it is, its date and minute are left in `read*`. Checked by
 * hand, without a Date or a RegExp and reading each character once: this is the hot path of a page.
 */
export function isUtcIso(value: string): boolean {
  const length = value.length;
  if (
    length !== 10 &&
    (length < 17 || value.charCodeAt(length - 1) !== 90) /* Z */
  )
    return false;
  if (value.charCodeAt(4) !== 45 /* - */ || value.charCodeAt(7) !== 45)
    return false;
  const century = twoDigits(value, 0);
  const yearOfCentury = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const year = century * 100 + yearOfCentury;
  if (century < 0 || yearOfCentury < 0 || !isRealDay(year, month, day))
    return false;
  let hour = 0;
  let minute = 0;
  if (length !== 10) {
    if (
      value.charCodeAt(10) !== 84 /* T */ ||
      value.charCodeAt(13) !== 58 /* : */
    )
      return false;
    hour = twoDigits(value, 11);
    minute = twoDigits(value, 14);
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return false;
    if (length !== 17) {
      const second = twoDigits(value, 17);
      // A leap second (60) is read by fromIsoText, which checks where it falls.
      if (value.charCodeAt(16) !== 58 || second < 0 || second > 59)
        return false;
      if (length !== 20) {
        if (value.charCodeAt(19) !== 46 /* . */ || length < 22) return false;
        for (let i = 20; i < length - 1; i++) {
          const digit = value.charCodeAt(i) - 48;
          if (digit < 0 || digit > 9) return false;
        }
      }
    }
  }
  readYear = year;
  readMonth = month;
  readDay = day;
  readHour = hour;
  readMinute = minute;
  return true;
}

/**
 * The days and minutes cut lately, as numbers and as text, in slots picked by the number: records
 * of one page often share a day or a minute, in each of their date fields, and then share its text
 * too instead of each cutting a copy.
 */
const RECENT = 16;
const dayKeys = new Float64Array(RECENT).fill(-1);
const dayTexts: string[] = new Array<string>(RECENT).fill("");
const minuteKeys = new Float64Array(RECENT).fill(-1);
const minuteTexts: string[] = new Array<string>(RECENT).fill("");

/** `2026-02-11` for the text {@link isUtcIso} has just read. */
function readDayText(value: string): string {
  const key = (readYear * 16 + readMonth) * 32 + readDay;
  const slot = key & (RECENT - 1);
  if (dayKeys[slot] !== key) {
    dayTexts[slot] = value.slice(0, 10);
    dayKeys[slot] = key;
  }
  return dayTexts[slot]!;
}

/** `2026-02-14T16:02Z` for the date-time text {@link isUtcIso} has just read. */
function readMinuteText(value: string): string {
  const key =
    (((readYear * 16 + readMonth) * 32 + readDay) * 24 + readHour) * 60 +
    readMinute;
  const slot = key % RECENT;
  if (minuteKeys[slot] !== key) {
    minuteTexts[slot] = `${value.slice(0, 16)}Z`;
    minuteKeys[slot] = key;
  }
  return minuteTexts[slot]!;
}

/** `2026-02-11`, in UTC. */
/**
 * What a date reader is told besides the value: `epochNumbers: false` where the spec declares text,
 * so that a number there is no epoch but a value the spec does not allow.
 */
export interface DateRead extends ValueRead {
  readonly epochNumbers?: boolean;
}

export function date(value: unknown, at: DateRead): string | null | Unusable {
  return typeof value === "string" && isUtcIso(value)
    ? readDayText(value)
    : otherDate(value, at);
}

/** `2026-02-14T16:02Z`: minute precision, in UTC. */
export function datetime(
  value: unknown,
  at: DateRead,
): string | null | Unusable {
  return typeof value === "string" && value.length > 10 && isUtcIso(value)
    ? readMinuteText(value)
    : otherDatetime(value, at);
}

// The readers' other cases, kept apart so that the readers are small enough to inline.

function otherDate(
  value: unknown,
  { ctx, field, required, epochNumbers = true }: DateRead,
): string | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  const parsed = toDate(value, epochNumbers);
  return parsed
    ? parsed.toISOString().slice(0, 10)
    : unusable(ctx, field, value, `not a date: ${described(value)}`);
}

function otherDatetime(
  value: unknown,
  { ctx, field, required, epochNumbers = true }: DateRead,
): string | null | Unusable {
  if (value === undefined || value === null)
    return absent(ctx, field, value, required);
  const parsed = toDate(value, epochNumbers);
  return parsed
    ? `${parsed.toISOString().slice(0, 16)}Z`
    : unusable(ctx, field, value, `not a date-time: ${described(value)}`);
}
