// A list tool's next page: where the API says it is (a body path, the Link header, the last
// record, the request's own offset), written as a short `next` of the operation's own query
// parameters that the model passes back.

import { type InputSchema, LONE_SURROGATE } from "./arguments.js";
import type { Context, PageExchange } from "./context.js";
import { idOf, type IdType } from "./ids.js";
import { report, unusable } from "./issues.js";
import { asObject, read } from "./json.js";
import { markerShape } from "./markers.js";
import {
  delimitedText,
  MAX_NEXT_CHARACTERS,
  type NextParameter,
  nextProblem,
} from "./next-arguments.js";
import { at, blockedAt } from "./pages.js";
import { queryName } from "./query-string.js";
import { printable, typeName } from "./quoting.js";

/** The most characters of a next URL or a `Link` header read. */
export const MAX_NEXT_URL_CHARACTERS = 8_192;

/** Where the position of the next page is read. */
export type NextSource =
  /** A body path holding a next URL, or a cursor sent as `param`. */
  | { readonly body: readonly string[]; readonly param?: string }
  /** An RFC 8288 header (`link`): its link with `rel="next"`. */
  | { readonly header: string }
  /** The value at a path of the last record, sent as `param`. */
  | {
      readonly afterLast: readonly string[];
      readonly param: string;
      /** The type the spec declares the value: one of another type is no position to continue after. */
      readonly ids?: IdType;
      /**
       * A value that is no id, which the spec declares a number: only a JSON number reads as it
       * (an integer's within 2^53), as the row reads it, never its digits written as text.
       */
      readonly value?: "integer" | "number";
      /**
       * The key the row shows the value under: where the row shows a marker there (an unreadable
       * date, money in an unknown currency, a code with no word), the value is no position either.
       */
      readonly shown?: string;
      readonly limit?: string;
    }
  /** The request's own offset, advanced by the records this page holds. */
  | { readonly offset: string; readonly limit?: string };

/** How a tool finds its next page, and which query parameters a `next` may carry. */
export interface NextPageRule {
  /** The operation's path template, `/accounts/{sid}/calls.json`: a next URL must name it. */
  readonly path: string;
  readonly source: NextSource;
  /**
   * The query parameters the model sets, as the tool's call reads and sends them: the only ones a
   * `next` carries.
   */
  readonly parameters: readonly NextParameter[];
  /**
   * Their arguments' schemas, as the tool's input schema gives them (`{ properties }`): a `next` is
   * handed out only where the tool takes it back and sends the page it names.
   */
  readonly schema: InputSchema;
  /** The parameters the tool fixes, each with its value as a URL writes it: a next URL may repeat them, never change them. */
  readonly fixed?: ReadonlyArray<readonly [name: string, value: string]>;
  /** How many records a page holds when the request sends no limit: the spec's default. */
  readonly defaultLimit?: number;
}

/** Stands in for the API's base URL when the request's is not known: a next URL is then judged by its path. */
const UNKNOWN_BASE = "http://base.invalid";

/** A query parameter's name, its value, and where the API wrote it in a URL, the value as written there. */
type QueryPair = readonly [name: string, value: string, written?: string];

/**
 * `name=value` pairs as a `next` writes them: names keep the brackets the spec writes, values are
 * escaped, but for an unexploded list's value the API wrote, whose delimiters stay apart from its
 * items' escaped ones.
 */
export function nextToken(
  pairs: readonly QueryPair[],
  parameters: readonly NextParameter[] = [],
): string {
  return pairs
    .map(([name, value, written]) => {
      const list =
        written === undefined
          ? undefined
          : delimitedText(
              parameters.find((p) => p.in === "query" && p.name === name),
              written,
            );
      return `${queryName(name)}=${list ?? encodeURIComponent(value)}`;
    })
    .join("&");
}

/**
 * A page as {@link nextPage} reads it: the response, its records and how many it returned (before a
 * row budget cut them), the request that fetched it, the call's context, and the records as
 * projected for an `after_last`.
 */
