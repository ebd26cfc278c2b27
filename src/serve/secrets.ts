// Serve knows the secrets it sends; an API may echo one back ("bad key: ..."), and no text serve hands
// out (a tool's result or error, a line on stderr) carries it on, in any form the API or the runtime
// writes it in: as it is, JSON-escaped, percent-encoded, as HTML character references, or cut short.

import { DecodingMode, EntityDecoder, htmlDecodeTree } from "entities/decode";
import { isObject } from "../annotation/next-page.js";
import type { Fetch } from "./api-fetch.js";

/** What stands in for a secret in a text serve hands out. */
export const SECRET_MASK = "[secret]";

/** Secrets shorter than this are not masked: replacing every "ab" would garble the text and hide little. */
export const MIN_MASKED_SECRET = 4;

/**
 * How many secrets, or starts of one before a `…`, an API's answer may hold: one holding more is
 * not passed on (a `502` from serve in its place), which bounds the time masking takes on any answer.
 */
export const MOST_SECRETS_IN_ANSWER = 10_000;

/** An API's answer holding more secrets than {@link MOST_SECRETS_IN_ANSWER}. */
export class TooManySecrets extends Error {
  constructor() {
    super(`it holds the secret serve sends, or the start of one, more than ${MOST_SECRETS_IN_ANSWER} times`);
    this.name = "TooManySecrets";
  }
}

/** What ends a string the runtime cuts short (`abc… (12001 characters)`), or a quoted one (`"abc"… (41 characters)`). */
const CUT_MARK = "…";

/** A mask over texts: each text with its secrets replaced by {@link SECRET_MASK} (see {@link secretMasker}). */
export interface SecretMask {
  (text: string): string;
  /**
   * Where the secrets stand in a JSON text read with its escapes decoded (its strings' values), each
   * reading taken from there: spans of the text as written, ascending, none overlapping.
   */
  readonly spansInJson: (text: string) => Spans;
  /**
   * Where the secrets stand in a text read as written first, each reading taken from there; throws
   * {@link TooManySecrets} for one holding too many (an API's answer).
   */
  readonly spansInText: (text: string) => Spans;
}

/**
 * A mask replacing every secret in `secrets` by {@link SECRET_MASK}: written as it is, JSON-escaped
 * once or twice (a quoted value inside a result's JSON text) with any escape JSON has for any of its
 * characters (`\"`, `\/` as PHP writes it, `\u0026` as Go does, hex in either case), or
 * percent-encoded (any characters encoded, hex in either case, `+` for a space), JSON-escaped first
 * or not, or with HTML's character references; and the start of one, at least
 * {@link MIN_MASKED_SECRET} characters long, that a cut left just before its `…`. Each way of writing
 * is undone on the whole text, keeping where each character came from, and the secrets are looked
 * for in what that gives: no way of writing a character is guessed at, and each reading takes one
 * pass. A span that would cut a JSON escape in two takes the whole escape: masking never leaves half
 * of one to change what follows.
 */
export function secretMasker(secrets: readonly string[]): SecretMask {
  const masked = [...new Set(secrets)].filter((secret) => secret.length >= MIN_MASKED_SECRET);
  const starts = secretStarts(masked);
  const readings = masked.some((secret) => secret.includes(" ")) ? [...READINGS, ...FORM_READINGS] : READINGS;
  const spans = (text: string, first?: Step, most = Number.POSITIVE_INFINITY): Spans => {
    if (masked.length === 0) return [];
    // Most texts hold no mark of any way of writing: the text as written is their only reading.
    if (!ANY_MARK.test(text)) return foundIn(text, most);
    let all: Spans = [];
    const decodedBy = new Map<string, string | undefined>([["", text]]);
    // A text the first step decodes nothing in is its own first reading.
    const prefix = first !== undefined && readAfter(text, [first], decodedBy) !== undefined ? [first] : [];
    for (const reading of readings) {
      const steps = [...prefix, ...reading];
      const read = readAfter(text, steps, decodedBy);
      if (read === undefined) continue;
      const found = foundIn(read, most);
      if (found.length > 0) all = joined(all, writtenSpans(text, steps, decodedBy, found));
    }
    if (all.length / 2 > most) throw new TooManySecrets();
    return all;
  };
  /** Where the secrets, and their starts before a `…`, stand in one reading. */
  const foundIn = (read: string, most: number): Spans => {
    let found = cutStarts(read, starts);
    for (const secret of masked) found = joined(found, wholeSecrets(read, secret));
    if (found.length / 2 > most) throw new TooManySecrets();
    return found;
  };
  return Object.assign((text: string) => withSpansMasked(text, wholeEscapes(text, spans(text))), {
    spansInJson: (text: string) => spans(text, jsonEscapes, MOST_SECRETS_IN_ANSWER),
    spansInText: (text: string) => spans(text, undefined, MOST_SECRETS_IN_ANSWER),
  });
}

