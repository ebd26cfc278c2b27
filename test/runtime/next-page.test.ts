// A list tool's `next`: made from what the API says of the next page, only where it stays within
// the operation's own query parameters, and read back into arguments, refused otherwise.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callTool, type ToolCall } from "../../templates/runtime/call-tool.js";
import { context, type PageExchange, type ProjectionIssue } from "../../templates/runtime/context.js";
import { nextPageArguments, type NextParameter } from "../../templates/runtime/next-arguments.js";
import { MAX_NEXT_CHARACTERS } from "../../templates/runtime/next-arguments.js";
import { nextLink, nextPage, nextToken, type NextPageRule } from "../../templates/runtime/next-page.js";

/** Projects `next` for a response, with the issues it reports. */
function next(rule: NextPageRule, response: unknown, exchange?: PageExchange, records: unknown[] = [{ id: "a" }]) {
  const issues: ProjectionIssue[] = [];
  const ctx = context("list_things", { onIssue: (issue) => issues.push(issue) });
  return { next: nextPage(rule, { response, records, returned: records.length, exchange, ctx }), issues };
}

/** Query parameters the model sets, each its own argument: text, but a `filter` object sent as `filter[member]`. */
const settable = (...names: string[]): Pick<NextPageRule, "parameters" | "schema"> => ({
  parameters: names.map((name) =>
    name === "filter" ? { name, in: "query", argument: name, style: "deepObject", explode: true } : { name, in: "query", argument: name },
  ),
  schema: { properties: Object.fromEntries(names.map((name) => [name, { type: name === "filter" ? "object" : "string" }])) },
});

const byUrl: NextPageRule = {
  path: "/accounts/{account}/things.json",
  source: { body: ["next_page_uri"] },
  ...settable("page", "limit", "q", "filter"),
  fixed: [["size", "25"]],
};
const REQUEST = "https://api.example.com/v1/accounts/AC1/things.json?limit=20";
const answered = (url: unknown) => ({ next_page_uri: url });

