// An exploded query object's members go out as query parameters of their own, so each must stay
// apart from every other name the query carries: a member that a server reads as another parameter
// once it trims or cuts the name (PHP drops leading spaces and stops at a NUL), a member two objects
// both send, and two members of one object the API may read as one are refused and nothing is sent.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { queryStringFor } from "../../templates/runtime/query-string.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const spec = {
  openapi: "3.0.3",
  info: { title: "items", version: "1" },
  paths: {
    "/items": {
      get: {
        operationId: "listItems",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
          { name: "tenant", in: "query", schema: { type: "string" } },
          {
            name: "opts",
            in: "query",
            style: "form",
            explode: true,
            schema: { type: "object", properties: { sort: { type: "string" }, order: { type: "string" } } },
          },
          {
            name: "more",
            in: "query",
            style: "form",
            explode: true,
            schema: { type: "object", additionalProperties: { type: "string" } },
          },
          {
            name: "filter",
            in: "query",
            style: "deepObject",
            explode: true,
            schema: { type: "object", additionalProperties: { type: "string" } },
          },
        ],
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { items: { type: "array", items: { $ref: "#/components/schemas/Item" } } },
                },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Item: { type: "object", properties: { name: { type: "string" } } } } },
};

const annotation = `spec: openapi.json
output: out
resources:
  item:
    schema: Item
    fields:
      name: keep
tools:
  list_items:
    operation: listItems
    list: items
    rows: items
    inputs:
      tenant: { fixed: acme }
`;

type Outcome = { error?: string; result?: unknown };
type Tools = { list_items: (args: unknown) => Promise<Outcome> };

let createTools: (options: object) => Tools;

beforeAll(async () => {
  const dir = tempDir("projector-query-object-members-");
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
  writeFileSync(join(dir, "projector.yaml"), annotation);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  ({ createTools } = await importGenerated<{ createTools: typeof createTools }>(output.files));
});

/** Tools over a client that writes each query with the operation's serializer, as openapi-fetch does. */
function toolsSending() {
  const sent: string[] = [];
  const client = {
    GET: async (path: string, init: { params: { query?: Record<string, unknown> }; querySerializer?: (q: object) => string }) => {
      const query = init.params.query && init.querySerializer ? init.querySerializer(init.params.query) : "";
      sent.push(`${path}${query ? `?${query}` : ""}`);
      return { data: { items: [] }, response: { ok: true, status: 200 } };
    },
  };
  return { tools: createTools({ client }), sent };
}

describe("a query object's member name with whitespace around it or a NUL in it", () => {
  it.each([
    [" tenant", "tenant"],
    ["tenant ", "tenant"],
    ["\ttenant", "tenant"],
    ["\u00a0tenant", "tenant"],
    ["\u3000tenant\u2003", "tenant"],
    ["tenant\u0000", "tenant"],
    ["tenant\u0000evil", "tenant"],
    [" LIMIT", "limit"],
  ])("%j, which the API may read as the parameter %s, is refused and nothing is sent", async (member, parameter) => {
    const { tools, sent } = toolsSending();
    const outcome = await tools.list_items({ more: { [member]: "evil" } });
    expect(outcome.error).toMatch(/^list_items: more cannot have a member named .*; leave that member out$/);
    expect(outcome.error).toContain(`which the API may read as ${parameter}`);
    expect(sent).toEqual([]);
  });

  it("is echoed escaped in the refusal", async () => {
    const { tools } = toolsSending();
    const outcome = await tools.list_items({ more: { "\ttenant\u0000x": "evil" } });
    expect(outcome.error).toBe(
      'list_items: more cannot have a member named "\\ttenant\\u0000x": it would be sent as "\\ttenant\\u0000x", which the API may read as tenant, another parameter of this operation; leave that member out',
    );
  });

  it("cannot lift a checked parameter past its maximum", async () => {
    const { tools, sent } = toolsSending();
    const outcome = await tools.list_items({ limit: 5, more: { " limit": "100000" } });
    expect(outcome.error).toContain("which the API may read as limit");
    expect(sent).toEqual([]);
  });

  it("is sent when the trimmed name is no parameter's", async () => {
    const { tools, sent } = toolsSending();
    const outcome = await tools.list_items({ more: { " colour": "red", "page size": "3" } });
    expect(outcome).toHaveProperty("result");
    expect(sent).toEqual(["/items?tenant=acme&%20colour=red&page%20size=3"]);
  });
});

describe("two exploded query objects", () => {
  it.each([
    [{ sort: "a" }, { sort: "b" }, '"sort"', '"sort"'],
    [{ order: "asc" }, { ORDER: "desc" }, '"order"', '"ORDER"'],
    [{ sort: "a" }, { " sort": "b" }, '"sort"', '" sort"'],
  ])("%j and %j, which send one parameter twice, are refused naming both", async (opts, more, first, second) => {
    const { tools, sent } = toolsSending();
    const outcome = await tools.list_items({ opts, more });
    expect(outcome.error).toBe(
      `list_items: opts's member ${first} and more's member ${second} would both be sent as a query parameter of their own, which the API may read as one parameter given twice; give it in only one of them`,
    );
    expect(sent).toEqual([]);
  });

  it("with members of different names are both sent", async () => {
    const { tools, sent } = toolsSending();
    const outcome = await tools.list_items({ opts: { sort: "a" }, more: { colour: "red" } });
    expect(outcome).toHaveProperty("result");
    expect(sent).toEqual(["/items?tenant=acme&sort=a&colour=red"]);
  });

  it("that clash make the query serializer throw, so nothing is sent", () => {
    const write = queryStringFor([
      { name: "opts", in: "query", style: "form", explode: true },
      { name: "more", in: "query", style: "form", explode: true },
    ]);
    expect(() => write({ opts: { sort: "a" }, more: { Sort: "b" } })).toThrow(/opts's member "sort" and more's member "Sort"/);
    expect(write({ opts: { sort: "a" }, more: { rank: "b" } })).toBe("sort=a&rank=b");
  });
});

describe("one query object's members that the API may read as one", () => {
  it.each([
    ["more", { sort: "a", SORT: "b" }],
    ["more", { sort: "a", " sort": "b" }],
    ["filter", { kind: "a", KIND: "b" }],
  ])("in %s, %j, are refused and nothing is sent", async (argument, members) => {
    const { tools, sent } = toolsSending();
    const outcome = await tools.list_items({ [argument]: members });
    expect(outcome.error).toMatch(
      new RegExp(
        `^list_items: ${argument} cannot have both a member named .* and one named .*: the API may read them as one; give only one of them$`,
      ),
    );
    expect(sent).toEqual([]);
  });
});
