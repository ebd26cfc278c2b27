// Serve knows the secrets it sends; an API may echo one back ("bad key: ..."), and no text serve hands
// out (a tool's result or error, a line on stderr) carries it on, in any form the API or the runtime
// writes it in: as it is, JSON-escaped, percent-encoded, or cut short.

/** What stands in for a secret in a text serve hands out. */
export const SECRET_MASK = "[secret]";

/** Secrets shorter than this are not masked: replacing every "ab" would garble the text and hide little. */
export const MIN_MASKED_SECRET = 4;

/** What ends a string the runtime cuts short (`abc… (12001 characters)`), or a quoted one (`"abc"… (41 characters)`). */
const CUT_MARK = "…";

/**
 * `text` with every secret in `secrets` replaced by {@link SECRET_MASK}: written as it is, JSON-escaped
 * (once or twice: a quoted value inside a result's JSON text), or percent-encoded (any characters
 * encoded, hex in either case, `+` for a space); and the start of one, at least
 * {@link MIN_MASKED_SECRET} characters long, that a cut left just before its `…`.
 */
export function secretMasker(secrets: readonly string[]): (text: string) => string {
  const masked = [...new Set(secrets)].filter((secret) => secret.length >= MIN_MASKED_SECRET);
  if (masked.length === 0) return (text) => text;
  const written = [...new Set(masked.flatMap(writtenForms))].sort((a, b) => b.length - a.length);
  const percentEncoded = masked.flatMap((secret) => [...new Set([secret, jsonEscaped(secret)])].map(percentEncodedPattern));
  const whole = new RegExp([...written.map(escapeRegExp), ...percentEncoded].join("|"), "g");
  const starts = written.map(cutStarts);
  return (text) => withCutStartsMasked(text.replace(whole, SECRET_MASK), starts);
}

/** The secret as it is, JSON-escaped once and twice, and percent-encoded as encodeURIComponent and a form write it. */
function writtenForms(secret: string): string[] {
  const escaped = jsonEscaped(secret);
  const encoded = [escaped, secret].flatMap((form) => [encodeURIComponent(form), new URLSearchParams([["", form]]).toString().slice(1)]);
  return [
    secret,
    escaped,
    jsonEscaped(escaped),
    ...encoded,
    ...encoded.map((form) => form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())),
  ];
}

const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/**
 * A pattern matching `text` with any of its characters percent-encoded (as UTF-8, hex in either
 * case) and a space also as `+`. Each character's choices start differently, so a match never
 * backtracks: a `%` as it is must not be followed by `25`, which reads as the encoded `%`.
 */
function percentEncodedPattern(text: string): string {
  const encoder = new TextEncoder();
  const hexDigit = (digit: string) => (/[0-9]/.test(digit) ? digit : `[${digit}${digit.toLowerCase()}]`);
  return [...text]
    .map((character) => {
      const encoded = [...encoder.encode(character)]
        .map((byte) => `%${[...byte.toString(16).toUpperCase().padStart(2, "0")].map(hexDigit).join("")}`)
        .join("");
      const asItIs = character === "%" ? "%(?!25)" : escapeRegExp(character);
      return `(?:${[encoded, asItIs, ...(character === " " ? ["\\+"] : [])].join("|")})`;
    })
    .join("");
}

/** A written form, and the lengths of its starts worth masking, by their last character. */
interface CutStarts {
  readonly form: string;
  readonly lengthsEndingIn: ReadonlyMap<string, readonly number[]>;
}

function cutStarts(form: string): CutStarts {
  const lengthsEndingIn = new Map<string, number[]>();
  // Longest first: the first start found is the longest there.
  for (let length = form.length; length >= MIN_MASKED_SECRET; length--) {
    const last = form[length - 1]!;
    lengthsEndingIn.set(last, [...(lengthsEndingIn.get(last) ?? []), length]);
  }
  return { form, lengthsEndingIn };
}

/** The quotes and backslashes a quoted cut value may have between its text and its `…` (`"abc"…`, `\"abc\"…`). */
const MOST_QUOTING_BEFORE_CUT = 3;

