// A list tool hands out a `next` only where the tool takes it back and sends the page the API
// named: what the API says of its next page is read by the same reading the tool's input uses.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callTool, type CallParameter, type ToolCall } from "../../templates/runtime/call-tool.js";
import { context, type PageExchange, type ProjectionIssue } from "../../templates/runtime/context.js";
import { nextPage, type NextPageRule } from "../../templates/runtime/next-page.js";

const LEGEND = [
  ["open", 1],
  ["shipped", 2],
] as const;

/** The query parameters of GET /things the model sets, as the tool's call reads them. */
const SETTABLE: CallParameter[] = [
  { name: "q", in: "query", argument: "q", shortIds: false },
  { name: "cursor", in: "query", argument: "cursor", shortIds: false },
  { name: "filter[status]", in: "query", argument: "status", shortIds: false, legend: LEGEND },
  { name: "page", in: "query", argument: "page", shortIds: false },
  { name: "tag", in: "query", argument: "tag", shortIds: false, style: "form", explode: true },
  { name: "ids", in: "query", argument: "ids", shortIds: false, style: "form", explode: false },
  { name: "filter", in: "query", argument: "filter", shortIds: false, style: "deepObject", explode: true },
  { name: "done", in: "query", argument: "done", shortIds: false },
];

const PROPERTIES = {
  q: { type: "string" },
  cursor: { type: "string", maxLength: 20 },
  status: { type: "string", enum: ["open", "shipped"] },
  page: { type: "integer", minimum: 1 },
  tag: { type: "array", items: { type: "string" } },
  ids: { type: "array", items: { type: "integer" } },
  filter: { type: "object", properties: { owner: { type: "string" }, age: { type: "integer" } }, additionalProperties: false },
  done: { type: "boolean" },
};

const CALL: ToolCall = {
  method: "get",
  path: "/things",
  nextPage: true,
  parameters: [...SETTABLE, { name: "size", in: "query", fixed: { value: 25 }, shortIds: false }],
};
const INPUT_SCHEMA = { type: "object", properties: { ...PROPERTIES, next: { type: "string" } }, additionalProperties: false };

const rule = (source: NextPageRule["source"]): NextPageRule => ({
  path: "/things",
  source,
  parameters: SETTABLE.map(({ shortIds: _, ...parameter }) => parameter),
  schema: { properties: PROPERTIES },
  fixed: [["size", "25"]],
});
const BY_URL = rule({ body: ["next_url"] });
const BY_CURSOR = rule({ body: ["meta", "cursor"], param: "cursor" });
const REQUEST: PageExchange = { url: "https://api.example.com/things?size=25", query: { size: 25 } };

/** The `next` a response gives, with the issues reported making it. */
function next(ruleOf: NextPageRule, response: unknown) {
  const issues: ProjectionIssue[] = [];
  const ctx = context("list_things", { onIssue: (issue) => issues.push(issue) });
  return { next: nextPage(ruleOf, { response, records: [{}], returned: 1, exchange: REQUEST, ctx }), issues };
}

/** The tool called with a `next` alone: its error, or the query it sent. */
async function passedBack(token: string): Promise<{ error: string } | { query: string }> {
  const sent: string[] = [];
  const client = {
    GET: async (
      _path: string,
      init: { params: { query: Record<string, unknown> }; querySerializer: (q: Record<string, unknown>) => string },
    ) => {
      sent.push(init.querySerializer(init.params.query));
      return { data: { things: [] }, response: { status: 200, ok: true } };
    },
  };
  const outcome = await callTool(client, "list_things", CALL, INPUT_SCHEMA, { next: token }, async () => ({ things: [] }));
  return "error" in outcome ? { error: outcome.error } : { query: sent[0]! };
}

/** A query's pairs, decoded as a server reads them, in order of their text, without the fixed `size`. */
const pairsOf = (query: URLSearchParams) =>
  [...query]
    .filter(([name]) => name !== "size")
    .map(([name, value]) => JSON.stringify([name, value]))
    .sort();

describe("a next URL the tool would not take back", () => {
  it.each([
    [
      "a member of a parameter that takes no object",
      "?cursor[x]=1",
      /is not a page this tool can ask for: cursor must be string, not \{"x":"1"\}/,
    ],
    ["a member of a member", "?filter[status][x]=1", /is not a page this tool can ask for: status must be string, not \{"x":"1"\}/],
    ["a single-valued parameter twice", "?page=2&page=3", /the next page gives "page" twice/],
    ["an object's member twice", "?filter[owner]=a&filter[owner]=b", /the next page gives "filter\[owner\]" twice/],
    ["a member the object does not declare", "?filter[x]=1", /filter\.x is not an argument here/],
    ["a member the query would send as another parameter", "?filter[status]=open&filter[owner]=kim", /the next page would be sent as/],
    ["a member with no name", "?filter[]=1", /is not a page this tool can ask for/],
    ["a value the schema refuses", "?page=0", /page must be at least 1/],
    ["a number the query would write otherwise", "?page=1e3", /would be sent as "page=1000", not as the API named it, "page=1e3"/],
    ["a list's items given apart that the query joins", "?ids=1&ids=2", /would be sent as "ids=1,2"/],
    ["a code with no word", "?filter[status]=9", /status must be one of/],
  ])("gives no next, and says why, for %s", async (_what, url, reason) => {
    const { next: token, issues } = next(BY_URL, { next_url: url });
    expect(token).toBeNull();
    expect(issues).toEqual([expect.objectContaining({ kind: "unusable", field: "next", message: expect.stringMatching(reason) })]);
    expect(issues[0]!.message).toMatch(/so no next page is given$/);
  });

  it("gives no next for a cursor holding half a surrogate pair, which no URL carries, rather than failing the page", () => {
    const { next: token, issues } = next(BY_CURSOR, { meta: { cursor: "c\ud800" } });
    expect(token).toBeNull();
    expect(issues[0]!.message).toMatch(/holds a lone surrogate/);
  });

  it("quotes the API's value in its issue with every character that acts on a reader escaped", () => {
    const { next: token, issues } = next(BY_URL, { next_url: "?page=%E2%80%A8%1B%5B31m" });
    expect(token).toBeNull();
    expect(issues[0]!.message).toContain('page must be integer, not "\\u2028\\u001b[31m"');
    expect(issues[0]!.message).not.toMatch(/[\u001b\u2028]/);
  });

  it("gives no next for a cursor the tool would refuse", () => {
    const { next: token, issues } = next(BY_CURSOR, { meta: { cursor: "c".repeat(21) } });
    expect(token).toBeNull();
    expect(issues[0]!.message).toMatch(/cursor must have at most 20 characters/);
  });
});