/**
 * Intervals of a text, as one ascending list of places: the first span's start and end, the
 * second's, and so on; no two overlap.
 */
type Spans = number[];

/** Adds a span after those of `spans`, made one with the last where they overlap. */
function addSpan(spans: Spans, start: number, end: number): void {
  if (spans.length > 0 && start < spans[spans.length - 1]!) spans[spans.length - 1] = Math.max(spans[spans.length - 1]!, end);
  else spans.push(start, end);
}

/** The spans of both lists, those that overlap made one. */
function joined(a: Spans, b: Spans): Spans {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: Spans = [];
  let i = 0;
  let k = 0;
  while (i < a.length || k < b.length)
    if (k >= b.length || (i < a.length && a[i]! <= b[k]!)) {
      addSpan(out, a[i]!, a[i + 1]!);
      i += 2;
    } else {
      addSpan(out, b[k]!, b[k + 1]!);
      k += 2;
    }
  return out;
}

/** What a way of writing reads at `at` (which holds one of its marks): the characters it stands for, and how many it takes. */
type ReadAt = (text: string, at: number) => { readonly characters: string; readonly length: number } | undefined;

/** A way of writing: where its escapes start, and how each is read. */
interface Step {
  readonly name: string;
  readonly marks: RegExp;
  readonly read: ReadAt;
}

/** Any character that starts a way of writing some characters in the readings. */
const ANY_MARK = /[\\%&+]/;

// Each step's marks are found with its own regular expression, from the start of each text: no
// decoding runs inside another. Read through a function: the readers are written further down.
const jsonEscapes: Step = { name: "json", marks: /\\/g, read: (text, at) => jsonEscapeAt(text, at) };
const percentEncoding: Step = { name: "percent", marks: /%/g, read: (text, at) => percentEncodedAt(text, at) };
const htmlCharacterReferences: Step = { name: "html", marks: /&/g, read: (text, at) => htmlReferenceAt(text, at) };
/** A form's encoding: a `+` is a space, `%2B` a plus. */
const formEncoding: Step = {
  name: "form",
  marks: /[%+]/g,
  read: (text, at) => (text[at] === "+" ? { characters: " ", length: 1 } : percentEncodedAt(text, at)),
};
/**
 * The readings the secrets are looked for in besides the text as written, each the ways of writing
 * undone in turn: JSON's escapes once and twice, percent-encoding, percent-encoding then JSON's
 * escapes, HTML's character references (an error page), and those then JSON's escapes (an error page
 * showing a JSON text). A reading none of whose steps decodes anything is the text a shorter one gave.
 */
const READINGS: readonly (readonly Step[])[] = [
  [],
  [jsonEscapes],
  [jsonEscapes, jsonEscapes],
  [percentEncoding],
  [percentEncoding, jsonEscapes],
  [htmlCharacterReferences],
  [htmlCharacterReferences, jsonEscapes],
];
/** Only a secret holding a space may be written with a `+` for it. */
const FORM_READINGS: readonly (readonly Step[])[] = [[formEncoding], [formEncoding, jsonEscapes]];

/** The text read through `steps`, each step's text kept in `decodedBy`; undefined where a step decodes nothing. */
function readAfter(text: string, steps: readonly Step[], decodedBy: Map<string, string | undefined>): string | undefined {
  const key = steps.map((step) => step.name).join(" ");
  if (decodedBy.has(key)) return decodedBy.get(key);
  const before = readAfter(text, steps.slice(0, -1), decodedBy);
  const read = before === undefined ? undefined : decoded(before, steps[steps.length - 1]!);
  decodedBy.set(key, read);
  return read;
}

