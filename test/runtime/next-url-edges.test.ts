// A next URL is followed only as the API wrote it: the same path, spelled the same way, and a query
// whose escapes are text; anything else gives no `next` and an issue saying why.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, type ToolCall } from "../../templates/runtime/call-tool.js";
import { context, type PageExchange, type ProjectionIssue } from "../../templates/runtime/context.js";
import { nextPage, type NextPageRule } from "../../templates/runtime/next-page.js";
import { type Resolver, resolveLabels } from "../../templates/runtime/resolvers.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

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
  return { next: nextPage(RULE, { response: { next_url: nextUrl }, records: [{}], returned: 1, exchange, ctx }), issues };
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

  it("gives no next for a trailing slash when the request's URL is not known either, nor for a host it cannot check", () => {
    expect(next("/v1/urls/?page=2", { query: {} }).next).toBeNull();
    expect(next("/v1/urls?page=2", { query: {} }).next).toBe("page=2");
    expect(next("https://api.example.com/v1/urls?page=2", { query: {} }).next).toBeNull();
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

describe("a next URL repeating a member of an exploded form object the request sent", () => {
  const PARAMETERS = [
    { name: "page", in: "query", argument: "page" },
    { name: "opts", in: "query", argument: "opts", style: "form", explode: true },
  ] as const;
  const PAGES: NextPageRule = {
    path: "/pages",
    source: { header: "link" },
    parameters: PARAMETERS,
    schema: { properties: { page: { type: "string" }, opts: { type: "object", properties: { sort: { type: "string" } } } } },
  };
  const linked = (target: string) => {
    const issues: ProjectionIssue[] = [];
    const ctx = context("list_pages", { onIssue: (issue) => issues.push(issue) });
    const exchange: PageExchange = {
      url: "https://api.example.com/pages?sort=a",
      headers: { get: (name) => (name === "link" ? `<${target}>; rel="next"` : null) },
      query: { opts: { sort: "a" } },
    };
    return { next: nextPage(PAGES, { response: {}, records: [{}], returned: 1, exchange, ctx }), issues };
  };

  it("leaves it out of next, as the object passed again sends it", async () => {
    const { next: token, issues } = linked("https://api.example.com/pages?page=2&sort=a");
    expect([token, issues]).toEqual(["page=2", []]);
    const sent: string[] = [];
    const client = {
      GET: async (
        _path: string,
        init: { params: { query: Record<string, unknown> }; querySerializer: (q: Record<string, unknown>) => string },
      ) => {
        sent.push(init.querySerializer(init.params.query));
        return { data: { pages: [] }, response: { status: 200, ok: true } };
      },
    };
    const call: ToolCall = {
      method: "get",
      path: "/pages",
      nextPage: true,
      parameters: PARAMETERS.map((parameter) => ({ ...parameter, shortIds: false })),
    };
    const schema = {
      type: "object",
      properties: { ...PAGES.schema["properties"]!, next: { type: "string" } },
      additionalProperties: false,
    };
    const outcome = await callTool(client, "list_pages", call, schema, { next: token, opts: { sort: "a" } }, async (data) => data);
    expect(outcome).not.toHaveProperty("error");
    expect(sent).toEqual(["page=2&sort=a"]);
  });

  it("gives no next where the next page changes the member, which no next can carry", () => {
    const { next: token, issues } = linked("https://api.example.com/pages?page=2&sort=b");
    expect(token).toBeNull();
    expect(issues).toEqual([
      expect.objectContaining({
        kind: "unusable",
        message: expect.stringMatching(/carries "sort", which is not a query parameter this tool takes/),
      }),
    ]);
  });
});

describe("an exploded form object in the tool's input", () => {
  const spec = {
    openapi: "3.0.3",
    info: { title: "pages", version: "1" },
    paths: {
      "/pages": {
        get: {
          operationId: "listPages",
          parameters: [
            {
              name: "opts",
              in: "query",
              style: "form",
              explode: true,
              schema: { type: "object", properties: { sort: { type: "string" } } },
            },
            { name: "extra", in: "query", schema: { type: "object", additionalProperties: { type: "string" } } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: { type: "object", properties: { pages: { type: "array", items: { $ref: "#/components/schemas/Page" } } } },
                },
              },
            },
          },
        },
      },
    },
    components: { schemas: { Page: { type: "object", properties: { name: { type: "string" } } } } },
  };
  const annotation = `spec: openapi.json
output: out
resources:
  page:
    schema: Page
    fields:
      name: keep
tools:
  list_pages:
    operation: listPages
`;

  it("takes only the members the spec declares, where it leaves others unsaid; a free map the spec declares stays free", async () => {
    const dir = tempDir("projector-next-url-edges-");
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
    writeFileSync(join(dir, "projector.yaml"), annotation);
    const output = await generateFrom(join(dir, "projector.yaml"));
    const generated = await importGenerated<{
      createTools: (options: object) => { list_pages: (args: unknown) => Promise<{ error?: string }> };
    }>(output.files);
    const sent: string[] = [];
    const client = {
      GET: async (
        _path: string,
        init: { params: { query: Record<string, unknown> }; querySerializer: (q: Record<string, unknown>) => string },
      ) => {
        sent.push(init.querySerializer(init.params.query));
        return { data: { pages: [] }, response: { status: 200, ok: true } };
      },
    };
    const tools = generated.createTools({ client, resolvers: {} });
    expect(await tools.list_pages({ opts: { sort: "a", api_key: "c" } })).toEqual({
      error: expect.stringMatching(/^list_pages: bad arguments: opts\.api_key/),
    });
    expect(sent).toEqual([]);
    expect(await tools.list_pages({ opts: { sort: "a" }, extra: { lang: "en" } })).not.toHaveProperty("error");
    expect(sent).toEqual(["sort=a&lang=en"]);
  });
});
