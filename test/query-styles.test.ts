import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { querySerialization } from "../src/model/operations.js";
import { callTool, queryStringFor, type QueryParameterStyle, type ToolCall } from "../templates/runtime/index.js";

/** An openapi-fetch client whose fetch records each URL and answers `{}`. */
function recordingClient() {
  const urls: string[] = [];
  const client = createClient<any>({
    baseUrl: "https://api.example.com",
    fetch: async (request: Request) => {
      urls.push(request.url);
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  return { client, urls };
}

/** The query string openapi-fetch sends with the runtime's serializer for one parameter. */
async function sent(parameter: Omit<QueryParameterStyle, "name" | "in">, value: unknown, name = "p"): Promise<string> {
  const { client, urls } = recordingClient();
  await client.GET("/things", {
    params: { query: { [name]: value } },
    querySerializer: queryStringFor([{ name, in: "query", ...parameter }]),
  });
  return urls[0]!.replace("https://api.example.com/things", "");
}

describe("query parameters as the spec declares them, through a real openapi-fetch client", () => {
  it.each([
    ["form, exploded array", { style: "form", explode: true }, ["a", "b"], "?p=a&p=b"],
    ["form, unexploded array", { style: "form", explode: false }, ["a", "b"], "?p=a,b"],
    ["form by default (exploded)", {}, ["a", "b"], "?p=a&p=b"],
    ["spaceDelimited array", { style: "spaceDelimited", explode: false }, ["a", "b"], "?p=a%20b"],
    ["pipeDelimited array", { style: "pipeDelimited", explode: false }, ["a", "b"], "?p=a|b"],
    ["form, exploded object", { style: "form", explode: true }, { x: 1, y: "z" }, "?x=1&y=z"],
    ["form, unexploded object", { style: "form", explode: false }, { x: 1, y: "z" }, "?p=x,1,y,z"],
    ["deepObject", { style: "deepObject", explode: true }, { status: "open", rank: 2 }, "?p[status]=open&p[rank]=2"],
    ["a primitive", { style: "form", explode: true }, "a b&c", "?p=a%20b%26c"],
    ["values holding another style's delimiter", { style: "form", explode: false }, ["a|b", "c d"], "?p=a%7Cb,c%20d"],
    ["an empty array", { style: "form", explode: false }, [], ""],
  ] as const)("%s", async (_, parameter, value, expected) => {
    expect(await sent(parameter as Omit<QueryParameterStyle, "name" | "in">, value)).toBe(expected);
  });

  it("keeps the brackets of a name and escapes what would break the query", async () => {
    expect(await sent({ style: "form", explode: false }, ["a", "b"], "filter[id]")).toBe("?filter[id]=a,b");
    expect(await sent({ style: "form", explode: true }, "x", "a&b=c")).toBe("?a%26b%3Dc=x");
  });

  it("writes each parameter of one request by its own style", async () => {
    const { client, urls } = recordingClient();
    const serializer = queryStringFor([
      { name: "filter[id]", in: "query", style: "form", explode: false },
      { name: "tag", in: "query", style: "form", explode: true },
      { name: "filter", in: "query", style: "deepObject", explode: true },
    ]);
    await client.GET("/things", {
      params: { query: { "filter[id]": ["1", "2"], tag: ["x", "y"], filter: { state: "open" } } },
      querySerializer: serializer,
    });
    expect(urls).toEqual(["https://api.example.com/things?filter[id]=1,2&tag=x&tag=y&filter[state]=open"]);
  });
});

describe("callTool sends what the spec declares", () => {
  const call: ToolCall = {
    method: "get",
    path: "/items/{item_id}",
    parameters: [
      { name: "item_id", in: "path", argument: "item_id", shortIds: false },
      { name: "filter[id]", in: "query", argument: "ids", shortIds: false, style: "form", explode: false },
    ],
  };
  const schema = {
    type: "object",
    properties: { item_id: { type: "string" }, ids: { type: "array", items: { type: "string" } } },
    required: ["item_id"],
  };

  it("writes an unexploded form array with commas, where openapi-fetch's default would repeat the name", async () => {
    const { client, urls } = recordingClient();
    const outcome = await callTool(client, "get_item", call, schema, { item_id: "i1", ids: ["a", "b"] }, async (r) => r);
    expect(outcome).toEqual({ result: {}, text: "{}" });
    expect(urls).toEqual(["https://api.example.com/items/i1?filter[id]=a,b"]);
  });

  it("escapes reserved characters in a path parameter, so an id never changes the path", async () => {
    const { client, urls } = recordingClient();
    await callTool(client, "get_item", call, schema, { item_id: "a/b?c#d e%" }, async (r) => r);
    expect(urls).toEqual(["https://api.example.com/items/a%2Fb%3Fc%23d%20e%25"]);
  });
});

describe("a query parameter's style as the model reads its declaration", () => {
  it.each([
    ["nothing declared: form, exploded", {}, { style: "form", explode: true }],
    ["form, explode false", { style: "form", explode: false }, { style: "form", explode: false }],
    ["spaceDelimited: not exploded unless it says so", { style: "spaceDelimited" }, { style: "spaceDelimited", explode: false }],
    ["pipeDelimited, exploded", { style: "pipeDelimited", explode: true }, { style: "pipeDelimited", explode: true }],
    ["deepObject", { style: "deepObject", explode: true }, { style: "deepObject", explode: true }],
    ["a path style on a query parameter reads as form", { style: "simple" }, { style: "form", explode: true }],
  ] as const)("%s", (_, declared, expected) => {
    expect(querySerialization({ name: "p", in: "query", ...declared })).toEqual(expected);
  });
});