export interface PageRead {
  response: unknown;
  records: readonly unknown[];
  returned: number;
  exchange: PageExchange | undefined;
  ctx: Context;
  rows?: readonly unknown[];
}

/**
 * The result's `next`: the following page's position as a short string of the operation's own
 * query parameters, or null on the last page. A position the tool cannot follow (a next URL on
 * another host or path, a parameter it does not set or fixes otherwise, a cursor it cannot read,
 * anything the tool would not take back, or would send otherwise than the API named it) is null
 * too, and reported as `unusable` through `onIssue`: no `next` ever leaves the operation, and every
 * `next` handed out is one the tool takes back. `rows` are the records as projected, which an
 * `after_last` reads its value's marker from.
 */
export function nextPage(rule: NextPageRule, page: PageRead): string | null {
  const { response, records, returned, exchange, ctx, rows } = page;
  const source = rule.source;
  if ("body" in source) {
    const blocked = blockedAt(response, source.body);
    if (blocked)
      return refused(
        ctx,
        blocked.found,
        `expected an object at ${blocked.steps}, got ${typeName(blocked.found)}`,
      );
    const value = at(response, source.body);
    // A JSON:API link object: `{ "href": "…" }`.
    const href = asObject(value) && read(asObject(value), "href");
    const found = typeof href === "string" ? href : value;
    if (found === undefined || found === null || found === "") return null;
    if (source.param !== undefined) {
      const cursor = cursorText(found);
      return cursor === undefined
        ? refused(ctx, found, `expected a cursor, got ${typeName(found)}`)
        : fromPairs(rule, [[source.param, cursor]], exchange, ctx);
    }
    if (typeof found !== "string")
      return refused(ctx, found, `expected a next URL, got ${typeName(found)}`);
    return fromUrl(rule, found, exchange, ctx);
  }
  if ("header" in source) {
    if (!exchange?.headers) {
      report(
        ctx,
        "missing",
        "next",
        undefined,
        `${ctx.resource}.next: the response's ${source.header} header tells the next page, and the projection was not given the headers (options.exchange)`,
      );
      return null;
    }
    const header = exchange.headers.get(source.header);
    if (header === null || header === "") return null;
    if (header.length > MAX_NEXT_URL_CHARACTERS)
      return refused(
        ctx,
        header,
        `the ${source.header} header is longer than ${MAX_NEXT_URL_CHARACTERS} characters`,
      );
    const link = nextLink(header);
    if (link === undefined)
      return refused(
        ctx,
        header,
        `the ${source.header} header cannot be read as RFC 8288 links`,
      );
    if (link.length > 1)
      return refused(
        ctx,
        header,
        `the ${source.header} header gives ${link.length} different next pages`,
      );
    return link.length === 0 ? null : fromUrl(rule, link[0]!, exchange, ctx);
  }
  // A page whose rows a budget cut goes on after the last record shown, however short the page was.
  const cut = records.length < returned;
  if (
    returned === 0 ||
    (!cut && fewerThanAsked(rule, source.limit, returned, exchange))
  )
    return null;
  if ("afterLast" in source) {
    const value = at(records[records.length - 1], source.afterLast);
    // What the record's own reader marks unusable is no position either: the value is read as it is.
    const marked = markedInRow(rows, source.shown);
    // A text too long for any next is there, not missing: the reason says so.
    if (
      !marked &&
      typeof value === "string" &&
      value.length > MAX_NEXT_CHARACTERS
    )
      return refused(
        ctx,
        value,
        `the next page is longer than ${MAX_NEXT_CHARACTERS} characters`,
      );
    const cursor = marked
      ? undefined
      : source.value !== undefined
        ? numberText(value, source.value)
        : source.ids === undefined
          ? cursorText(value)
          : idOf(value, source.ids);
    if (cursor === undefined)
      return refused(
        ctx,
        value,
        `the last record has no ${source.afterLast.join(".")} to continue after`,
      );
    return fromPairs(rule, [[source.param, cursor]], exchange, ctx);
  }
  if (exchange === undefined) {
    report(
      ctx,
      "missing",
      "next",
      undefined,
      `${ctx.resource}.next: the request's ${source.offset} tells the next page, and the projection was not given the query it sent (options.exchange)`,
    );
    return null;
  }
  const sent = exchange.query?.[source.offset];
  const offset = sent === undefined || sent === null ? 0 : Number(sent);
  if (!Number.isSafeInteger(offset) || sent === "")
    return refused(
      ctx,
      sent,
      `the request's ${source.offset} is not a whole number`,
    );
  if (offset < 0)
    return refused(ctx, sent, `the request's ${source.offset} is negative`);
  return fromPairs(
    rule,
    [[source.offset, String(offset + records.length)]],
    exchange,
    ctx,
  );
}

