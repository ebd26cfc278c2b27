// What comes back from outside is read as the spec declares it: a query object's member name the
// API may read as another parameter is refused under every case folding a server may apply, a code
// of another type than a looked-up legend's is never sent to its resolver, an id the URL cannot
// carry leaves only itself unresolved, and a resolver's answer naming its record with an id of
// another type than the spec's labels nothing.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { queryValueProblem } from "../../templates/runtime/query-string.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const json = (schema: object) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
const list = (name: string, items: object) => ({ name, in: "query", style: "form", explode: false, schema: { type: "array", items } });

const spec = {
  openapi: "3.0.3",
  info: { title: "things", version: "1" },
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        parameters: [
          { name: "scope", in: "query", schema: { type: "string" } },
          { name: "ids", in: "query", schema: { type: "string" } },
          { name: "key", in: "query", schema: { type: "string" } },
          {
            name: "extra",
            in: "query",
            style: "form",
            explode: true,
            schema: { type: "object", additionalProperties: { type: "string" } },
          },
        ],
        responses: json({ type: "object", properties: { things: { type: "array", items: { $ref: "#/components/schemas/Thing" } } } }),
      },
    },
    "/kinds": {
      get: {
        operationId: "listKinds",
        parameters: [list("codes", { type: "integer" })],
        responses: json({ type: "array", items: { type: "object", properties: { code: { type: "integer" }, label: { type: "string" } } } }),
      },
    },
    "/users": {
      get: {
        operationId: "listUsers",
        parameters: [list("ids", { type: "string" })],
        responses: json({ type: "array", items: { $ref: "#/components/schemas/User" } }),
      },
    },
    "/users/{user_id}": {
      get: {
        operationId: "getUser",
        parameters: [{ name: "user_id", in: "path", required: true, schema: { type: "string" } }],
        responses: json({ $ref: "#/components/schemas/User" }),
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        properties: {
          name: { type: "string" },
          category: { type: "integer" },
          owner_id: { type: "string" },
          reviewer_id: { type: "string" },
        },
      },
      User: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
    },
  },
};

const annotation = `spec: openapi.json
output: out
resolvers:
  kinds: { label: label, id: code, operation: listKinds, ids: codes }
  users: { label: name, operation: listUsers, ids: ids }
  user: { label: name, operation: getUser }
resources:
  thing:
    schema: Thing
    fields:
      name: keep
      category: { legend: { resolver: kinds } }
      owner_id: { as: owner, join: users }
      reviewer_id: { as: reviewer, join: user }
tools:
  list_things:
    operation: listThings
    list: things
    rows: things
    inputs:
      scope: { fixed: mine }
`;

type Outcome = { error?: string; result?: { things: Record<string, unknown>[] } };
type Tools = { list_things: (args: unknown) => Promise<Outcome> };
type Answer = { path: string; query: string; params: { path?: Record<string, string> } };

let createTools: (options: object) => Tools;
let createResolvers: (client: object) => object;

beforeAll(async () => {
  const dir = tempDir("projector-resolver-answers-");
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
  writeFileSync(join(dir, "projector.yaml"), annotation);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  ({ createTools, createResolvers } = await importGenerated<{
    createTools: typeof createTools;
    createResolvers: typeof createResolvers;
  }>(output.files));
});

/**
 * Tools over a client that writes each query with the operation's serializer, as openapi-fetch
 * does (a throw there fails the request), and answers with `answer`.
 */
function toolsAnswering(answer: (request: Answer) => unknown) {
  const sent: string[] = [];
  const issues: string[] = [];
  const client = {
    GET: async (
      path: string,
      init: { params: { query?: Record<string, unknown>; path?: Record<string, string> }; querySerializer?: (q: object) => string },
    ) => {
      const query = init.params.query && init.querySerializer ? init.querySerializer(init.params.query) : "";
      sent.push(`${path}${query ? `?${query}` : ""}`);
      return { data: answer({ path, query, params: init.params }), response: { ok: true, status: 200 } };
    },
  };
  const tools = createTools({
    client,
    resolvers: createResolvers(client),
    onIssue: (issue: { message: string }) => issues.push(issue.message),
  });
  return { tools, sent, issues };
}