/** The spans, of the text read through `steps`, as spans of the text as written: each step replayed, last first. */
function writtenSpans(text: string, steps: readonly Step[], decodedBy: Map<string, string | undefined>, spans: Spans): Spans {
  // Decoding keeps the order of places: each step takes them ascending and gives them back so.
  let places = spans;
  for (let i = steps.length - 1; i >= 0; i--) places = placesWritten(readAfter(text, steps.slice(0, i), decodedBy)!, steps[i]!, places);
  return places;
}

/** `text` with each place `step` reads decoded; undefined where nothing is. */
function decoded(text: string, step: Step): string | undefined {
  // Made at the first place decoded. The decoded text is never longer than `text`: each way of
  // writing takes at least as many characters as it stands for.
  let read: Uint16Array | undefined;
  let length = 0;
  let kept = 0;
  const { marks } = step;
  marks.lastIndex = 0;
  for (let mark = marks.exec(text); mark !== null; mark = marks.exec(text)) {
    const found = step.read(text, mark.index);
    if (!found) continue;
    read ??= new Uint16Array(text.length);
    for (let i = kept; i < mark.index; i++) read[length++] = text.charCodeAt(i);
    for (let i = 0; i < found.characters.length; i++) read[length++] = found.characters.charCodeAt(i);
    kept = mark.index + found.length;
    marks.lastIndex = kept;
  }
  if (read === undefined) return undefined;
  for (let i = kept; i < text.length; i++) read[length++] = text.charCodeAt(i);
  return fromCodeUnits(read.subarray(0, length));
}

/**
 * Where each of `places` (of the text `step` decodes `text` into, ascending) stands in `text`: a
 * place in characters kept as they were moves by what the decoding before it took out; a place
 * within the characters a way of writing stands for is where that writing starts.
 */
function placesWritten(text: string, step: Step, places: Spans): Spans {
  const written: Spans = [];
  let p = 0;
  // Characters of the decoded text from `decodedAt` on were written from `writtenAt` on, one for one, up to the next decoding.
  let decodedAt = 0;
  let writtenAt = 0;
  const { marks } = step;
  marks.lastIndex = 0;
  for (let mark = marks.exec(text); mark !== null && p < places.length; mark = marks.exec(text)) {
    const found = step.read(text, mark.index);
    if (!found) continue;
    const decodingAt = decodedAt + mark.index - writtenAt;
    for (; p < places.length && places[p]! < decodingAt; p++) written.push(writtenAt + places[p]! - decodedAt);
    for (; p < places.length && places[p]! < decodingAt + found.characters.length; p++) written.push(mark.index);
    decodedAt = decodingAt + found.characters.length;
    writtenAt = mark.index + found.length;
    marks.lastIndex = writtenAt;
  }
  for (; p < places.length; p++) written.push(writtenAt + places[p]! - decodedAt);
  return written;
}

/**
 * The text of UTF-16 code units. A lone surrogate reads as U+FFFD, which only this reading holds (a
 * secret is looked for in it, and masked where it was written): no secret holds a lone surrogate.
 */
const fromCodeUnits = (units: Uint16Array): string => new TextDecoder("utf-16le").decode(units);

/** The value of `count` hex digits at `at`, or -1 where any is not one. */
function hexAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const code = text.charCodeAt(i) | 0x20;
    const digit = code >= 0x30 && code <= 0x39 ? code - 0x30 : code >= 0x61 && code <= 0x66 ? code - 0x57 : -1;
    if (digit === -1) return -1;
    value = value * 16 + digit;
  }
  return value;
}

const JSON_SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** A JSON escape at `at`: `\"`, `\/`, `\n`, `\u00e9`; any other backslash is read as it is. */
const jsonEscapeAt: ReadAt = (text, at) => {
  const next = text[at + 1];
  if (next === undefined) return undefined;
  if (Object.hasOwn(JSON_SHORT_ESCAPES, next)) return { characters: JSON_SHORT_ESCAPES[next]!, length: 2 };
  const code = next === "u" ? hexAt(text, at + 2, 4) : -1;
  return code === -1 ? undefined : { characters: String.fromCharCode(code), length: 6 };
};

