import type { Server } from "node:http";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../examples/support-desk/database.js";
import createClient from "openapi-fetch";
import { createApiServer, listen } from "../examples/support-desk/http-api.js";
import { createResolvers, type paths } from "../generated/support/index.js";
import { tempDir } from "./helpers/pipeline.js";

// The example's HTTP API, spoken to directly: what the spec promises for each operation, and the
// answers to input it refuses.
describe("examples/support-desk: the HTTP API", () => {
  let db: Database.Database;
  let server: Server;
  let base: string;
  const logged: string[] = [];

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    server = createApiServer(db, (method, url) => logged.push(`${method} ${url}`));
    base = await listen(server);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
    db.close();
  });

  async function get(path: string, init?: RequestInit) {
    const response = await fetch(`${base}${path}`, init);
    expect(response.headers.get("content-type")).toBe("application/vnd.api+json");
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  const ids = (table: string, n: number) =>
    (db.prepare(`SELECT id FROM ${table} ORDER BY id LIMIT ?`).all(n) as { id: string }[]).map((row) => row.id);

  it("logs the method and full URL of every request", async () => {
    await get("/tickets?q=card&filter[status]=3");
    expect(logged.at(-1)).toBe(`GET ${base}/tickets?q=card&filter[status]=3`);
  });

  it("pages tickets with meta and links that keep the filters", async () => {
    const { status, body } = await get("/tickets?filter[status]=2&page[number]=2");
    expect(status).toBe(200);
    expect(body["meta"].page).toMatchObject({ number: 2, size: 25 });
    const total = body["meta"].page.total as number;
    expect(total).toBe((db.prepare("SELECT count(*) AS n FROM tickets WHERE status_code = 2").get() as { n: number }).n);
    for (const ticket of body["data"]) expect(ticket.attributes.status_code).toBe(2);
    const last = Math.ceil(total / 25);
    expect(body["links"]).toEqual({
      first: `${base}/tickets?filter%5Bstatus%5D=2&page%5Bnumber%5D=1`,
      next: last > 2 ? `${base}/tickets?filter%5Bstatus%5D=2&page%5Bnumber%5D=3` : null,
      last: `${base}/tickets?filter%5Bstatus%5D=2&page%5Bnumber%5D=${last}`,
    });
  });

  it("filters users and organizations by comma-separated ids, and by repeated keys", async () => {
    const [a, b, c] = ids("users", 3);
    const commas = await get(`/users?filter[id]=${a},${b}`);
    expect(commas.body["data"].map((user: { id: string }) => user.id)).toEqual([a, b]);
    const repeated = await get(`/users?filter[id]=${a}&filter[id]=${b},${c}`);
    expect(repeated.body["data"].map((user: { id: string }) => user.id)).toEqual([a, b, c]);
    const [org] = ids("organizations", 1);
    expect((await get(`/organizations?filter[id]=${org},org_none`)).body).toEqual({
      data: [{ type: "organization", id: org, attributes: { name: expect.any(String) } }],
    });
    expect((await get("/organizations")).body["data"]).toHaveLength(24);
  });

  it("includes a ticket's assignee, and answers an unknown id 404 with the Errors body", async () => {
    const { id, assignee_id } = db
      .prepare("SELECT t.id, t.assignee_id FROM tickets t JOIN users u ON u.id = t.assignee_id LIMIT 1")
      .get() as { id: string; assignee_id: string };
    const { body } = await get(`/tickets/${id}`);
    expect(body["data"].id).toBe(id);
    expect(body["included"]).toEqual([expect.objectContaining({ type: "user", id: assignee_id })]);
    expect(await get(`/tickets/${id.slice(0, 12)}`)).toEqual({
      status: 404,
      body: { errors: [{ status: "404", title: `No ticket ${id.slice(0, 12)}` }] },
    });
    expect((await get("/users/usr_none")).status).toBe(404);
    expect((await get("/nothing/here")).status).toBe(404);
  });

  it("adds a comment from a NewCommentDocument, 201", async () => {
    const [ticket] = ids("tickets", 1);
    const post = (body: string) =>
      get(`/tickets/${ticket}/comments`, { method: "POST", headers: { "content-type": "application/vnd.api+json" }, body });
    const { status, body } = await post(JSON.stringify({ data: { type: "comment", attributes: { body: "Noted.", public: false } } }));
    expect(status).toBe(201);
    expect(body["data"]).toMatchObject({ type: "comment", attributes: { body: "Noted.", public: false } });
    expect(body["data"].relationships.ticket.data.id).toBe(ticket);
    for (const [bad, says] of [
      ["{", "The body is not JSON"],
      [JSON.stringify({ data: { type: "note", attributes: { body: "x" } } }), 'data.type must be "comment"'],
      [JSON.stringify({ data: { type: "comment", attributes: { body: "" } } }), "data.attributes.body must be a non-empty string"],
      [
        JSON.stringify({ data: { type: "comment", attributes: { body: "x", public: "no" } } }),
        "data.attributes.public must be true or false",
      ],
    ]) {
      expect(await post(bad!)).toEqual({ status: 400, body: { errors: [{ status: "400", title: says }] } });
    }
  });

  it("answers bad query values 400", async () => {
    for (const [query, says] of [
      ["filter[status]=open", 'filter[status] must be a status code, 1 to 5, not "open"'],
      ["filter[status]=6", 'filter[status] must be a status code, 1 to 5, not "6"'],
      ["page[number]=0", 'page[number] must be a positive integer, not "0"'],
      ["page[number]=1.5", 'page[number] must be a positive integer, not "1.5"'],
    ]) {
      expect(await get(`/tickets?${query}`)).toEqual({ status: 400, body: { errors: [{ status: "400", title: says }] } });
    }
    const many = Array.from({ length: 101 }, (_, i) => `usr_${i}`).join(",");
    expect((await get(`/users?filter[id]=${many}`)).body).toEqual({
      errors: [{ status: "400", title: "filter[id] takes at most 100 ids, not 101" }],
    });
    expect((await get("/tickets/%E0%A4%A")).status).toBe(400);
  });

  it("serves the generated resolvers: one comma-separated filter[id] request per call, split past the spec's 100 ids", async () => {
    const resolvers = createResolvers(createClient<paths>({ baseUrl: base }));
    const users = ids("users", 39);
    const asked = [...users, ...Array.from({ length: 111 }, (_, i) => `usr_none_${i}`)];
    const before = logged.length;
    const few = await resolvers.users(users.slice(0, 3));
    expect(logged.slice(before)).toEqual([`GET ${base}/users?filter[id]=${users.slice(0, 3).join(",")}`]);
    expect([...few.keys()]).toEqual(users.slice(0, 3));
    const many = await resolvers.users(asked);
    const requests = logged.slice(before + 1).map((line) => new URL(line.slice("GET ".length)));
    expect(requests.map((url) => url.searchParams.get("filter[id]")!.split(",").length).sort((a, b) => a - b)).toEqual([50, 100]);
    expect(many).toEqual(
      new Map(
        users.map((id) => [
          id,
          (db.prepare("SELECT display_name FROM users WHERE id = ?").get(id) as { display_name: string }).display_name,
        ]),
      ),
    );
    const [org] = ids("organizations", 1);
    expect((await resolvers.orgs([org!])).get(org!)).toEqual(expect.any(String));
  });
});