describe("a query object's member names", () => {
  it.each([
    ["ſcope", "scope"],
    ["ıds", "ids"],
    ["İds", "ids"],
    ["\u212Aey", "key"],
    ["ＳＣＯＰＥ", "scope"],
  ])("%j, which a case-insensitive server reads as %s, is refused and nothing is sent", async (member, parameter) => {
    const { tools, sent } = toolsAnswering(() => ({ things: [] }));
    const outcome = await tools.list_things({ extra: { [member]: "theirs" } });
    expect(outcome.error).toMatch(/^list_things: extra cannot have a member named/);
    expect(outcome.error).toContain(`which the API may read as ${parameter}`);
    expect(sent).toEqual([]);
  });

  it("that no folding makes another parameter's are sent", async () => {
    const { tools, sent } = toolsAnswering(() => ({ things: [] }));
    const outcome = await tools.list_things({ extra: { extra_field: "a", имя: "b", 名前: "c", scopes: "d" } });
    expect(outcome).toHaveProperty("result");
    expect(sent).toEqual([`/things?scope=mine&extra_field=a&${encodeURIComponent("имя")}=b&${encodeURIComponent("名前")}=c&scopes=d`]);
  });

  it("holding a lone surrogate are refused, not thrown on", () => {
    const parameters = [{ name: "extra", in: "query", style: "form" as const, explode: true }];
    expect(queryValueProblem(parameters, "extra", { "bad\udc00": "x" })).toMatch(/lone surrogate/);
    expect(queryValueProblem(parameters, "extra", { fine: "bad\udc00" })).toMatch(/lone surrogate/);
  });
});

describe("a legend looked up through a resolver, on an integer field", () => {
  it("marks a code of another type unusable and never sends it, and labels the integer codes", async () => {
    const { tools, sent, issues } = toolsAnswering(({ path }) =>
      path === "/kinds"
        ? [
            { code: 9007199254740992, label: "Code 992 (another record)" },
            { code: 10, label: "Ten" },
          ]
        : JSON.parse('{"things":[{"category":9007199254740993},{"category":10.5},{"category":"10"},{"category":10}]}'),
    );
    const outcome = await tools.list_things({});
    expect(outcome.result!.things.map((thing) => thing["category"])).toEqual([
      { unusable: "an integer past 2^53 cannot be shown exactly" },
      { unusable: "expected an integer code, got a number that is not whole" },
      { unusable: "expected an integer code, got string" },
      "Ten",
    ]);
    expect(sent.filter((url) => url.startsWith("/kinds"))).toEqual(["/kinds?codes=10"]);
    expect(issues.filter((issue) => issue.includes("category"))).toHaveLength(3);
  });
});

describe("a list resolver asked an id the URL cannot carry", () => {
  it("leaves that id unresolved with the reason and labels the others", async () => {
    const { tools, sent, issues } = toolsAnswering(({ path }) =>
      path === "/users"
        ? [{ id: "ok1", name: "OK" }]
        : {
            things: [
              { name: "a", owner_id: "bad\udc00" },
              { name: "b", owner_id: "ok1" },
            ],
          },
    );
    const outcome = await tools.list_things({});
    expect(outcome.error).toBeUndefined();
    const [bad, good] = outcome.result!.things;
    expect(bad!["owner"]).toHaveProperty("unresolved");
    expect(good!["owner"]).toEqual("OK");
    expect(sent).toContain("/users?ids=ok1");
    expect(issues.join("\n")).toMatch(/ids cannot be written into the URL: it holds a lone surrogate/);
  });
});

describe("a resolver's answer whose id is not of the type the spec declares", () => {
  it.each([
    ["a number", 5],
    ["a number written 5.0", 5.0],
  ])("labels nothing through a list resolver: %s for the text id 5", async (_, answered) => {
    const { tools, issues } = toolsAnswering(({ path }) =>
      path === "/users" ? [{ id: answered, name: "Five" }] : { things: [{ name: "a", owner_id: "5" }] },
    );
    const outcome = await tools.list_things({});
    expect(outcome.result!.things[0]!["owner"]).toEqual({ unresolved: "5" });
    expect(issues.join("\n")).toMatch(/another type than the spec declares \(text\); its label is not used/);
  });

  it("labels nothing through a get-by-id resolver, and a text id of the same record is labelled", async () => {
    const { tools } = toolsAnswering(({ path, params }) =>
      path === "/users/{user_id}"
        ? { id: params.path!["user_id"] === "5" ? 5 : params.path!["user_id"], name: "Someone" }
        : {
            things: [
              { name: "a", reviewer_id: "5" },
              { name: "b", reviewer_id: "6" },
            ],
          },
    );
    const outcome = await tools.list_things({});
    expect(outcome.result!.things.map((thing) => thing["reviewer"])).toEqual([{ unresolved: "5" }, "Someone"]);
  });
});