describe("next from a next URL", () => {
  it.each([
    ["a path and query relative to the host", "/v1/accounts/AC1/things.json?page=2&limit=20", "page=2"],
    ["an absolute URL on the request's origin", "https://api.example.com/v1/accounts/AC1/things.json?limit=20&page=2", "page=2"],
    ["a query alone", "?page=2", "page=2"],
    ["a fixed parameter with its fixed value", "/v1/accounts/AC1/things.json?page=2&size=25", "page=2"],
    ["a member of an object parameter", "?filter[owner]=kim", "filter[owner]=kim"],
    ["a value to escape", "?q=a%26b%3Dc+d", "q=a%26b%3Dc%20d"],
  ])("keeps the parameters that change, from %s", (_what, url, token) => {
    expect(next(byUrl, answered(url), { url: REQUEST, query: { limit: 20 } })).toEqual({ next: token, issues: [] });
  });

  it("judges a path by the operation's template when the request's URL is unknown", () => {
    expect(next(byUrl, answered("https://api.example.com/2010/accounts/AC9/things.json?page=2")).next).toBe("page=2");
    expect(next(byUrl, answered("https://api.example.com/2010/accounts/AC9/other.json?page=2")).issues[0]?.message).toMatch(
      /another path \(\/2010\/accounts\/AC9\/other\.json\)/,
    );
  });

  it("refuses a next URL naming a host where the call knows not the request's URL, and judges a relative one by the template", () => {
    const unknown: PageExchange = { query: {} };
    const { next: token, issues } = next(byUrl, answered("https://evil.example/v1/accounts/AC1/things.json?page=2"), unknown);
    expect(token).toBeNull();
    expect(issues[0]?.message).toMatch(/names a host, and the request's URL is unknown/);
    expect(next(byUrl, answered("//evil.example/v1/accounts/AC1/things.json?page=2"), unknown).next).toBeNull();
    expect(next(byUrl, answered("/v1/accounts/AC1/things.json?page=2"), unknown).next).toBe("page=2");
  });

  it("reads a JSON:API link object's href", () => {
    expect(next(byUrl, { next_page_uri: { href: "?page=3" } }, { url: REQUEST }).next).toBe("page=3");
  });

  it.each([
    [null, null],
    [undefined, null],
    ["", null],
  ])("is null on the last page (%j), reporting nothing", (url, expected) => {
    expect(next(byUrl, answered(url), { url: REQUEST })).toEqual({ next: expected, issues: [] });
  });

  it.each([
    ["another host", "https://evil.example/v1/accounts/AC1/things.json?page=2", /on another host \(evil\.example\)/],
    ["another scheme on the host", "http://api.example.com/v1/accounts/AC1/things.json?page=2", /on another host/],
    ["another path", "/v1/accounts/AC2/things.json?page=2", /another path/],
    ["a scheme that is not http", "javascript:alert(1)", /not http\(s\) but javascript:/],
    ["credentials", "https://user:pw@api.example.com/v1/accounts/AC1/things.json?page=2", /carries credentials/],
    ["an undeclared parameter", "?page=2&admin=true", /carries "admin", which is not a query parameter this tool takes/],
    ["a fixed parameter changed", "?page=2&size=1000", /changes size, which this tool fixes/],
    ["this very page", "?limit=20", /is this page again/],
    ["a number", 7, /expected a next URL, got number/],
    ["a URL too long to read", `?q=${"x".repeat(9000)}`, /longer than 8192 characters/],
    ["a next too long to give", `?q=${"x".repeat(MAX_NEXT_CHARACTERS)}`, /longer than 2000 characters/],
  ])("is null for a URL with %s, reported as unusable", (_what, url, message) => {
    const { next: token, issues } = next(byUrl, answered(url), { url: REQUEST, query: { limit: 20 } });
    expect(token).toBeNull();
    expect(issues).toEqual([
      expect.objectContaining({ kind: "unusable", resource: "list_things", field: "next", message: expect.stringMatching(message) }),
    ]);
    expect(issues[0]!.message).toMatch(/so no next page is given$/);
  });

  it("is null, reported, where a step of the path is not an object", () => {
    const rule: NextPageRule = { ...byUrl, source: { body: ["links", "next"] } };
    expect(next(rule, { links: "none" }).issues[0]?.message).toMatch(/expected an object at links, got string/);
  });
});

describe("next from a cursor", () => {
  const byCursor: NextPageRule = { path: "/things", source: { body: ["meta", "cursor"], param: "after" }, ...settable("after") };

  it("sends text or a number under the parameter, escaped", () => {
    expect(next(byCursor, { meta: { cursor: "abc+/=" } }).next).toBe("after=abc%2B%2F%3D");
    expect(next(byCursor, { meta: { cursor: 40 } }).next).toBe("after=40");
    expect(next(byCursor, { meta: { cursor: null } })).toEqual({ next: null, issues: [] });
  });

  it("refuses a cursor that is no text, and one that names this page again", () => {
    expect(next(byCursor, { meta: { cursor: { at: 1 } } }).issues[0]?.message).toMatch(/expected a cursor, got object/);
    expect(next(byCursor, { meta: { cursor: "c1" } }, { query: { after: "c1" } }).issues[0]?.message).toMatch(/this page again/);
  });
});

describe("next from the Link header", () => {
  const byLink: NextPageRule = { path: "/things", source: { header: "link" }, ...settable("page") };
  const headers = (link: string | null) => ({ get: (name: string) => (name === "link" ? link : null) });

  it("follows the link whose relation types include next", () => {
    const link = '<https://api.example.com/things?page=1>; rel="first", <https://api.example.com/things?page=3>; rel="next last"';
    expect(next(byLink, [], { url: "https://api.example.com/things", headers: headers(link) }).next).toBe("page=3");
  });

  it("is null without a next link, and reports headers it was not given", () => {
    expect(next(byLink, [], { headers: headers('</things?page=1>; rel="first"') })).toEqual({ next: null, issues: [] });
    expect(next(byLink, [], { headers: headers(null) })).toEqual({ next: null, issues: [] });
    expect(next(byLink, []).issues).toEqual([expect.objectContaining({ kind: "missing", field: "next" })]);
  });

  it("refuses two different next pages", () => {
    expect(next(byLink, [], { headers: headers('</things?page=2>; rel=next, </things?page=9>; rel="next"') }).issues[0]?.message).toMatch(
      /gives 2 different next pages/,
    );
  });

  it.each([
    ['<a>; rel="next", <b>; rel=next', ["a", "b"]],
    ['<a,b;c>; rel="next"', ["a,b;c"]],
    ['<a>; title="x, \\"y\\""; rel=NEXT', ["a"]],
    ['<a>; rel="prev", <b>;rel="last"', []],
    ["", []],
    ["<a> rel=next", undefined],
    ["<a; rel=next", undefined],
    ['<a>; rel="next', undefined],
    ["a; rel=next", undefined],
  ])("reads %j as RFC 8288 links", (header, targets) => {
    expect(nextLink(header)).toEqual(targets);
  });
});

describe("next from the records and the request", () => {
  const afterLast: NextPageRule = {
    path: "/messages",
    source: { afterLast: ["id"], param: "before", limit: "limit" },
    ...settable("before", "limit"),
    defaultLimit: 2,
  };
  const byOffset: NextPageRule = { path: "/calls", source: { offset: "offset", limit: "limit" }, ...settable("offset", "limit") };
  const two = [{ id: "m9" }, { id: "m8" }];

  it("continues after the last record, and stops at an empty page or one shorter than the limit", () => {
    expect(next(afterLast, {}, undefined, two).next).toBe("before=m8");
    expect(next(afterLast, {}, { query: { limit: 3 } }, two)).toEqual({ next: null, issues: [] });
    expect(next(afterLast, {}, undefined, [{ id: "m1" }])).toEqual({ next: null, issues: [] });
    expect(next(afterLast, {}, undefined, [])).toEqual({ next: null, issues: [] });
    expect(next(afterLast, {}, undefined, [{ id: "m9" }, { name: "no id" }]).issues[0]?.message).toMatch(/the last record has no id/);
  });

  it("advances the offset sent by the records of the page", () => {
    expect(next(byOffset, {}, { query: {} }, two).next).toBe("offset=2");
    expect(next(byOffset, {}, { query: { offset: "40", limit: 2 } }, two).next).toBe("offset=42");
    expect(next(byOffset, {}, { query: { offset: 40, limit: 5 } }, two)).toEqual({ next: null, issues: [] });
    expect(next(byOffset, {}, { query: { offset: "x" } }, two).issues[0]?.message).toMatch(/offset is not a whole number/);
    expect(next(byOffset, {}, undefined, two).issues).toEqual([expect.objectContaining({ kind: "missing", field: "next" })]);
  });
});

const PARAMETERS: NextParameter[] = [
  { name: "team", in: "path", argument: "team" },
  {
    name: "status",
    in: "query",
    argument: "status",
    legend: [
      ["open", 1],
      ["shipped", 2],
    ],
  },
  { name: "page[number]", in: "query", argument: "page" },
  { name: "tag", in: "query", argument: "tag" },
  { name: "ids", in: "query", argument: "ids", style: "form", explode: false },
  { name: "filter", in: "query", argument: "filter", style: "deepObject", explode: true },
  { name: "q", in: "query", argument: "q" },
  { name: "done", in: "query", argument: "done" },
  { name: "size", in: "query", fixed: { value: 25 } },
];
const SCHEMA = {
  type: "object",
  properties: {
    team: { type: "string" },
    status: { type: "string", enum: ["open", "shipped"] },
    page: { type: "integer" },
    tag: { type: "array", items: { type: "string" } },
    ids: { type: "array", items: { type: "integer" } },
    filter: { type: "object", properties: { owner: { type: "string" }, age: { type: "integer" } } },
    q: { type: "string" },
    done: { type: "boolean" },
    next: { type: "string" },
  },
  additionalProperties: false,
};
const read = (args: unknown) => nextPageArguments("list_things", PARAMETERS, SCHEMA, args);

describe("next read back into arguments", () => {
  it("leaves arguments without next as they are", () => {
    const args = { team: "t1" };
    expect(read(args)).toEqual({ values: args, fromNext: [] });
    expect(read({ team: "t1", next: undefined })).toEqual({ values: { team: "t1", next: undefined }, fromNext: [] });
  });

  it("gives each parameter as its argument takes it, over the one the model passed", () => {
    expect(
      read({ team: "t1", page: 1, next: "status=2&page[number]=3&tag=a&tag=b&ids=4,5&filter[owner]=kim&filter[age]=7&q=x%20y&done=true" }),
    ).toEqual({
      values: {
        team: "t1",
        page: 3,
        status: "shipped",
        tag: ["a", "b"],
        ids: [4, 5],
        filter: { owner: "kim", age: 7 },
        q: "x y",
        done: true,
      },
      fromNext: ["status", "page", "tag", "ids", "filter", "q", "done"],
    });
  });

  it("passes a fixed parameter only with its fixed value", () => {
    expect(read({ next: "page[number]=2&size=25" })).toEqual({ values: { page: 2 }, fromNext: ["page"] });
    expect(read({ next: "page[number]=2&size=26" })).toEqual({
      error:
        'list_things: next would set "size", which this tool fixes to "25"; pass the `next` of a list_things result as it was given, with the other arguments as before',
    });
  });

  it.each([
    [7, /next must be text, not 7/],
    ["", /next is empty/],
    ["x".repeat(MAX_NEXT_CHARACTERS + 1), /next is longer than 2000 characters/],
    ["https://evil.example/things?page=2", /is a URL; it takes only the query parameters of this tool's own operation/],
    ["//evil.example/things?page=2", /is a URL/],
    ["/admin?page=2", /is a URL/],
    ["page[number]", /"page\[number\]" is not a name=value pair/],
    ["q=%E0%A4%A", /is not a query string/],
    ["admin=1", /carries "admin", which is not a query parameter this tool takes/],
    ["team=t2", /carries "team", which is not a query parameter this tool takes/],
    ["size=25", /sets no parameter this tool takes/],
    ["q=a&q=b", /gives "q" twice/],
    ["filter=x&filter[owner]=kim", /gives "filter" both whole and by members/],
  ])("refuses %j", (token, message) => {
    const outcome = read({ team: "t1", next: token });
    expect("error" in outcome && outcome.error).toMatch(message);
  });

  it("reads back every next it makes, whatever the values hold", () => {
    const names = ["q", "page[number]", "filter[owner]"];
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.constantFrom(...names), { minLength: 1 })
          .chain((names) =>
            fc.tuple(fc.constant(names), fc.array(fc.string({ unit: "grapheme" }), { minLength: names.length, maxLength: names.length })),
          ),
        ([names, values]) => {
          const pairs = names.map((name, i) => [name, name === "page[number]" ? String(values[i]!.length) : values[i]!] as const);
          const outcome = read({ next: nextToken(pairs) });
          expect(outcome).not.toHaveProperty("error");
          const given = (outcome as { values: Record<string, any> }).values;
          for (const [name, value] of pairs) {
            if (name === "q") expect(given["q"]).toBe(value);
            if (name === "page[number]") expect(given["page"]).toBe(Number(value));
            if (name === "filter[owner]") expect(given["filter"]).toEqual({ owner: value });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a call with next", () => {
  const call: ToolCall = {
    method: "get",
    path: "/things",
    nextPage: true,
    parameters: [
      { name: "filter", in: "query", argument: "filter", shortIds: false, style: "deepObject", explode: true },
      { name: "limit", in: "query", argument: "limit", shortIds: false },
      { name: "tenant", in: "query", fixed: { value: "acme" }, shortIds: false },
    ],
  };
  const schema = {
    type: "object",
    properties: {
      filter: { type: "object", properties: { age: { type: "integer" } }, additionalProperties: false },
      limit: { type: "integer" },
      next: { type: "string" },
    },
    additionalProperties: false,
  };
  const client = (sent: unknown[]) => ({
    GET: async (path: string, init: { params: { query: Record<string, unknown> } }) => {
      sent.push(init.params.query);
      return {
        data: { things: [] },
        response: { status: 200, ok: true, url: `https://api.example.com${path}?limit=2`, headers: new Headers({ Link: "<x>; rel=next" }) },
      };
    },
  });

  it("sends the arguments next stands for, and gives the projection the request's URL, the headers and the query sent", async () => {
    const sent: unknown[] = [];
    const exchanges: PageExchange[] = [];
    const outcome = await callTool(
      client(sent),
      "list_things",
      call,
      schema,
      { limit: 2, next: "filter[age]=7&tenant=acme" },
      async (_body, projection) => {
        exchanges.push(projection.exchange!);
        return { things: [] };
      },
    );
    expect(outcome).toEqual({ result: { things: [] }, text: '{"things":[]}' });
    expect(sent).toEqual([{ filter: { age: 7 }, limit: 2, tenant: "acme" }]);
    expect(exchanges[0]!.url).toBe("https://api.example.com/things?limit=2");
    expect(exchanges[0]!.query).toEqual({ filter: { age: 7 }, limit: 2, tenant: "acme" });
    expect(exchanges[0]!.headers!.get("link")).toBe("<x>; rel=next");
  });

  it("gives the request's URL where the response's is empty, as a mock's or a cache's Response is", async () => {
    const exchanges: PageExchange[] = [];
    const unaddressed = {
      GET: async (path: string) => ({
        data: { things: [] },
        request: new Request(`https://api.example.com${path}?limit=2`),
        response: new Response("{}", { status: 200 }),
      }),
    };
    await callTool(unaddressed, "list_things", call, schema, { limit: 2 }, async (_body, projection) => {
      exchanges.push(projection.exchange!);
      return { things: [] };
    });
    expect(exchanges[0]!.url).toBe("https://api.example.com/things?limit=2");
    // And so a next URL on another host is refused, as it is where the response says where it came from.
    const rule: NextPageRule = { path: "/things", source: { body: ["next_url"] }, ...settable("cursor") };
    expect(next(rule, { next_url: "https://evil.example/things?cursor=x" }, exchanges[0]).issues[0]?.message).toMatch(/on another host/);
  });

  it("names next when a value it carries does not fit the input schema, and sends nothing", async () => {
    const sent: unknown[] = [];
    const outcome = await callTool(client(sent), "list_things", call, schema, { next: "filter[age]=old" }, async () => ({}));
    expect(outcome).toEqual({
      error:
        'list_things: next is not a page this tool can ask for: filter.age must be integer, not "old"; pass the `next` of a list_things result as it was given',
    });
    expect(sent).toEqual([]);
  });
});
