import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../examples/support-desk/database.js";
import { createApiServer } from "../examples/support-desk/http-api.js";
import { toolDefinitions } from "../generated/support/index.js";
import { httpPlace } from "../src/commands/serve.js";
import { AccessProblems, apiAccess } from "../src/serve/api-access.js";
import { parseAnnotation } from "../src/annotation/parse.js";
import { CLI, projectServing, spawnServe, stop } from "./helpers/serve-process.js";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";
import { redisServer, startRedis } from "./helpers/redis-server.js";

// `projector serve` started as an MCP client starts it: the built CLI in a child process, over
// stdio or Streamable HTTP, its tools calling the support desk's API served in this process, so
// every request it receives is counted with its headers.

const TOKEN = "tok-7f3c9a-not-for-printing";

const BEARER = projectServing(
  ["serve:", "  name: desk", "  base_url: { env: DESK_API_URL }", "  auth: { bearer: { env: DESK_TOKEN } }", ""].join("\n"),
);

/** A request the API received. */
interface Received {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
}

/** The example's API behind a check of the Authorization header; every request is recorded first. */
async function startApi(db: Database.Database, authorization: string) {
  const received: Received[] = [];
  const answer = createApiServer(db).listeners("request")[0] as RequestListener;
  const server = createServer((request, response) => {
    received.push({ method: request.method ?? "", url: new URL(request.url ?? "/", "http://api.test"), headers: request.headers });
    if (request.headers.authorization !== authorization) {
      response.writeHead(401, { "content-type": "application/vnd.api+json" });
      response.end(JSON.stringify({ errors: [{ status: "401", title: "Unauthorized" }] }));
      return;
    }
    answer(request, response);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return { server, received, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

interface Call {
  isError: boolean;
  structuredContent: unknown;
  text: string;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Call> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: unknown;
    content: { text: string }[];
  };
  return { isError: result.isError === true, structuredContent: result.structuredContent, text: result.content[0]!.text };
}

/** serve started over stdio on the project in `dir` for one describe block's tests, calling the example's API behind the bearer token. */
function servedOverStdio(dir: string) {
  const served = { client: new Client({ name: "serve-test", version: "1.0.0" }), stderr: "", api: undefined as unknown as Api };
  let db: Database.Database;
  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    served.api = await startApi(db, `Bearer ${TOKEN}`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "-c", join(dir, "projector.yaml")],
      env: { ...(process.env as Record<string, string>), DESK_API_URL: served.api.baseUrl, DESK_TOKEN: TOKEN },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (served.stderr += chunk.toString()));
    await served.client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await served.client.close();
    await stop(served.api.server);
    db.close();
  });
  return served;
}

type Api = Awaited<ReturnType<typeof startApi>>;

describe("projector serve over stdio: the annotation's tools, no code of the user's", () => {
  const served = servedOverStdio(BEARER);
  const { client } = served;

  it("names itself as serve.name says and lists the tools generate writes, byte for byte, asking the API nothing", async () => {
    expect(client.getServerVersion()).toEqual({ name: "desk", version: "1.0.0" });
    const { tools } = await client.listTools();
    expect(tools).toEqual(JSON.parse(JSON.stringify(toolDefinitions)));
    expect(served.api.received).toEqual([]);
    expect(served.stderr).toMatch(
      /^projector serve: serving add_comment, get_ticket, get_user, search_tickets over stdio, calling http:\/\/127\.0\.0\.1:\d+\/v1$/m,
    );
  });

  it("calls the API at the base URL from the environment, with the bearer token on every request, resolvers batched", async () => {
    const before = served.api.received.length;
    const result = await callTool(client, "search_tickets", { status: "open" });
    const requests = served.api.received.slice(before);
    expect(result.isError).toBe(false);
    expect(requests.map((r) => `${r.method} ${r.url.pathname}`).sort()).toEqual([
      "GET /v1/organizations",
      "GET /v1/tickets",
      "GET /v1/users",
    ]);
    expect(requests.find((r) => r.url.pathname === "/v1/tickets")!.url.searchParams.get("filter[status]")).toBe("3");
    for (const request of requests) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const tickets = (result.structuredContent as { tickets: { id: string; status: string }[] }).tickets;
    expect(tickets.length).toBeGreaterThan(1);
    for (const ticket of tickets) expect(ticket).toMatchObject({ id: expect.stringMatching(/^tkt_[0-9a-f]{8}$/), status: "open" });

    const ticket = await callTool(client, "get_ticket", { ticket_id: tickets[0]!.id });
    expect(ticket.isError).toBe(false);
    const fetched = served.api.received.slice(before + requests.length).find((r) => r.url.pathname.startsWith("/v1/tickets/"))!;
    expect(fetched.url.pathname).toMatch(new RegExp(`^/v1/tickets/${tickets[0]!.id}-[0-9a-f-]{27}$`));
  });

  it("answers a call the API refuses with the tool's error, and keeps serving", async () => {
    const missing = await callTool(client, "get_ticket", { ticket_id: "tkt_00000000" });
    expect(missing).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^get_ticket: the API answered 404: No ticket tkt_00000000/),
    });
    const bad = await callTool(client, "search_tickets", { status: "waiting" });
    expect(bad).toMatchObject({ isError: true, text: expect.stringContaining("status must be one of") });
    expect((await client.listTools()).tools).toHaveLength(toolDefinitions.length);
    expect(served.stderr).not.toContain(TOKEN);
  });
});

