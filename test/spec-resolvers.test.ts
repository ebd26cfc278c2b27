// Resolvers from the spec (`createResolvers`): requests through a real openapi-fetch client whose fetch is a recording fake.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { createResolvers, projectSearchTickets, ResolverError, type SearchTicketsResponse } from "../generated/support/index.js";
// The generated folder has its own copy of the runtime, and so its own ResolverError class.
import { ResolverError as RuntimeResolverError, resolveLabels, specResolver, type SpecResolverSource } from "../templates/runtime/index.js";
import { createResolvers as createIncidentResolvers } from "../specs/scenarios/rest-foreign-keys/generated/index.js";
import { ROOT } from "./helpers/pipeline.js";

type Answer = { status: number; body: unknown };

/** An openapi-fetch client whose fetch records each URL and answers with `answer(url)`, after letting other requests start. */
function fakeApi(answer: (url: URL) => Answer) {
  const urls: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const client = createClient<any>({
    baseUrl: "https://api.example.com",
    fetch: async (request: Request) => {
      urls.push(request.url.replace("https://api.example.com", ""));
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // Every request that can start does so before any answers: the count above is the real bound.
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const { status, body } = answer(new URL(request.url));
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    },
  });
  return { client, urls, mostInFlight: () => mostInFlight };
}

const users = (ids: string[]) => ({
  data: ids.map((id) => ({ type: "user", id, attributes: { display_name: `Name of ${id}` } })),
});

const batchSource: SpecResolverSource = {
  method: "get",
  path: "/users",
  parameter: { name: "filter[id]", in: "query", style: "form", explode: false },
  max: 2,
  concurrency: 4,
  records: ["data"],
  jsonapi: true,
  id: "id",
  label: ["display_name"],
};

const getSource: SpecResolverSource = {
  method: "get",
  path: "/people/{person_id}",
  parameter: { name: "person_id", in: "path" },
  concurrency: 2,
  records: ["person"],
  jsonapi: false,
  id: "key",
  label: ["profile", "name"],
};

const askedIds = (url: URL) => url.searchParams.get("filter[id]")!.split(",");

describe("a batch resolver (a list operation filtered by ids)", () => {
  it("sends one request per batch of at most `max` ids, written as the parameter's style says", async () => {
    const api = fakeApi((url) => ({ status: 200, body: users(askedIds(url)) }));
    const labels = await specResolver(api.client, batchSource)(["a", "b", "c", "d", "e"]);
    expect(api.urls.sort()).toEqual(["/users?filter[id]=a,b", "/users?filter[id]=c,d", "/users?filter[id]=e"]);
    expect([...labels].sort()).toEqual([
      ["a", "Name of a"],
      ["b", "Name of b"],
      ["c", "Name of c"],
      ["d", "Name of d"],
      ["e", "Name of e"],
    ]);
  });

  it("has at most `concurrency` batches in flight", async () => {
    const api = fakeApi((url) => ({ status: 200, body: users(askedIds(url)) }));
    await specResolver(api.client, { ...batchSource, max: 1, concurrency: 3 })(["a", "b", "c", "d", "e", "f", "g"]);
    expect(api.urls).toHaveLength(7);
    expect(api.mostInFlight()).toBe(3);
  });

  it("leaves out ids the API did not return, and labels it was not asked for", async () => {
    const api = fakeApi(() => ({ status: 200, body: users(["a", "zz"]) }));
    const labels = await specResolver(api.client, batchSource)(["a", "b"]);
    expect([...labels]).toEqual([["a", "Name of a"]]);
  });

  it("rejects when a batch fails, with the status and the API's own message", async () => {
    const api = fakeApi(() => ({ status: 503, body: { errors: [{ title: "Down for maintenance" }] } }));
    await expect(specResolver(api.client, batchSource)(["a"])).rejects.toThrow("GET /users answered 503: Down for maintenance");
  });

  it("rejects when the response holds no list of records where the spec puts them", async () => {
    const api = fakeApi(() => ({ status: 200, body: { data: { type: "user", id: "a" } } }));
    await expect(specResolver(api.client, batchSource)(["a"])).rejects.toThrow("GET /users answered without a list of records at data");
  });
});

