// A next URL is followed only as the API wrote it: the same path, spelled the same way, and a query
// whose escapes are text; anything else gives no `next` and an issue saying why.
import { describe, expect, it } from "vitest";
import { callTool, type ToolCall } from "../../templates/runtime/call-tool.js";
import { context, type PageExchange, type ProjectionIssue } from "../../templates/runtime/context.js";
import { nextPage, type NextPageRule } from "../../templates/runtime/next-page.js";
import { type Resolver, resolveLabels } from "../../templates/runtime/resolvers.js";

const RULE: NextPageRule = {
  path: "/urls",
  source: { body: ["next_url"] },
  parameters: [{ name: "page", in: "query", argument: "page" }],
  schema: { properties: { page: { type: "string" } } },
};
const REQUEST: PageExchange = { url: "https://api.example.com/urls", query: {} };

function next(nextUrl: string, exchange: PageExchange | undefined = REQUEST) {
  const issues: ProjectionIssue[] = [];
  const ctx = context("list_urls", { onIssue: (issue) => issues.push(issue) });
  return { next: nextPage(RULE, { next_url: nextUrl }, [{}], 1, exchange, ctx), issues };
}

describe("a next URL whose query escapes are not UTF-8 text", () => {
  it.each(["?page=%ED%A0%80", "https://api.example.com/urls?page=%FF", "?page=a%C3", "?page%80=1"])(
    "gives no next for %s, rather than one holding U+FFFD",
    (url) => {
      const { next: token, issues } = next(url);
      expect(token).toBeNull();
      expect(issues).toEqual([
        expect.objectContaining({ kind: "unusable", field: "next", message: expect.stringMatching(/not UTF-8 text/) }),
      ]);
    },
  );

  it("still gives a next for escaped UTF-8 text and for a % that starts no escape", () => {
    expect(next("?page=%C3%A9").next).toBe("page=%C3%A9");
    expect(next("?page=50%").next).toBe("page=50%25");
  });
});

describe("a next URL naming the operation's path otherwise", () => {
  it.each([
    "https://api.example.com/urls/?page=2",
    "https://api.example.com/urls/.?page=2",
    "https://api.example.com/urls/%2e?page=2",
    "/urls/?page=2",
    "/urls/./?page=2",
  ])("gives no next for %s, a path the API did not name", (url) => {
    const { next: token, issues } = next(url);
    expect(token).toBeNull();
    expect(issues).toEqual([
      expect.objectContaining({ kind: "unusable", field: "next", message: expect.stringMatching(/names another path/) }),
    ]);
  });

  it("gives no next for a trailing slash when the request's URL is not known either", () => {
    expect(next("https://api.example.com/v1/urls/?page=2", { query: {} }).next).toBeNull();
    expect(next("https://api.example.com/v1/urls?page=2", { query: {} }).next).toBe("page=2");
  });

  it("follows the same path, written with dot segments the URL parser removes", () => {
    expect(next("https://api.example.com/x/../urls?page=2").next).toBe("page=2");
  });
});

describe("a call's timeoutMs", () => {
  const LIST: ToolCall = { method: "get", path: "/urls", parameters: [] };
  const client = { GET: async () => ({ data: { urls: [{ owner: "u1" }] }, response: { status: 200, ok: true } }) };

  it("bounds the resolvers too: one that never answers ends the call at the call's timeout, and is told to stop", async () => {
    let resolverSignal: AbortSignal | undefined;
    const neverAnswers: Resolver = (_ids, call) => {
      resolverSignal = call?.signal;
      return new Promise(() => {});
    };
    const outcome = await callTool(
      client,
      "list_urls",
      LIST,
      { type: "object", properties: {}, additionalProperties: false },
      {},
      (_data, projection) => resolveLabels({ owners: ["u1"] }, { owners: neverAnswers }, new Map(), projection),
      { timeoutMs: 200 },
    );
    expect(outcome).toEqual({
      error: expect.stringMatching(/^list_urls: the call did not finish within 0\.2 seconds, the time it has: resolver "owners" failed/),
    });
    expect(resolverSignal?.aborted).toBe(true);
  });
});