/** The bytes of one UTF-8 character, percent-encoded, at `at`: `%41`, `%c3%a9`; a `%` that starts none is read as it is. */
const percentEncodedAt: ReadAt = (text, at) => {
  const byteAt = (i: number) => (text[i] === "%" ? hexAt(text, i + 1, 2) : -1);
  const lead = byteAt(at);
  const count = utf8Length(lead);
  if (count === 0) return undefined;
  // The lead byte holds the character's first bits, below the bits that say its length.
  let codePoint = lead & (0xff >> (count === 1 ? 1 : count + 1));
  for (let i = 1; i < count; i++) {
    const byte = byteAt(at + 3 * i);
    if (byte === -1 || (byte & 0xc0) !== 0x80) return undefined;
    codePoint = (codePoint << 6) | (byte & 0x3f);
  }
  const shortest = [0, 0, 0x80, 0x800, 0x10000][count]!;
  if (codePoint < shortest || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return undefined;
  return { characters: String.fromCodePoint(codePoint), length: 3 * count };
};

/** How many bytes a UTF-8 character whose first byte is `lead` takes; 0 for a byte no character starts with (or -1). */
const utf8Length = (lead: number): number =>
  lead < 0 ? 0 : lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;

/** The characters the last HTML character reference read stands for: the decoder hands them over one code point at a time. */
let referenceCharacters = "";
const htmlReferences = new EntityDecoder(htmlDecodeTree, (codePoint) => {
  referenceCharacters += String.fromCodePoint(codePoint);
});

/**
 * An HTML character reference at `at`, as a browser reads one in an error page's text: `&#69;`,
 * `&#x45;`, any of HTML's named references (`&ouml;`, `&ast;`, `&QUOT;`), and the legacy ones
 * without a semicolon (`&amp`); any other `&` is read as it is.
 */
const htmlReferenceAt: ReadAt = (text, at) => {
  referenceCharacters = "";
  htmlReferences.startEntity(DecodingMode.Legacy);
  const written = htmlReferences.write(text, at + 1);
  const length = written < 0 ? htmlReferences.end() : written;
  return length > 0 ? { characters: referenceCharacters, length } : undefined;
};

/** Where `secret` stands whole in `text`. */
function wholeSecrets(text: string, secret: string): Spans {
  const spans: Spans = [];
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) addSpan(spans, at, at + secret.length);
  return spans;
}

/** Each start of a secret worth masking, as the secret and the start's length, by the start's last character, longest first. */
type SecretStarts = ReadonlyMap<string, ReadonlyArray<readonly [secret: string, length: number]>>;

function secretStarts(secrets: readonly string[]): SecretStarts {
  const starts = new Map<string, Array<readonly [string, number]>>();
  for (const secret of secrets)
    for (let length = secret.length; length >= MIN_MASKED_SECRET; length--) {
      const last = secret[length - 1]!;
      starts.set(last, [...(starts.get(last) ?? []), [secret, length]]);
    }
  for (const list of starts.values()) list.sort(([, a], [, b]) => b - a);
  return starts;
}

/** The quotes and backslashes a quoted cut value may have between its text and its `…` (`"abc"…`, `\"abc\"…`). */
const MOST_QUOTING_BEFORE_CUT = 3;

/** Where `text` holds the start of a secret just before a {@link CUT_MARK} (or the quotes before it). */
function cutStarts(text: string, starts: SecretStarts): Spans {
  const spans: Spans = [];
  for (let cut = text.indexOf(CUT_MARK); cut !== -1; cut = text.indexOf(CUT_MARK, cut + 1))
    for (let end = cut; end > 0 && cut - end <= MOST_QUOTING_BEFORE_CUT; end--) {
      const start = starts.get(text[end - 1]!)?.find(([secret, length]) => end >= length && sameAt(text, end - length, secret, length));
      if (start) {
        spans.push(end - start[1], end);
        break;
      }
      if (text[end - 1] !== '"' && text[end - 1] !== "\\") break;
    }
  return spans;
}