describe("a get resolver (one record by id)", () => {
  const person = (url: URL): Answer => {
    const id = decodeURIComponent(url.pathname.replace("/people/", ""));
    return id === "gone"
      ? { status: 404, body: { message: "no such person" } }
      : { status: 200, body: { person: { key: id, profile: { name: `P ${id}` } } } };
  };

  it("sends one request per id with at most `concurrency` in flight, reading a dotted label from plain REST records", async () => {
    const api = fakeApi(person);
    const labels = await specResolver(api.client, getSource)(["1", "2", "3", "a/b"]);
    expect(api.urls.sort()).toEqual(["/people/1", "/people/2", "/people/3", "/people/a%2Fb"]);
    expect(api.mostInFlight()).toBe(2);
    expect([...labels].sort()).toEqual([
      ["1", "P 1"],
      ["2", "P 2"],
      ["3", "P 3"],
      ["a/b", "P a/b"],
    ]);
  });

  it("leaves an id the API answers 404 for unresolved, and keeps the others", async () => {
    const api = fakeApi(person);
    expect([...(await specResolver(api.client, getSource)(["gone", "1"]))]).toEqual([["1", "P 1"]]);
  });

  it("fails the tool call with a ResolverError when a request fails", async () => {
    const api = fakeApi(() => ({ status: 500, body: { message: "boom" } }));
    const failing = resolveLabels({ people: new Set(["1"]) }, { people: specResolver(api.client, getSource) }, new Map());
    await expect(failing).rejects.toThrow(RuntimeResolverError);
    await expect(failing).rejects.toThrow('resolver "people" failed: GET /people/{person_id} answered 500: boom');
  });

  it("fails with a ResolverError when the API cannot be reached", async () => {
    const client = createClient<any>({
      baseUrl: "https://api.example.com",
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    const failing = resolveLabels({ people: new Set(["1"]) }, { people: specResolver(client, getSource) }, new Map());
    await expect(failing).rejects.toThrow('resolver "people" failed: fetch failed');
  });
});

describe("createResolvers for the bundled example", () => {
  const page = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8")) as SearchTicketsResponse;
  const labels = JSON.parse(readFileSync(join(ROOT, "specs/examples/labels.json"), "utf8")) as Record<string, Record<string, string>>;

  it("projects a page with one request per resolver, labels read from the API's JSON:API records", async () => {
    const api = fakeApi((url) => {
      const table = url.pathname === "/users" ? labels["users"]! : labels["orgs"]!;
      const type = url.pathname === "/users" ? "user" : "organization";
      const key = url.pathname === "/users" ? "display_name" : "name";
      const data = askedIds(url).flatMap((id) => (table[id] !== undefined ? [{ type, id, attributes: { [key]: table[id] } }] : []));
      return { status: 200, body: { data } };
    });
    const result = await projectSearchTickets(page, createResolvers(api.client));
    expect(api.urls.map((u) => u.split("?")[0]).sort()).toEqual(["/organizations", "/users"]);
    expect(result.tickets[0]).toMatchObject({ assignee: "Priya Raman" });
    expect(JSON.stringify(result)).not.toContain("unresolved");
  });

  it("fails the projection with a ResolverError when the API answers an error", async () => {
    const api = fakeApi(() => ({ status: 500, body: { errors: [{ detail: "database unavailable" }] } }));
    await expect(projectSearchTickets(page, createResolvers(api.client))).rejects.toThrow(ResolverError);
  });
});

describe("createResolvers for a plain-REST get-by-id operation (scenario rest-foreign-keys)", () => {
  it("asks GET /users/{user_id} once per id and reads the dotted label from the record the envelope wraps", async () => {
    const api = fakeApi((url) => {
      const id = decodeURIComponent(url.pathname.replace("/users/", ""));
      return { status: 200, body: { user: { id, profile: { name: `User ${id}`, email: "x@example.com" } } } };
    });
    const labels = await createIncidentResolvers(api.client).users(["u1", "u2", "u3"]);
    expect(api.urls.sort()).toEqual(["/users/u1", "/users/u2", "/users/u3"]);
    expect(api.mostInFlight()).toBe(2);
    expect([...labels].sort()).toEqual([
      ["u1", "User u1"],
      ["u2", "User u2"],
      ["u3", "User u3"],
    ]);
  });
});
