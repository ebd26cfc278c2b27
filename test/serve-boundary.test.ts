import { getEventListeners } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import createClient from "openapi-fetch";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_RESOLVER_REQUESTS, specResolver } from "../generated/support/runtime/index.js";
import { parseAnnotation } from "../src/annotation/parse.js";
import { apiAccess } from "../src/serve/api-access.js";
import { CLI, projectServing, spawnServe, stop } from "./helpers/serve-process.js";
import { cli, ROOT } from "./helpers/pipeline.js";

// `projector serve` facing an API, a client and an environment that do not play fair: the built CLI
// in a child process, its API a server in this process that answers as each test needs.

const KEY = "TOKSECRET123";

/** The annotation with its resolver `users` written as `users`. */
const withUsers = (users: string) => (annotation: string) => annotation.replace(/^ {2}users: .*$/m, `  users: ${users}`);

const API_KEY = projectServing(
  ["serve:", "  base_url: { env: DESK_API_URL }", "  auth: { api_key: { env: DESK_KEY, header: X-Api-Key } }", ""].join("\n"),
);

type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** A server on `host` answering with `route`, recording each request's method, path and headers. */
async function startServer(host: string, route: Route) {
  const received: { method: string; path: string; headers: IncomingMessage["headers"] }[] = [];
  const server = createServer((request, response) => {
    received.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers });
    route(request, response);
  });
  await new Promise<void>((listening) => server.listen(0, host, listening));
  return { server, received, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

const jsonApi = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { "content-type": "application/vnd.api+json" }).end(JSON.stringify(body));

const ticket = (n: number, assignee: string) => ({
  type: "ticket",
  id: `tkt_${n.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`,
  attributes: {
    subject: `Ticket ${n}`,
    status_code: 1,
    priority: 1,
    created_at: "2026-02-11T09:14:22Z",
    updated_at: "2026-02-11T09:14:22Z",
  },
  relationships: { assignee: { data: { type: "user", id: assignee } }, organization: { data: null } },
});