/** Whether `text` holds the first `length` characters of `secret` at `at`. */
function sameAt(text: string, at: number, secret: string, length: number): boolean {
  for (let i = 0; i < length; i++) if (text.charCodeAt(at + i) !== secret.charCodeAt(i)) return false;
  return true;
}

/**
 * The spans, each widened to the whole of a JSON escape it would cut in two (`\"`, `\n`, `\u00e9`):
 * a text handed out is JSON or table text, whose strings are escaped so, and half an escape left
 * standing would change what follows it (a `\"` cut before its quote ends the string there).
 */
function wholeEscapes(text: string, spans: Spans): Spans {
  if (spans.length === 0 || !text.includes("\\")) return spans;
  const widened: Spans = [];
  for (let i = 0; i < spans.length; i += 2) {
    const start = escapeStartBefore(text, spans[i]!);
    let end = spans[i + 1]!;
    const escapeStart = escapeStartBefore(text, end);
    if (escapeStart < end) end = escapeStart + jsonEscapeAt(text, escapeStart)!.length;
    addSpan(widened, start, end);
  }
  return widened;
}

/** Whether an odd run of backslashes ends just before `at`: the last of them starts an escape. */
function oddBackslashesBefore(text: string, at: number): boolean {
  let count = 0;
  while (at - count - 1 >= 0 && text[at - count - 1] === "\\") count++;
  return count % 2 === 1;
}

/** Where the JSON escape that `at` falls inside starts (after its backslash, within its `\u` digits), else `at`. */
function escapeStartBefore(text: string, at: number): number {
  for (let back = 1; back <= 5 && at - back >= 0; back++) {
    const start = at - back;
    if (text[start] !== "\\" || !oddBackslashesBefore(text, start + 1)) continue;
    const read = jsonEscapeAt(text, start);
    return read && start + read.length > at ? start : at;
  }
  return at;
}

/** `text` with each span replaced by {@link SECRET_MASK}. */
function withSpansMasked(text: string, spans: Spans): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let kept = 0;
  for (let i = 0; i < spans.length; i += 2) {
    parts.push(text.slice(kept, spans[i]), SECRET_MASK);
    kept = spans[i + 1]!;
  }
  parts.push(text.slice(kept));
  return parts.join("");
}

/** `value` with `mask` applied to every string in it, object keys included; `value` itself when that changes nothing. */
export function maskedDeep(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === "string") return mask(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => maskedDeep(item, mask));
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  const entries = Object.entries(value);
  const masked = entries.map(([key, item]) => [mask(key), maskedDeep(item, mask)] as const);
  return masked.every(([key, item], i) => key === entries[i]![0] && item === entries[i]![1]) ? value : Object.fromEntries(masked);
}

type Handler = (request: unknown, extra: unknown) => unknown;

/**
 * `server` with each request handler registered on it answering through `mask`: the generated
 * registerTools sets them, and a tool's result or error reaches the client masked.
 */
export function maskingServer<S extends object>(server: S, mask: SecretMask): S {
  return new Proxy(server, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== "setRequestHandler" || typeof value !== "function") return value;
      return (schema: unknown, handler: Handler) =>
        value.call(target, schema, async (request: unknown, extra: unknown) => maskedAnswer(await handler(request, extra), mask));
    },
  });
}

/** A handler's answer with `mask` applied to every string in it, and each text block of its `content` masked as its values are. */
function maskedAnswer(answer: unknown, mask: SecretMask): unknown {
  const content = isObject(answer) ? answer["content"] : undefined;
  if (!Array.isArray(content)) return maskedDeep(answer, mask);
  const isTextBlock = (item: unknown): item is { type: "text"; text: string } =>
    isObject(item) && item["type"] === "text" && typeof item["text"] === "string";
  return {
    ...(maskedDeep({ ...(answer as object), content: [] }, mask) as object),
    content: content.map((item) =>
      isTextBlock(item)
        ? { ...(maskedDeep({ ...item, text: "" }, mask) as object), text: maskedTextBlock(item.text, mask) }
        : maskedDeep(item, mask),
    ),
  };
}