describe("projector serve: a token the API does not take, and stopping", () => {
  let db: Database.Database;
  let api: Awaited<ReturnType<typeof startApi>>;

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    api = await startApi(db, `Bearer ${TOKEN}`);
  });

  afterAll(async () => {
    await stop(api.server);
    db.close();
  });

  it("gives the API's 401 to the model as the tool's error, never a crash", async () => {
    const client = new Client({ name: "serve-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", join(BEARER, "projector.yaml")],
        env: { ...(process.env as Record<string, string>), DESK_API_URL: api.baseUrl, DESK_TOKEN: "expired" },
        stderr: "pipe",
      }),
    );
    try {
      const refused = await callTool(client, "search_tickets", {});
      expect(refused).toEqual({ isError: true, structuredContent: undefined, text: "search_tickets: the API answered 401: Unauthorized" });
      expect(api.received.at(-1)!.headers.authorization).toBe("Bearer expired");
      expect((await client.listTools()).tools).toHaveLength(toolDefinitions.length);
    } finally {
      await client.close();
    }
  }, 60_000);

  for (const signal of ["SIGINT", "SIGTERM"] as const)
    it(`closes the server and exits 0 on ${signal}`, async () => {
      const serve = spawnServe([join(BEARER, "projector.yaml")], { DESK_API_URL: api.baseUrl, DESK_TOKEN: TOKEN });
      await serve.waitFor(/serving .* over stdio/);
      serve.child.kill(signal);
      expect(await serve.exited).toBe(0);
      expect(serve.stderr()).toMatch(/^projector serve: stopped$/m);
      expect(serve.stderr()).not.toContain("internal error");
    }, 60_000);
});

describe.skipIf(!redisServer)("projector serve: short ids across processes through PROJECTOR_ID_BOOK_URL", () => {
  let db: Database.Database;
  let api: Awaited<ReturnType<typeof startApi>>;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    api = await startApi(db, `Bearer ${TOKEN}`);
    redis = await startRedis();
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await redis.stop();
    await stop(api.server);
    db.close();
  });

  /** A new serve process, as a client that starts one per call would start it. */
  async function connect(): Promise<Client> {
    const client = new Client({ name: "serve-test", version: "1.0.0" });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", join(BEARER, "projector.yaml")],
        env: { ...(process.env as Record<string, string>), DESK_API_URL: api.baseUrl, DESK_TOKEN: TOKEN, PROJECTOR_ID_BOOK_URL: redis.url },
        stderr: "pipe",
      }),
    );
    return client;
  }

  it("takes in one process a short id another process gave", async () => {
    const listed = await callTool(await connect(), "search_tickets", { status: "pending" });
    const short = (listed.structuredContent as { tickets: { id: string }[] }).tickets[0]!.id;
    const second = await connect();
    const before = api.received.length;
    const fetched = await callTool(second, "get_ticket", { ticket_id: short });
    expect(fetched.isError).toBe(false);
    const sent = api.received.slice(before).find((request) => request.url.pathname.startsWith("/v1/tickets/"));
    expect(sent!.url.pathname).toMatch(new RegExp(`^/v1/tickets/${short}-[0-9a-f-]{27}$`));
  }, 60_000);
});