const userId = (n: number) => `usr_${n.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;

/** An MCP client speaking to serve over stdio, and serve's stderr. */
async function connect(config: string, env: Record<string, string>) {
  const client = new Client({ name: "serve-boundary-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", config],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  return { isError: result.isError === true, text: result.content[0]!.text };
}

describe("projector serve: the API key goes to the API's origin and nowhere else", () => {
  let elsewhere: Awaited<ReturnType<typeof startServer>>;
  let api: Awaited<ReturnType<typeof startServer>>;
  let serve: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    elsewhere = await startServer("127.0.0.2", (_, response) => jsonApi(response, 200, { data: [] }));
    api = await startServer("127.0.0.1", (request, response) => {
      const url = new URL(request.url ?? "/", "http://api.test");
      if (request.headers["x-api-key"] !== KEY) return jsonApi(response, 401, { errors: [{ title: "Unauthorized" }] });
      const page = (assignee: string) => ({ data: [ticket(1, assignee)], meta: { page: { total: 1 } }, links: {} });
      const asked = url.searchParams.get("q");
      if (url.pathname === "/v1/tickets" && asked === "elsewhere")
        return void response.writeHead(302, { location: `${elsewhere.origin}/steal` }).end();
      if (url.pathname === "/v1/tickets" && asked === "moved")
        return void response.writeHead(301, { location: "/v1/tickets?q=here" }).end();
      if (url.pathname === "/v1/tickets") return jsonApi(response, 200, page(asked === "here" ? userId(1) : userId(2)));
      if (url.pathname === "/v1/users" && url.searchParams.get("filter[id]") === userId(2))
        return void response.writeHead(307, { location: `${elsewhere.origin}/users` }).end();
      if (url.pathname === "/v1/users")
        return jsonApi(response, 200, { data: [{ type: "user", id: userId(1), attributes: { display_name: "Priya Raman" } }] });
      jsonApi(response, 404, { errors: [{ title: "Not found" }] });
    });
    serve = await connect(join(API_KEY, "projector.yaml"), { DESK_API_URL: `${api.origin}/v1`, DESK_KEY: KEY });
  }, 60_000);

  afterAll(async () => {
    await serve.client.close();
    await stop(api.server);
    await stop(elsewhere.server);
  });

  it("answers a redirect to another host with an error for the model, sending nothing there", async () => {
    const moved = await callTool(serve.client, "search_tickets", { query: "elsewhere" });
    expect(moved.isError).toBe(true);
    expect(moved.text).toMatch(
      /^search_tickets: .*the API answered 302, redirecting the request to another host, which serve does not follow/,
    );
    expect(elsewhere.received).toEqual([]);
  });

  it("follows a redirect within the API's origin, the key with it", async () => {
    const moved = await callTool(serve.client, "search_tickets", { query: "moved" });
    expect(moved.isError).toBe(false);
    expect(moved.text).toContain("Priya Raman");
    expect(api.received.filter((request) => request.path === "/v1/tickets?q=here")).toHaveLength(1);
  });

  it("does not follow a resolver's 307 to another host either", async () => {
    const listed = await callTool(serve.client, "search_tickets", { query: "resolver" });
    expect(listed.isError).toBe(true);
    expect(listed.text).toContain("the API answered 307, redirecting the request to another host");
    expect(elsewhere.received).toEqual([]);
    expect(api.received.some((request) => request.path.startsWith("/v1/users"))).toBe(true);
  });
});

describe("projector serve: what it knows is secret stays out of what it hands out", () => {
  let api: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    api = await startServer("127.0.0.1", (request, response) =>
      jsonApi(response, 401, { errors: [{ title: `bad key: ${String(request.headers["x-api-key"])}` }] }),
    );
  });

  afterAll(() => stop(api.server));

  it("masks the key in an API error the model reads", async () => {
    const serve = await connect(join(API_KEY, "projector.yaml"), { DESK_API_URL: `${api.origin}/v1`, DESK_KEY: KEY });
    try {
      const refused = await callTool(serve.client, "search_tickets", {});
      expect(refused).toEqual({ isError: true, text: "search_tickets: the API answered 401: bad key: [secret]" });
      expect(serve.stderr()).not.toContain(KEY);
    } finally {
      await serve.client.close();
    }
  }, 60_000);
});

describe("projector serve: how many requests one call sends for a get-by-id resolver", () => {
  const BY_ID = projectServing(
    "serve:\n  base_url: { env: DESK_API_URL }\n",
    withUsers("{ type: user, label: display_name, operation: getUser }"),
  );
  const TICKETS = 300;
  let api: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    api = await startServer("127.0.0.1", (request, response) => {
      const path = new URL(request.url ?? "/", "http://api.test").pathname;
      if (path === "/v1/tickets")
        return jsonApi(response, 200, {
          data: Array.from({ length: TICKETS }, (_, n) => ticket(n, userId(n))),
          meta: { page: { total: TICKETS } },
          links: {},
        });
      const user = /^\/v1\/users\/([^/]+)$/.exec(path);
      if (user) return jsonApi(response, 200, { data: { type: "user", id: user[1], attributes: { display_name: `User ${user[1]}` } } });
      jsonApi(response, 404, { errors: [{ title: "Not found" }] });
    });
  });

  afterAll(() => stop(api.server));

  it(`asks for ${MAX_RESOLVER_REQUESTS} ids, and says the others were not asked`, async () => {
    const serve = await connect(join(BY_ID, "projector.yaml"), { DESK_API_URL: `${api.origin}/v1` });
    try {
      const listed = await callTool(serve.client, "search_tickets", {});
      expect(listed.isError).toBe(false);
      expect(api.received.filter((request) => request.path.startsWith("/v1/users/"))).toHaveLength(MAX_RESOLVER_REQUESTS);
      expect(listed.text).toContain(`User ${userId(0)}`);
      await vi.waitFor(() =>
        expect(serve.stderr()).toContain(`not asked: a call sends GET /users/{user_id} at most ${MAX_RESOLVER_REQUESTS} times`),
      );
    } finally {
      await serve.client.close();
    }
  }, 60_000);

  it("leaves no abort listener on the call's signal once its requests are answered", async () => {
    const client = createClient({ baseUrl: `${api.origin}/v1` });
    const resolver = specResolver(client, {
      method: "get",
      path: "/users/{user_id}",
      parameter: { name: "user_id", in: "path" },
      concurrency: 4,
      records: ["data"],
      jsonapi: true,
      id: "id",
      label: ["display_name"],
    });
    const call = new AbortController();
    const labels = await resolver(
      Array.from({ length: 30 }, (_, n) => userId(n)),
      { signal: call.signal },
    );
    expect(labels.get(userId(29))).toBe(`User ${userId(29)}`);
    expect(getEventListeners(call.signal, "abort")).toHaveLength(0);
  });
});

describe("projector serve --http: the Host check follows the address bound", () => {
  const LOCAL = projectServing("serve:\n  base_url: http://127.0.0.1:9/v1\n");

  /** The status serve answers a tools/list whose Host header is `host`, sent by a page of `origin` if given. */
  const statusFor = (url: string, host: string, origin?: string) =>
    new Promise<number>((answered, failed) => {
      const headers = { host, "content-type": "application/json", accept: "application/json, text/event-stream" };
      const sent = httpRequest(url, { method: "POST", headers: origin === undefined ? headers : { ...headers, origin } }, (response) => {
        response.resume();
        answered(response.statusCode ?? 0);
      });
      sent.on("error", failed);
      sent.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    });

  for (const spelling of ["127.1", "[::ffff:127.0.0.1]", "2130706433"])
    it(`refuses Host: evil.example and a page of another origin on --http ${spelling}:0, and serves the bound address's own`, async () => {
      const serve = spawnServe([join(LOCAL, "projector.yaml"), "--http", `${spelling}:0`], {});
      try {
        const url = (await serve.waitFor(/ at (http:\/\/\S+\/mcp),/))[1]!;
        expect(await statusFor(url, "evil.example")).toBe(403);
        expect(await statusFor(url, new URL(url).host)).toBe(200);
        expect(await statusFor(url, new URL(url).host, "https://evil.example")).toBe(403);
        expect(await statusFor(url, new URL(url).host, "null")).toBe(403);
        expect(await statusFor(url, new URL(url).host, new URL(url).origin)).toBe(200);
      } finally {
        serve.child.kill("SIGTERM");
        await serve.exited;
      }
    }, 60_000);

  it("refuses a shorthand that binds every interface, asking for the address in full", async () => {
    const serve = spawnServe([join(LOCAL, "projector.yaml"), "--http", "0:0"], {});
    expect(await serve.exited).toBe(1);
    expect(serve.stderr()).toMatch(
      /^projector serve: --http 0:0 listens on 0\.0\.0\.0, which other machines reach; write that address in full/m,
    );
  }, 60_000);

  it("says a port already taken is taken, exit 1", async () => {
    const taken = await startServer("127.0.0.1", (_, response) => response.end());
    try {
      const port = (taken.server.address() as AddressInfo).port;
      const serve = spawnServe([join(LOCAL, "projector.yaml"), "--http", `127.0.0.1:${port}`], {});
      expect(await serve.exited).toBe(1);
      expect(serve.stderr()).toContain(`projector serve: --http 127.0.0.1:${port}: another program listens there already`);
      expect(serve.stderr()).not.toContain("internal error");
    } finally {
      await stop(taken.server);
    }
  }, 60_000);
});