/**
 * A fetch whose responses reach the client with the secrets masked by `mask` before anything reads
 * them: every string of a JSON body (escapes decoded), the text of any other body, the headers
 * (a `Link` to the next page), the status text and the URL. What comes from the API is masked before
 * the runtime cuts, quotes, encodes or projects it, so none of that can hide a secret from the mask.
 * A body longer than `mostBytes` is not read further: it reaches the client with a Content-Length
 * saying how much was read, for the runtime's own bound (the same) to refuse it unread.
 */
export function maskingFetch(send: Fetch, mask: SecretMask, mostBytes: number): Fetch {
  return async (request, init) => {
    const response = await send(request, init);
    const headers = new Headers();
    for (const [name, value] of response.headers) headers.append(name, mask(value));
    const rebuilt = (body: BodyInit | null) => {
      const answer = new Response(body, { status: response.status, statusText: mask(response.statusText), headers });
      Object.defineProperty(answer, "url", { value: mask(response.url) });
      return answer;
    };
    if (!response.body || Number(response.headers.get("content-length")) > mostBytes) return rebuilt(response.body);
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      bytes += read.value.byteLength;
      if (bytes > mostBytes) {
        void reader.cancel().catch(() => {});
        headers.set("content-length", String(bytes));
        return rebuilt(null);
      }
      chunks.push(read.value);
    }
    const body = Buffer.concat(chunks, bytes);
    const text = new TextDecoder().decode(body);
    let masked: string;
    try {
      masked = maskedBody(text, mask);
    } catch (error) {
      if (!(error instanceof TooManySecrets)) throw error;
      headers.delete("content-length");
      headers.set("content-type", "text/plain");
      return new Response(`serve does not pass on the API's answer: ${error.message}`, { status: 502, statusText: "Bad Gateway", headers });
    }
    if (masked === text) return rebuilt(body);
    headers.delete("content-length");
    return rebuilt(masked);
  };
}

/**
 * The body's text with every secret masked: in the values of its strings when it is JSON (object
 * keys too), else in the text itself. A JSON body is parsed only to know it is JSON, read with its
 * strings' escapes decoded, and masked in its text where a secret stands within one string, never
 * written again from the parse: everything else in it (a number such as `1e400` or
 * `12345678901234567890`, spacing, key order, a repeated key) reaches the runtime as the API wrote
 * it. Throws {@link TooManySecrets} for a body holding more than {@link MOST_SECRETS_IN_ANSWER}.
 */
export function maskedBody(text: string, mask: SecretMask): string {
  const inValues = mask.spansInJson(text);
  // Without a backslash JSON's escapes decode nothing, and the two look-ups are one.
  const inText = text.includes("\\") ? mask.spansInText(text) : inValues;
  if (inValues.length === 0 && inText.length === 0) return text;
  // Parsed only where a secret shows: a body of millions of values costs a parse as long as the runtime's own.
  return isJson(text) ? withSpansMasked(text, withinStrings(text, inValues)) : withSpansMasked(text, inText);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A result's text block with its secrets masked as its values are: JSON text in its strings' values
 * alone, so that a number, a key or the text's own syntax is never taken for a secret and the text
 * stays the JSON of the structured result; any other text (a table) wherever one shows.
 */
function maskedTextBlock(text: string, mask: SecretMask): string {
  if (/^\s*[[{]/.test(text) && isJson(text))
    try {
      return withSpansMasked(text, withinStrings(text, mask.spansInJson(text)));
    } catch (error) {
      if (!(error instanceof TooManySecrets)) throw error;
    }
  return mask(text);
}

/** The spans that lie within the value of one string of the JSON text: a secret never spans two. */
function withinStrings(text: string, spans: Spans): Spans {
  const kept: Spans = [];
  let i = 0;
  // One pass over the text, string by string: a string's value runs from after its opening quote to its closing one.
  for (let at = text.indexOf('"'); at !== -1 && i < spans.length; at = text.indexOf('"', at + 1)) {
    const start = at + 1;
    for (at = start; at < text.length && text[at] !== '"'; at++) if (text[at] === "\\") at++;
    for (; i < spans.length && spans[i]! < at; i += 2) if (spans[i]! >= start && spans[i + 1]! <= at) kept.push(spans[i]!, spans[i + 1]!);
  }
  return kept;
}