/** Whether the last row shows a marker at `shown` in place of its value. */
function markedInRow(
  rows: readonly unknown[] | undefined,
  shown: string | undefined,
): boolean {
  if (rows === undefined || shown === undefined) return false;
  const row = asObject(rows[rows.length - 1]);
  const value = row === undefined ? undefined : asObject(read(row, shown));
  return value !== undefined && markerShape(value) !== undefined;
}

/** A cursor as the URL carries it: text, or a number; anything else is none. */
function cursorText(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  // A whole number past 2^53 was rounded as the JSON was parsed: its digits name another position.
  if (Number.isFinite(value) && !isUnsafeInteger(value)) return String(value);
  return undefined;
}

/** A number as the row shows it, written as the URL carries it; undefined for anything the row marks unusable. */
function numberText(
  value: unknown,
  declared: "integer" | "number",
): string | undefined {
  const usable =
    declared === "integer"
      ? Number.isSafeInteger(value)
      : Number.isFinite(value);
  return usable ? String(value) : undefined;
}

const isUnsafeInteger = (value: unknown): boolean =>
  Number.isInteger(value) && !Number.isSafeInteger(value);

/**
 * Whether the page holds fewer records than the request asked for (the limit it sent, else the
 * spec's default), so that it is the last; unknown, and so not the last, without a limit.
 */
function fewerThanAsked(
  rule: NextPageRule,
  limit: string | undefined,
  returned: number,
  exchange: PageExchange | undefined,
): boolean {
  const sent = limit === undefined ? undefined : exchange?.query?.[limit];
  const asked =
    sent === undefined || sent === null ? rule.defaultLimit : Number(sent);
  return asked !== undefined && Number.isFinite(asked) && returned < asked;
}

function refused(ctx: Context, value: unknown, reason: string): null {
  unusable(ctx, "next", value, `${reason}, so no next page is given`);
  return null;
}

/**
 * The `next` for a next URL: it must name the request's origin and path (without the request's
 * URL, a path ending in the operation's own), and its query parameters must be ones the model sets,
 * or ones the tool fixes, with their fixed values.
 */
function fromUrl(
  rule: NextPageRule,
  text: string,
  exchange: PageExchange | undefined,
  ctx: Context,
): string | null {
  if (text.length > MAX_NEXT_URL_CHARACTERS)
    return refused(
      ctx,
      text,
      `the next URL is longer than ${MAX_NEXT_URL_CHARACTERS} characters`,
    );
  const request = requestUrl(exchange);
  // A call that says nothing of where it went (a mock's or a cache's Response): a URL naming a host cannot be held to it.
  if (
    exchange !== undefined &&
    request === undefined &&
    /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(text.trim())
  )
    return refused(
      ctx,
      text,
      "the next URL names a host, and the request's URL is unknown (the response names none), so it cannot be checked",
    );
  let url: URL;
  try {
    url = new URL(text, request ?? UNKNOWN_BASE);
  } catch {
    return refused(ctx, text, "the next URL cannot be read");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return refused(
      ctx,
      text,
      `the next URL is not http(s) but ${url.protocol}`,
    );
  if (request && url.origin !== request.origin)
    return refused(ctx, text, `the next URL is on another host (${url.host})`);
  if (url.username !== "" || url.password !== "")
    return refused(ctx, text, "the next URL carries credentials");
  // After the URL parser's own normalization (`/a/./b`, `%2e`), a trailing slash is another path.
  const samePath = text.startsWith("?")
    ? true
    : request
      ? url.pathname === request.pathname
      : endsWithTemplate(url.pathname, rule.path);
  if (!samePath)
    return refused(
      ctx,
      text,
      `the next URL names another path (${url.pathname}) than this tool's operation`,
    );
  if (!decodesAsUtf8(url.search))
    return refused(
      ctx,
      text,
      "the next URL's query holds escapes that are not UTF-8 text, which the tool would send otherwise",
    );
  // An unexploded list's items are parted by its delimiter as written, never by an escaped one: the
  // values are kept as written beside their decoded text.
  const written = url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "");
  const pairs = [...url.searchParams].map(([name, value], i): QueryPair => [
    name,
    value,
    // As the URL parser reads it: `+` is a space, and a `%` that starts no escape is itself.
    writtenValue(written[i]!)
      .replace(/\+/g, "%20")
      .replace(/%(?![0-9A-Fa-f]{2})/g, "%25"),
  ]);
  return fromPairs(rule, pairs, exchange, ctx);
}