describe("a next URL the tool takes back", () => {
  it.each([
    ["?page=2", "page=2"],
    ["?filter[status]=2&tag=a&tag=b", "filter[status]=2&tag=a&tag=b"],
    ["?ids=1,2&filter[owner]=kim&filter[age]=40", "ids=1,2&filter[owner]=kim&filter[age]=40"],
    ["?q=a+b&done=true&size=25", "q=a%20b&done=true"],
  ])("gives %j as %j, which sends the page the API named", async (url, expected) => {
    const { next: token, issues } = next(BY_URL, { next_url: url });
    expect([token, issues]).toEqual([expected, []]);
    const sent = await passedBack(token!);
    expect("query" in sent && pairsOf(new URLSearchParams(sent.query))).toEqual(pairsOf(new URL(url, REQUEST.url).searchParams));
  });
});

/** Query names as an API might write them: mostly the tool's own, else with brackets, dots, escapes, empty, or any text. */
const names = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom("q", "cursor", "page", "tag", "ids", "done", "filter[owner]", "filter[age]", "filter[status]", "size"),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "cursor[x]",
      "filter[status][x]",
      "page[]",
      "tag[]",
      "filter",
      "filter[]",
      "filter[a][b]",
      "filter[owner",
      "filter.owner",
      "status",
      "admin",
      "",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const values = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom("", "1", "2", "01", "1e3", "-0", "1.0", "true", "a,b", "1,2", "open", "x y", "%", "+", "%E0%A4%A", "25"),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 })
      .map((bytes) => bytes.map((byte) => `%${byte.toString(16).padStart(2, "0").toUpperCase()}`).join("")),
  },
);
/** A name or value as the URL writes it: as it is, escaped whole, or with its brackets escaped. */
const written = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(text, fc.constantFrom("raw", "escaped", "brackets"))
    .map(([t, how]) => (how === "raw" ? t : how === "escaped" ? encodeURIComponent(t) : t.replace(/\[/g, "%5B").replace(/\]/g, "%5D")));
const nextUrls = fc
  .tuple(
    fc.constantFrom("?", "/things?", "https://api.example.com/things?"),
    fc.array(fc.tuple(written(names), written(values)), { maxLength: 4 }),
  )
  .map(([start, pairs]) => start + pairs.map(([name, value]) => `${name}=${value}`).join("&"));

/** Whether a query's escapes are UTF-8 text; a `%` starting no escape is itself. */
function decodesToText(search: string): boolean {
  try {
    decodeURIComponent(search.replace(/%(?![0-9A-Fa-f]{2})/g, "%25"));
    return true;
  } catch {
    return false;
  }
}

describe("every next handed out", () => {
  it("is taken back and sends the query the API's URL named; else next is null and an issue says why", async () => {
    await fc.assert(
      fc.asyncProperty(nextUrls, async (url) => {
        const { next: token, issues } = next(BY_URL, { next_url: url });
        // Bytes that are not UTF-8 text: the URL parser reads them as U+FFFD, a value the API did not name.
        if (!decodesToText(new URL(url, REQUEST.url).search)) expect(token).toBeNull();
        if (token === null) {
          expect(issues).toEqual([expect.objectContaining({ kind: "unusable", field: "next" })]);
          return;
        }
        expect(issues).toEqual([]);
        const sent = await passedBack(token);
        expect(sent).not.toHaveProperty("error");
        const query = (sent as { query: string }).query;
        expect(pairsOf(new URLSearchParams(query))).toEqual(pairsOf(new URL(url, REQUEST.url).searchParams));
      }),
      { numRuns: 2000 },
    );
  });

  it("from a cursor, of any text or value, is taken back and sends that cursor", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 24 }),
          fc.string({ unit: fc.constantFrom("a", "\ud800", "\udc00", "%", "&"), maxLength: 4 }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        async (cursor) => {
          const { next: token, issues } = next(BY_CURSOR, { meta: { cursor } });
          if (token === null) {
            if (cursor !== null && cursor !== "") expect(issues).toEqual([expect.objectContaining({ kind: "unusable", field: "next" })]);
            return;
          }
          const sent = await passedBack(token);
          expect(sent).not.toHaveProperty("error");
          expect(new URLSearchParams((sent as { query: string }).query).getAll("cursor")).toEqual([String(cursor)]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
