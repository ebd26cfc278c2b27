// What the runtime writes into a request's URL, sent with the user's credentials: a path parameter
// stays one segment of the path the spec names, a join's id too, and a query object cannot give
// another parameter a value or add a level to its own; each query style goes out as the API reads it.
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import {
  createResolvers as createIncidentResolvers,
  type ListIncidentsResponse,
  projectListIncidents,
  type ProjectionIssue,
} from "../../specs/scenarios/rest-foreign-keys/generated/index.js";
import type { InputSchema } from "../../templates/runtime/arguments.js";
import { callTool, type CallParameter, type ToolCall } from "../../templates/runtime/call-tool.js";
import { queryStringFor, type QueryParameterStyle } from "../../templates/runtime/query-string.js";
import { resolveLabels } from "../../templates/runtime/resolvers.js";
import { specResolver, type SpecResolverSource } from "../../templates/runtime/spec-resolvers.js";

/** An openapi-fetch client whose fetch records each URL, without its origin, and answers `answer(url)`. */
function recordingClient(answer: (url: URL) => unknown = () => ({})) {
  const urls: string[] = [];
  const client = createClient<any>({
    baseUrl: "https://api.example.com",
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      urls.push(request.url.replace("https://api.example.com", ""));
      return new Response(JSON.stringify(answer(url)), { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  return { client, urls };
}

const asIs = async (response: unknown) => response;

describe("a path parameter is checked as openapi-fetch would write it, whatever its type", () => {
  const getBlob = (schema: object): [ToolCall, InputSchema] => [
    { method: "get", path: "/api/v1/blobs/{key}", parameters: [{ name: "key", in: "path", argument: "key", shortIds: false }] },
    { type: "object", properties: { key: schema }, required: ["key"] },
  ];
  const strings = { type: "array", items: { type: "string" } };

  it.each([
    [
      "an array of one `..`",
      strings,
      [".."],
      'key cannot be an array written into the path as "..": it would change which path is requested',
    ],
    ["an array of one `.`", strings, ["."], 'key cannot be an array written into the path as ".": it would change which path is requested'],
    ["an empty array", strings, [], 'key cannot be an array written into the path as "": it would change which path is requested'],
    [
      "an empty object, on a schema with no type",
      {},
      {},
      'key cannot be an object written into the path as "": it would change which path is requested',
    ],
    ["null, on a schema with no type", {}, null, "key cannot be null: it is part of the path; pass its value"],
    [
      "an array in an array, written as its String()",
      {},
      [[".."]],
      "key cannot be an array holding an array: each item is written into the path, so each must be a string, a number or a boolean",
    ],
    [
      "an array holding null",
      {},
      ["a", null],
      "key cannot be an array holding null: each item is written into the path, so each must be a string, a number or a boolean",
    ],
    [
      "an object holding an object",
      {},
      { a: {} },
      'key cannot be an object whose member "a" is an object: each member is written into the path, so each must be a string, a number or a boolean',
    ],
    [
      "an object whose member name openapi-fetch writes unescaped",
      {},
      { "x/../../admin": "1" },
      `key cannot have a member named "x/../../admin": member names are written into the path unescaped, so each must be letters, digits or - _ . ! ~ * ' ( )`,
    ],
  ])("refuses %s, naming the argument, and sends nothing", async (_, schema, value, error) => {
    const { client, urls } = recordingClient();
    const [call, inputSchema] = getBlob(schema);
    expect(await callTool(client, "get_blob", call, inputSchema, { key: value }, asIs)).toEqual({ error: `get_blob: ${error}` });
    expect(urls).toEqual([]);
  });

  it("refuses a fixed path value that would change the path, as it refuses an argument", async () => {
    const { client, urls } = recordingClient();
    const call: ToolCall = {
      method: "get",
      path: "/api/v1/{version}/blobs",
      parameters: [{ name: "version", in: "path", fixed: { value: [".."] }, shortIds: false }],
    };
    expect(await callTool(client, "list_blobs", call, { type: "object" }, {}, asIs)).toEqual({
      error: 'list_blobs: version cannot be an array written into the path as "..": it would change which path is requested',
    });
    expect(urls).toEqual([]);
  });

  it.each([
    ["a number", 7, "/api/v1/blobs/7"],
    ["a boolean", true, "/api/v1/blobs/true"],
    ["a string holding / ? # and %", "a/b?c#d%", "/api/v1/blobs/a%2Fb%3Fc%23d%25"],
    ["dots before a letter", "...x", "/api/v1/blobs/...x"],
    ["an escaped `..`, escaped again", "%2e%2e", "/api/v1/blobs/%252e%252e"],
    ["`..` after a comma", ["a", ".."], "/api/v1/blobs/a,.."],
    ["an object of scalars", { a: 1, b: "x/y" }, "/api/v1/blobs/a,1,b,x%2Fy"],
  ])("sends %s as one segment of the path", async (_, value, url) => {
    const { client, urls } = recordingClient();
    const [call, inputSchema] = getBlob({});
    expect(await callTool(client, "get_blob", call, inputSchema, { key: value }, asIs)).toEqual({ result: {}, text: "{}" });
    expect(urls).toEqual([url]);
  });
});

describe("ids a get-by-id resolver writes into its path, read from an API response", () => {
  const getPerson: SpecResolverSource = {
    method: "get",
    path: "/v1/people/{person_id}",
    parameter: { name: "person_id", in: "path" },
    concurrency: 2,
    records: ["person"],
    jsonapi: false,
    id: "key",
    label: ["name"],
  };
  const person = (url: URL) => {
    const key = decodeURIComponent(url.pathname.replace("/v1/people/", ""));
    return { person: { key, name: `P ${key}` } };
  };

  it("stay unresolved with an Error saying why when they would change the path, and no request is sent for them", async () => {
    const { client, urls } = recordingClient(person);
    const labels = await specResolver(client, getPerson)(["..", ".", "", "\ud800", "p1"]);
    expect(urls).toEqual(["/v1/people/p1"]);
    expect(labels.get("p1")).toBe("P p1");
    expect(String(labels.get(".."))).toBe(
      'Error: person_id cannot be "..": it would change which path is requested; no request was sent for it',
    );
    expect(String(labels.get("\ud800"))).toBe(
      "Error: person_id cannot be written into the URL: it holds a lone surrogate (half of a UTF-16 pair); no request was sent for it",
    );
    expect([".", ""].map((id) => labels.get(id) instanceof Error)).toEqual([true, true]);
  });

  it("never fail the other ids' lookups", async () => {
    const { client } = recordingClient(person);
    const labels = await resolveLabels({ people: new Set(["\ud800", "p1"]) }, { people: specResolver(client, getPerson) }, new Map());
    expect(labels.people.get("p1")).toBe("P p1");
  });

  it("through createResolvers: the join is an unresolved marker, reported through onIssue", async () => {
    const { client, urls } = recordingClient((url) => {
      const id = decodeURIComponent(url.pathname.replace("/users/", ""));
      return { user: { id, profile: { name: `User ${id}` } } };
    });
    const page = {
      incidents: [
        {
          id: "I1",
          incident_number: 1,
          title: "t",
          urgency: "high",
          service: null,
          owner_id: "..",
          watcher_ids: ["u1"],
          created_at: "2015-10-06T21:30:42Z",
        },
      ],
      limit: 25,
      offset: 0,
      total: 1,
      more: false,
    } as unknown as ListIncidentsResponse;
    const issues: ProjectionIssue[] = [];
    const result = await projectListIncidents(
      page,
      { ...createIncidentResolvers(client), services: () => new Map() },
      { onIssue: (issue) => issues.push(issue) },
    );
    expect(urls).toEqual(["/users/u1"]);
    expect(result.incidents[0]).toMatchObject({ owner: { unresolved: ".." }, watchers: ["User u1"] });
    expect(issues).toEqual([
      {
        kind: "unresolved",
        resource: "incident",
        field: "owner_id",
        value: "..",
        resolver: "users",
        message:
          'incident.owner_id: ..: resolver "users" failed for it: user_id cannot be "..": it would change which path is requested; no request was sent for it',
      },
    ]);
  });
});

describe("a query object cannot change another parameter or add a level to its own", () => {
  const parameters: CallParameter[] = [
    { name: "tenant", in: "query", fixed: { value: "acme" }, shortIds: false },
    { name: "status", in: "query", argument: "status", shortIds: false },
    { name: "filter[id]", in: "query", argument: "ids", shortIds: false, style: "form", explode: false },
    { name: "opts", in: "query", argument: "opts", shortIds: false, style: "form", explode: true },
    { name: "filter", in: "query", argument: "filter", shortIds: false, style: "deepObject", explode: true },
  ];
  const listTickets: ToolCall = { method: "get", path: "/tickets", parameters };
  const free = { type: "object", additionalProperties: { type: "string" } };
  const schema = {
    type: "object",
    properties: { status: { type: "string" }, ids: { type: "array", items: { type: "string" } }, opts: free, filter: free },
  };
  const call = async (args: object) => {
    const { client, urls } = recordingClient();
    const outcome = await callTool(client, "list_tickets", listTickets, schema, args, asIs);
    return { outcome, urls };
  };

  it.each([
    [
      "a fixed parameter's name, as an exploded member",
      { opts: { tenant: "evil" } },
      'opts cannot have a member named "tenant": it would be sent as tenant, another parameter of this operation; leave that member out',
    ],
    [
      "another parameter's name, as an exploded member",
      { opts: { status: "closed" } },
      'opts cannot have a member named "status": it would be sent as status, another parameter of this operation; leave that member out',
    ],
    [
      "another parameter's name, as a deepObject member",
      { filter: { id: "x" } },
      'filter cannot have a member named "id": it would be sent as filter[id], another parameter of this operation; leave that member out',
    ],
    [
      "a bracket in a deepObject member name",
      { filter: { "status][$ne": "closed" } },
      'filter cannot have a member named "status][$ne": the API would read its bracket as another level of the parameter; leave that member out',
    ],
    [
      "a bracket in an exploded member name",
      { opts: { "tenant[]": "evil" } },
      'opts cannot have a member named "tenant[]": the API would read its bracket as another level of the parameter; leave that member out',
    ],
  ])("refuses %s, and sends nothing", async (_, args, error) => {
    const { outcome, urls } = await call(args);
    expect(outcome).toEqual({ error: `list_tickets: ${error}` });
    expect(urls).toEqual([]);
  });

  it("sends members that name no other parameter, escaped whole", async () => {
    const { outcome, urls } = await call({ opts: { "a&b=c": "1", opts: "2" }, filter: { "x#y": "z" } });
    expect(outcome).toEqual({ result: {}, text: "{}" });
    expect(urls).toEqual(["/tickets?tenant=acme&a%26b%3Dc=1&opts=2&filter[x%23y]=z"]);
  });

  it("refuses in the serializer too, so a request built without callTool is not sent", async () => {
    const { client, urls } = recordingClient();
    const serializer = queryStringFor(parameters);
    await expect(
      client.GET("/tickets", { params: { query: { tenant: "acme", opts: { tenant: "evil" } } }, querySerializer: serializer }),
    ).rejects.toThrow('query parameter opts cannot have a member named "tenant"');
    await expect(client.GET("/tickets", { params: { query: { filter: { "a]": "b" } } }, querySerializer: serializer })).rejects.toThrow(
      'query parameter filter cannot have a member named "a]"',
    );
    expect(urls).toEqual([]);
  });
});

/** The query string a real openapi-fetch client sends with the runtime's serializer for one parameter. */
async function sent(parameter: Omit<QueryParameterStyle, "name" | "in">, value: unknown): Promise<string> {
  const { client, urls } = recordingClient();
  await client.GET("/things", {
    params: { query: { p: value } },
    querySerializer: queryStringFor([{ name: "p", in: "query", ...parameter }]),
  });
  return urls[0]!.replace("/things?", "");
}

// The table docs/generated-code.md gives, row by row.
describe("each declared style and explode, for a primitive, an array and an object", () => {
  const primitive = "x";
  const array = ["a", "b"];
  const object = { k: "v", n: 1 };
  it.each([
    ["form", true, "p=x", "p=a&p=b", "k=v&n=1"],
    ["form", false, "p=x", "p=a,b", "p=k,v,n,1"],
    ["spaceDelimited", false, "p=x", "p=a%20b", "p=k%20v%20n%201"],
    ["spaceDelimited", true, "p=x", "p=a&p=b", "k=v&n=1"],
    ["pipeDelimited", false, "p=x", "p=a|b", "p=k|v|n|1"],
    ["pipeDelimited", true, "p=x", "p=a&p=b", "k=v&n=1"],
    ["deepObject", true, "p=x", "p[]=a&p[]=b", "p[k]=v&p[n]=1"],
    ["deepObject", false, "p=x", "p[]=a&p[]=b", "p[k]=v&p[n]=1"],
  ] as const)("%s, explode %s", async (style, explode, forPrimitive, forArray, forObject) => {
    expect([
      await sent({ style, explode }, primitive),
      await sent({ style, explode }, array),
      await sent({ style, explode }, object),
    ]).toEqual([forPrimitive, forArray, forObject]);
  });

  it("sends an array declared deepObject as the API declaring it documents: Stripe's expand[]", async () => {
    expect(await sent({ style: "deepObject", explode: true }, ["customer", "invoice.subscription"])).toBe(
      "p[]=customer&p[]=invoice.subscription",
    );
  });
});
