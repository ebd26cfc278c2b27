// A query object the model fills cannot reach a parameter the annotation drops or fixes: not by its
// exact name, another case, PHP's `.` for `_`, or the base name of a bracketed parameter.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateFrom, importGenerated, tempDir } from "./helpers/pipeline.js";

const spec = {
  openapi: "3.0.3",
  info: { title: "items", version: "1" },
  paths: {
    "/items": {
      get: {
        operationId: "listItems",
        parameters: [
          { name: "include_deleted", in: "query", schema: { type: "boolean" } },
          { name: "account[id]", in: "query", schema: { type: "string" } },
          { name: "tenant", in: "query", schema: { type: "string" } },
          { name: "page_size", in: "query", schema: { type: "integer" } },
          {
            name: "extra",
            in: "query",
            style: "form",
            explode: true,
            schema: { type: "object", additionalProperties: { type: "string" } },
          },
          { name: "filter", in: "query", style: "deepObject", schema: { type: "object", additionalProperties: { type: "string" } } },
        ],
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: { type: "object", properties: { items: { type: "array", items: { $ref: "#/components/schemas/Item" } } } },
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
    inputs:
      include_deleted: { drop: "the model must never see deleted records" }
      account[id]: { fixed: acct_me }
      tenant: { fixed: acme }
`;

type Tools = { list_items: (args: unknown) => Promise<{ error?: string; result?: unknown }> };

async function tools() {
  const dir = tempDir("projector-query-members-");
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
  writeFileSync(join(dir, "projector.yaml"), annotation);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  const generated = await importGenerated<{ createTools: (options: object) => Tools }>(output.files);
  const sent: unknown[] = [];
  const client = {
    GET: async (_path: string, init: { params: unknown }) => {
      sent.push(init.params);
      return { data: { items: [] }, response: { status: 200, ok: true } };
    },
  };
  return { tools: generated.createTools({ client, resolvers: {} }), sent };
}

describe("a query object's members", () => {
  it.each([
    [{ extra: { include_deleted: "true" } }, "include_deleted"],
    [{ extra: { Tenant: "evil" } }, "tenant"],
    [{ extra: { account: "acct_victim" } }, "account[id]"],
    [{ extra: { "page.size": "500" } }, "page_size"],
    [{ filter: { "": "x" } }, "an empty name"],
  ])("%j is refused (%s), and nothing is sent", async (args, named) => {
    const { tools: made, sent } = await tools();
    const outcome = await made.list_items(args);
    expect(outcome.error).toMatch(/^list_items: (extra|filter) cannot have a member/);
    expect(outcome.error).toContain(named);
    expect(sent).toEqual([]);
  });

  it("that name no other parameter are sent", async () => {
    const { tools: made, sent } = await tools();
    expect(await made.list_items({ extra: { colour: "red" }, filter: { status: "open" } })).toHaveProperty("result");
    expect(sent).toHaveLength(1);
  });
});