/** `text` with each start of a written form left just before a {@link CUT_MARK} (or the quote before it) masked. */
function withCutStartsMasked(text: string, forms: readonly CutStarts[]): string {
  let result = "";
  let kept = 0;
  for (let cut = text.indexOf(CUT_MARK); cut !== -1; cut = text.indexOf(CUT_MARK, cut + 1)) {
    let found: { start: number; end: number } | undefined;
    for (let end = cut; end > kept && cut - end <= MOST_QUOTING_BEFORE_CUT; end--) {
      for (const { form, lengthsEndingIn } of forms)
        for (const length of lengthsEndingIn.get(text[end - 1]!) ?? [])
          if (end - length >= kept && (!found || end - length < found.start) && text.startsWith(form.slice(0, length), end - length)) {
            found = { start: end - length, end };
            break;
          }
      if (!/["\\]/.test(text[end - 1]!)) break;
    }
    if (!found) continue;
    result += text.slice(kept, found.start) + SECRET_MASK;
    kept = found.end;
  }
  return result + text.slice(kept);
}

/** A JSON escape: `\n`, `\"`, `\u00e9`. */
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(.))/gs;

const ESCAPED: Readonly<Record<string, string>> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * Whether `mask` finds nothing in the body, read as text and with every JSON escape decoded: each
 * string of a JSON body is then a part of the decoded text, so a secret in any of them, or a cut
 * start before its `…`, is found there too. Such a body, most of them, is passed on as it came.
 */
function showsNoSecret(text: string, mask: (text: string) => string): boolean {
  if (mask(text) !== text) return false;
  if (!text.includes("\\")) return true;
  const decoded = text.replace(JSON_ESCAPE, (_, hex: string | undefined, other: string) =>
    hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (ESCAPED[other] ?? other),
  );
  return mask(decoded) === decoded;
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
export function maskingServer<S extends object>(server: S, mask: (text: string) => string): S {
  return new Proxy(server, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== "setRequestHandler" || typeof value !== "function") return value;
      return (schema: unknown, handler: Handler) =>
        value.call(target, schema, async (request: unknown, extra: unknown) => maskedDeep(await handler(request, extra), mask));
    },
  });
}

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch whose responses reach the client with the secrets masked by `mask` before anything reads
 * them: every string of a JSON body (escapes decoded), the text of any other body, the headers
 * (a `Link` to the next page), the status text and the URL. What comes from the API is masked before
 * the runtime cuts, quotes, encodes or projects it, so none of that can hide a secret from the mask.
 * A body longer than `mostBytes` is not read further: it reaches the client with a Content-Length
 * saying how much was read, for the runtime's own bound (the same) to refuse it unread.
 */
export function maskingFetch(send: Fetch, mask: (text: string) => string, mostBytes: number): Fetch {
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
    const body = new Uint8Array(bytes);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const text = new TextDecoder().decode(body);
    const masked = maskedBody(text, mask);
    if (masked === text) return rebuilt(body);
    headers.delete("content-length");
    return rebuilt(masked);
  };
}

/** A string of a JSON text, its quotes included: outside strings a valid JSON text holds no `"`. */
const JSON_STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/g;

/**
 * The body's text with every secret masked: each string of it when it is JSON, escapes decoded; else
 * the text itself. A JSON body is parsed only to know it is JSON, whose strings its quotes then
 * find, and masked in its text, string by string, never written again from the parse: everything
 * else in it (a number such as `1e400` or `12345678901234567890`, spacing, key order, a repeated
 * key) reaches the runtime as the API wrote it.
 */
export function maskedBody(text: string, mask: (text: string) => string): string {
  if (showsNoSecret(text, mask)) return text;
  try {
    JSON.parse(text);
  } catch {
    return mask(text);
  }
  return text.replace(JSON_STRING, (written) => {
    const value = written.includes("\\") ? (JSON.parse(written) as string) : written.slice(1, -1);
    const masked = mask(value);
    return masked === value ? written : JSON.stringify(masked);
  });
}