describe("projector serve --http: Streamable HTTP, loopback unless told otherwise", () => {
  const BASIC = projectServing(
    [
      "serve:",
      "  base_url: { env: DESK_API_URL }",
      "  auth:",
      "    basic: { username: { env: DESK_USER }, password: { env: DESK_PASSWORD } }",
      "",
    ].join("\n"),
  );
  let db: Database.Database;
  let api: Awaited<ReturnType<typeof startApi>>;
  let serve: ReturnType<typeof spawnServe>;
  let url: string;
  const client = new Client({ name: "serve-test", version: "1.0.0" });

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    api = await startApi(db, `Basic ${Buffer.from("agent:pa ss:word").toString("base64")}`);
    serve = spawnServe(["-c", join(BASIC, "projector.yaml"), "--http", "0"], {
      DESK_API_URL: api.baseUrl,
      DESK_USER: "agent",
      DESK_PASSWORD: "pa ss:word",
    });
    url = (await serve.waitFor(/ at (http:\/\/\S+\/mcp),/))[1]!;
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  }, 60_000);

  afterAll(async () => {
    await client.close();
    serve.child.kill("SIGTERM");
    await serve.exited;
    await stop(api.server);
    db.close();
  });

  it("binds 127.0.0.1 when no host is given, and answers MCP at /mcp", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // Named after the output folder when serve.name is not written; versioned as the spec's info.version.
    expect(client.getServerVersion()).toEqual({ name: "support", version: "1.0.0" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolDefinitions.map((tool) => tool.name));
    expect((await fetch(new URL("/other", url))).status).toBe(404);
  });

  it("calls the API with HTTP basic authentication, resolvers batched, one request each", async () => {
    const before = api.received.length;
    const result = await callTool(client, "search_tickets", { query: "refund" });
    expect(result.isError).toBe(false);
    const requests = api.received.slice(before);
    expect(requests.map((r) => r.url.pathname).sort()).toEqual(["/v1/organizations", "/v1/tickets", "/v1/users"]);
    for (const request of requests)
      expect(request.headers.authorization).toBe(`Basic ${Buffer.from("agent:pa ss:word").toString("base64")}`);
    const orgs = requests.find((r) => r.url.pathname === "/v1/organizations")!;
    expect(orgs.url.searchParams.get("filter[id]")!.split(",").length).toBeGreaterThan(1);
  });

  it("refuses a request whose Host names another machine (DNS rebinding), a body over 4 MiB, and a GET", async () => {
    const status = await new Promise<number>((answered, failed) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      const sent = httpRequest(
        url,
        {
          method: "POST",
          headers: { host: "attacker.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
        },
        (response) => {
          response.resume();
          answered(response.statusCode ?? 0);
        },
      );
      sent.on("error", failed);
      sent.end(body);
    });
    expect(status).toBe(403);
    const oversized = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { pad: "x".repeat(5 * 1024 * 1024) } }),
    });
    expect(oversized.status).toBe(413);
    expect((await fetch(url)).status).toBe(405);
  });

  it("closes on SIGTERM and exits 0", async () => {
    const other = spawnServe(["-c", join(BASIC, "projector.yaml"), "--http", "127.0.0.1:0"], {
      DESK_API_URL: api.baseUrl,
      DESK_USER: "agent",
      DESK_PASSWORD: "x",
    });
    const [, at] = await other.waitFor(/ at (http:\/\/\S+\/mcp),/);
    other.child.kill("SIGTERM");
    expect(await other.exited).toBe(0);
    await expect(fetch(at!, { method: "POST" })).rejects.toThrow();
  }, 60_000);
});