describe("projector serve: start-up refuses what no request could carry", () => {
  afterEach(() => vi.unstubAllEnvs());
  const keyIn = (header?: string) => ({
    path: ["serve"],
    baseUrl: { url: "https://api.example.com", path: [] },
    auth: { scheme: "api_key" as const, key: { env: "API_KEY", path: [] }, ...(header !== undefined ? { header } : {}), path: [] },
  });
  const specKeyIn = (name: string) => ({ components: { securitySchemes: { key: { type: "apiKey", in: "header", name } } } });

  it("refuses a base URL with a query or a fragment, naming the variable and not its value", async () => {
    vi.stubEnv("DESK_KEY", KEY);
    for (const [url, part] of [
      ["http://127.0.0.1:9/v1?token=S3CR3T", "query"],
      ["http://127.0.0.1:9/v1#S3CR3T", "fragment"],
    ]) {
      vi.stubEnv("DESK_API_URL", url);
      const { code, stderr } = await cli(["serve", join(API_KEY, "projector.yaml")], ROOT);
      expect(code).toBe(1);
      expect(stderr).toBe(
        `projector serve: DESK_API_URL holds a ${part}, which a base URL cannot carry: each request's path is written after it\n`,
      );
    }
    const parse = (serve: string) => () => parseAnnotation(`spec: a.yaml\noutput: out\n${serve}`, "projector.yaml");
    expect(parse("serve:\n  base_url: https://api.example.com/v1?key=1\n")).toThrow(/serve\.base_url holds a query/);
    expect(parse("serve:\n  base_url: { env: U, default: 'https://api.example.com/v1#x' }\n")).toThrow(/serve\.base_url holds a fragment/);
    expect(() => apiAccess(undefined, { servers: [{ url: "https://api.example.com/v1?k=1" }] }, {}, "p.yaml")).toThrow(
      /does not know where the API is/,
    );
  });

  it("refuses an API key header name that is no header name, or one the request sets itself", () => {
    for (const name of ["X-K\r\nEvil: 1", ""])
      expect(() => apiAccess(keyIn(), specKeyIn(name), { API_KEY: "k1" }, "p.yaml")).toThrow(
        /the API key's header, .* \(the spec's apiKey scheme\), is not a header name/,
      );
    for (const name of ["Host", "__proto__", "Content-Length", "Connection", "Transfer-Encoding"]) {
      expect(() => apiAccess(keyIn(), specKeyIn(name), { API_KEY: "k1" }, "p.yaml")).toThrow(/is not a header the API key can be sent in/);
      expect(() => apiAccess(keyIn(name), {}, { API_KEY: "k1" }, "p.yaml")).toThrow(/is not a header the API key can be sent in/);
      expect(() =>
        parseAnnotation(`spec: a.yaml\noutput: out\nserve:\n  auth: { api_key: { env: K, header: '${name}' } }\n`, "p.yaml"),
      ).toThrow(/serve\.auth\.api_key\.header must be a header name the request does not set itself/);
    }
  });

  it("refuses a token a header cannot carry, and takes an empty basic password", () => {
    expect(() => apiAccess(keyIn("X-Key"), {}, { API_KEY: "k€y" }, "p.yaml")).toThrow(
      /API_KEY holds a character other than printable ASCII, which a header cannot carry as it is/,
    );
    const basic = {
      path: ["serve"],
      baseUrl: { url: "https://api.example.com", path: [] },
      auth: { scheme: "basic" as const, username: { env: "U", path: [] }, password: { env: "P", path: [] }, path: [] },
    };
    expect(apiAccess(basic, {}, { U: "sk_test_123", P: "" }, "p.yaml").headers).toEqual({
      Authorization: `Basic ${Buffer.from("sk_test_123:").toString("base64")}`,
    });
    expect(() => apiAccess(basic, {}, { U: "sk_test_123" }, "p.yaml")).toThrow(/P is not set/);
  });

  it("prints a line break in the base URL escaped, never as a line of its own", async () => {
    const LOCAL = projectServing("serve:\n  base_url: { env: DESK_API_URL }\n");
    const serve = spawnServe([join(LOCAL, "projector.yaml")], { DESK_API_URL: "http://127.0.0.1:9/v1\r\nprojector serve: forged" });
    try {
      await serve.waitFor(/over stdio, calling /);
      expect(serve.stderr()).toContain("calling http://127.0.0.1:9/v1\\u000d\\u000aprojector serve: forged\n");
      expect(serve.stderr()).not.toMatch(/^projector serve: forged/m);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  }, 60_000);

  it("takes an empty annotation file name as bad usage", async () => {
    const { code, stderr } = await cli(["serve", ""], ROOT);
    expect(code).toBe(2);
    expect(stderr).toContain("serve takes an annotation file, not an empty name");
  });
});