/** The value of a query's `name=value` pair as written; empty for a name alone. */
function writtenValue(pair: string): string {
  const equals = pair.indexOf("=");
  return equals === -1 ? "" : pair.slice(equals + 1);
}

/**
 * Whether a query's escapes decode to UTF-8 text: the URL parser reads any other bytes as U+FFFD,
 * a value the API did not name. A `%` that starts no escape stays itself, as the parser keeps it.
 */
function decodesAsUtf8(search: string): boolean {
  try {
    decodeURIComponent(search.replace(/%(?![0-9A-Fa-f]{2})/g, "%25"));
    return true;
  } catch {
    return false;
  }
}

function requestUrl(exchange: PageExchange | undefined): URL | undefined {
  if (typeof exchange?.url !== "string" || exchange.url === "")
    return undefined;
  try {
    const url = new URL(exchange.url);
    return url.protocol === "http:" || url.protocol === "https:"
      ? url
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a URL's path ends in the operation's path template, each `{name}` standing for one segment. */
function endsWithTemplate(path: string, template: string): boolean {
  const pattern = template
    .split(/(\{[^}/]*\})/)
    .map((part) =>
      /^\{[^}/]*\}$/.test(part)
        ? "[^/]+"
        : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  let decoded: string;
  try {
    decoded = decodeURI(path);
  } catch {
    return false;
  }
  return new RegExp(`(?:^|/)${pattern.replace(/^\//, "")}$`).test(decoded);
}

/**
 * The `next` for the query parameters of the following page: each one the request did not already
 * send with that value, the fixed ones left out where they keep their value. Null, reported, when
 * nothing would change, or when the tool would not take it back as it is (see `nextProblem`).
 */
function fromPairs(
  rule: NextPageRule,
  pairs: readonly QueryPair[],
  exchange: PageExchange | undefined,
  ctx: Context,
): string | null {
  const values = new Map<string, QueryPair[]>();
  for (const pair of pairs) {
    values.set(pair[0], [...(values.get(pair[0]) ?? []), pair]);
  }
  const kept: QueryPair[] = [];
  for (const [name, named] of values) {
    const given = named.map(([, value]) => value);
    const fixed = rule.fixed?.find(([fixedName]) => fixedName === name);
    if (fixed) {
      if (given.join(",") === fixed[1]) continue;
      return refused(
        ctx,
        given.join(","),
        `the next page changes ${name}, which this tool fixes`,
      );
    }
    if (
      sentAlready(exchange, name, given) ||
      sentAsMember(rule.parameters, exchange, name, given)
    )
      continue;
    kept.push(...named);
  }
  if (kept.length === 0)
    return refused(ctx, undefined, "the next page is this page again");
  if (
    kept.some(
      ([name, value]) =>
        LONE_SURROGATE.test(name) || LONE_SURROGATE.test(value),
    )
  )
    return refused(
      ctx,
      undefined,
      "the next page holds a lone surrogate (half of a UTF-16 pair), which a URL cannot carry",
    );
  const token = nextToken(kept, rule.parameters);
  const problem = nextProblem(rule.parameters, rule.schema, token);
  if (problem === undefined) return token;
  // The input schema's messages quote the API's value, JSON-escaped but not every character.
  return refused(ctx, token, `the next page ${printable(problem)}`);
}

/** Whether the request sent `name` with these values already: a `next` leaves out what the other arguments send again. */
function sentAlready(
  exchange: PageExchange | undefined,
  name: string,
  given: readonly string[],
): boolean {
  const query = exchange?.query;
  if (!query || !Object.hasOwn(query, name)) return false;
  const sent = query[name];
  const items = (Array.isArray(sent) ? sent : [sent]).filter(
    (item) => item !== undefined && item !== null,
  );
  if (items.some((item) => typeof item === "object")) return false;
  const texts = items.map(String);
  return (
    texts.join("\u0000") === given.join("\u0000") ||
    (given.length === 1 && texts.join(",") === given[0])
  );
}

/**
 * Whether the request sent `name` with this value as a member of an exploded `form` object (the
 * object `{ sort: "a" }` is sent as `sort=a`): the object the other arguments send again sends it,
 * and a `next` cannot carry it, since the tool reads no member of such an object back.
 */
function sentAsMember(
  parameters: readonly NextParameter[],
  exchange: PageExchange | undefined,
  name: string,
  given: readonly string[],
): boolean {
  if (given.length !== 1) return false;
  return parameters.some((parameter) => {
    const style = parameter.style ?? "form";
    if (
      parameter.in !== "query" ||
      style !== "form" ||
      parameter.explode === false
    )
      return false;
    const object = asObject(exchange?.query?.[parameter.name]);
    if (!object || !Object.hasOwn(object, name)) return false;
    const member = object[name];
    return (
      (typeof member === "string" ||
        typeof member === "number" ||
        typeof member === "boolean") &&
      String(member) === given[0]
    );
  });
}

/**
 * The targets of an RFC 8288 `Link` header whose relation types (its first `rel`) include `next`, each once; or
 * undefined when the header cannot be read as links. A target is written `<…>`, and parameters
 * follow it: `<https://api.example.com/items?page=2>; rel="next", <…>; rel="last"`.
 */
export function nextLink(header: string): string[] | undefined {
  const targets: string[] = [];
  let i = 0;
  const skipSpace = () => {
    while (i < header.length && /[ \t]/.test(header[i]!)) i++;
  };
  while (i < header.length) {
    skipSpace();
    if (header[i] === ",") {
      i++;
      continue;
    }
    if (i >= header.length) break;
    if (header[i] !== "<") return undefined;
    const end = header.indexOf(">", i);
    if (end === -1) return undefined;
    const target = header.slice(i + 1, end);
    i = end + 1;
    let next = false;
    let relSeen = false;
    for (;;) {
      skipSpace();
      if (i >= header.length || header[i] === ",") break;
      if (header[i] !== ";") return undefined;
      i++;
      skipSpace();
      const name = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/.exec(header.slice(i))?.[0];
      if (name === undefined) return undefined;
      i += name.length;
      skipSpace();
      let value = "";
      if (header[i] === "=") {
        i++;
        skipSpace();
        if (header[i] === '"') {
          i++;
          while (i < header.length && header[i] !== '"') {
            if (header[i] === "\\") i++;
            value += header[i] ?? "";
            i++;
          }
          if (header[i] !== '"') return undefined;
          i++;
        } else {
          value = /^[^;,\s]*/.exec(header.slice(i))![0];
          i += value.length;
        }
      }
      // RFC 8288: a link's first `rel` is its relation; any later one is ignored.
      if (name.toLowerCase() === "rel" && !relSeen) {
        relSeen = true;
        next = value.toLowerCase().split(/\s+/).includes("next");
      }
    }
    if (next && !targets.includes(target)) targets.push(target);
  }
  return targets;
}