describe("projector serve: refusals at start-up", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("names a variable that is not set, with exit 1 and no stack", async () => {
    vi.stubEnv("DESK_API_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("DESK_TOKEN", undefined);
    const { code, stdout, stderr } = await cli(["serve"], BEARER);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe("projector serve: DESK_TOKEN is not set; serve.auth in projector.yaml reads the bearer token from it\n");
  });

  it("never prints a secret, even one it refuses", async () => {
    vi.stubEnv("DESK_API_URL", "ftp://user:hunter2@example.com/v1");
    vi.stubEnv("DESK_TOKEN", `${TOKEN}\r\nX-Injected: 1`);
    const { code, stderr } = await cli(["serve", "-c", join(BEARER, "projector.yaml")], ROOT);
    expect(code).toBe(1);
    expect(stderr).toContain("DESK_API_URL is not an absolute http(s) URL");
    expect(stderr).toContain("DESK_TOKEN holds a control character");
    expect(stderr).not.toContain("hunter2");
    expect(stderr).not.toContain(TOKEN);
  });

  it("says which packages to install when the MCP SDK or openapi-fetch is missing", async () => {
    const dir = tempDir();
    const hooks = join(dir, "hooks.mjs");
    writeFileSync(
      hooks,
      `export async function resolve(specifier, context, next) {
  if (specifier === "openapi-fetch") throw Object.assign(new Error("not installed"), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}
`,
    );
    const register = `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
    const serve = spawn(process.execPath, [
      "--import",
      `data:text/javascript,${encodeURIComponent(register)}`,
      CLI,
      "serve",
      join(BEARER, "projector.yaml"),
    ]);
    let stderr = "";
    serve.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((exited) => serve.on("exit", exited))).toBe(1);
    expect(stderr).toBe(
      "projector serve: it runs on the MCP SDK (1.32 or later 1.x) and openapi-fetch, which are not installed beside projector\n" +
        "projector serve: install them: npm install --save-dev @modelcontextprotocol/sdk openapi-fetch\n",
    );
  });

  it("refuses an id book URL that is not redis://, without quoting it", async () => {
    vi.stubEnv("DESK_API_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("DESK_TOKEN", TOKEN);
    vi.stubEnv("PROJECTOR_ID_BOOK_URL", "http://user:hunter2@cache.example");
    const { code, stderr } = await cli(["serve"], BEARER);
    expect(code).toBe(1);
    expect(stderr).toBe('projector serve: PROJECTOR_ID_BOOK_URL must be a redis:// or rediss:// URL, not "http:"\n');
  });

  it("refuses an output folder that is stale, naming projector generate", async () => {
    const dir = projectServing("serve:\n  base_url: http://127.0.0.1:9/v1\n");
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    const tool = join(dir, "generated/support/tools/search-tickets.ts");
    writeFileSync(tool, `${readFileSync(tool, "utf8")}// edited\n`);
    const { code, stdout, stderr } = await cli(["serve"], dir);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("generated/support is out of date with its inputs:\n  stale    generated/support/tools/search-tickets.ts\n");
    expect(stderr).toContain("run `projector generate` and commit the result");
  });

  it("refuses a resolver written by hand: serve has no code of the user's to call", async () => {
    const dir = projectServing("serve:\n  base_url: http://127.0.0.1:9/v1\n");
    const annotation = readFileSync(join(dir, "projector.yaml"), "utf8");
    writeFileSync(
      join(dir, "projector.yaml"),
      annotation.replace('{ type: user, label: display_name, operation: listUsers, ids: "filter[id]" }', "{}"),
    );
    const { code, stderr } = await cli(["serve"], dir);
    expect(code).toBe(1);
    expect(stderr).toBe(
      "projector serve: resolver users in projector.yaml names no operation, and serve has no code of yours to ask; name the API's operation that gives users by id (`operation: <operationId>`, with `ids: <parameter>` where one request takes many ids), or the `label` their name is under where the API embeds them\n",
    );
  });

  it("takes the spec's single server URL when the annotation names none, and refuses when the spec has none to take", () => {
    const spec = { servers: [{ url: "https://api.example.com/v1/" }] };
    expect(apiAccess(undefined, spec, {}, "projector.yaml")).toEqual({ baseUrl: "https://api.example.com/v1", headers: {}, secrets: [] });
    for (const servers of [
      [],
      [{ url: "/v1" }],
      [{ url: "https://a.example" }, { url: "https://b.example" }],
      [{ url: "https://{region}.example" }],
    ])
      expect(() => apiAccess(undefined, { servers }, {}, "projector.yaml")).toThrow(AccessProblems);
    const fallback = { path: ["serve"], baseUrl: { env: { env: "API_URL", path: [] }, url: "https://fallback.example", path: [] } };
    expect(apiAccess(fallback, spec, {}, "projector.yaml").baseUrl).toBe("https://fallback.example");
    expect(apiAccess(fallback, spec, { API_URL: "http://127.0.0.1:8080" }, "projector.yaml").baseUrl).toBe("http://127.0.0.1:8080");
    expect(() => apiAccess(fallback, spec, { API_URL: "https://agent:hunter2@api.example.com" }, "projector.yaml")).toThrow(
      new AccessProblems(["API_URL holds a user name or password; give them through serve.auth in projector.yaml"]),
    );
  });

  it("sends an API key in the header the annotation names, or the spec's single apiKey scheme's", () => {
    const key = (header?: string) => ({
      path: ["serve"],
      baseUrl: { url: "https://api.example.com", path: [] },
      auth: { scheme: "api_key" as const, key: { env: "API_KEY", path: [] }, ...(header ? { header } : {}), path: [] },
    });
    const spec = { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Desk-Key" } } } };
    expect(apiAccess(key(), spec, { API_KEY: "k1" }, "p.yaml").headers).toEqual({ "X-Desk-Key": "k1" });
    expect(apiAccess(key("X-Other"), spec, { API_KEY: "k1" }, "p.yaml").headers).toEqual({ "X-Other": "k1" });
    expect(() => apiAccess(key(), {}, { API_KEY: "k1" }, "p.yaml")).toThrow(/names no header, and the spec has no single apiKey scheme/);
  });

  it("reads --http as [host:]port, loopback by default", () => {
    expect(httpPlace("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(httpPlace("0.0.0.0:3000")).toEqual({ host: "0.0.0.0", port: 3000 });
    expect(httpPlace("[::1]:3000")).toEqual({ host: "::1", port: 3000 });
    for (const bad of ["", "host:", "99999", "a:b:1", "http://x:1"]) expect(() => httpPlace(bad)).toThrow(/--http takes \[HOST:\]PORT/);
  });
});

describe("the annotation's serve section", () => {
  const parse = (serve: string) => () => parseAnnotation(`spec: a.yaml\noutput: out\n${serve}`, "projector.yaml");

  it("reads variables, never secrets", () => {
    expect(
      parse("serve:\n  base_url: { env: API_URL, default: https://api.example.com }\n  auth: { bearer: { env: API_TOKEN } }\n")().serve,
    ).toMatchObject({
      baseUrl: { env: { env: "API_URL" }, url: "https://api.example.com" },
      auth: { scheme: "bearer", token: { env: "API_TOKEN" } },
    });
    expect(parse("serve:\n  auth: { bearer: sk-live-123 }\n")).toThrow(
      /the bearer token must be `\{ env: NAME \}`; a secret is never written in the annotation file/,
    );
    expect(parse("serve:\n  auth: { basic: { username: { env: U }, password: hunter2 } }\n")).toThrow(
      /the basic password must be `\{ env: NAME \}`/,
    );
    expect(parse("serve:\n  auth: { bearer: { env: A }, basic: { username: { env: U }, password: { env: P } } }\n")).toThrow(
      /serve\.auth takes one scheme, not bearer and basic/,
    );
    expect(parse("serve:\n  auth: { bearer: { env: 'A-B' } }\n")).toThrow(/must be an environment variable's name/);
    expect(parse("serve:\n  base_url: file:///etc/passwd\n")).toThrow(/serve\.base_url must be an absolute http\(s\) URL/);
    expect(parse("serve:\n  base_url: https://agent:hunter2@api.example.com\n")).toThrow(/serve\.base_url holds a user name or password/);
    expect(parse("serve:\n  auth: { api_key: { env: K, header: 'X Key' } }\n")).toThrow(
      /serve\.auth\.api_key\.header must be a header name/,
    );
    expect(parse("serve:\n  base_ur: https://x.example\n")).toThrow(/unknown key "base_ur" in serve \(did you mean "base_url"\?\)/);
  });
});

describe("projector serve with a resolver that only takes the names the API embeds", () => {
  const served = servedOverStdio(
    projectServing(
      ["serve:", "  base_url: { env: DESK_API_URL }", "  auth: { bearer: { env: DESK_TOKEN } }", ""].join("\n"),
      (annotation) => annotation.replace(', operation: listUsers, ids: "filter[id]"', ""),
    ),
  );

  it("serves, marking each id sent without its name unresolved, and says so when it starts", async () => {
    expect(served.stderr).toContain(
      "projector.yaml names no operation: an id the API sends without its display_name is shown unresolved; to have it looked up, name the operation that gives users by id (`operation: <operationId>`)\n",
    );
    const result = await callTool(served.client, "search_tickets", { status: "open" });
    expect(result.isError).toBe(false);
    expect(served.api.received.map((r) => r.url.pathname).sort()).toEqual(["/v1/organizations", "/v1/tickets"]);
    const tickets = (result.structuredContent as { tickets: { assignee: unknown; org: unknown }[] }).tickets;
    const assigned = tickets.filter((ticket) => ticket.assignee !== null);
    expect(assigned.length).toBeGreaterThan(0);
    for (const ticket of assigned) {
      expect(ticket.assignee).toEqual({ unresolved: expect.stringMatching(/^usr_[0-9a-f]+/) });
      expect(ticket.org).toEqual(expect.any(String));
    }
    expect(served.stderr).toMatch(/^projection: .*users.*$/m);
  });
});
