import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../examples/support-desk/database.js";
import { createApiServer } from "../examples/support-desk/http-api.js";
import { MOST_SECRETS_IN_ANSWER, maskingFetch, secretMasker } from "../src/serve/secrets.js";
import { CLI, projectServing, stop } from "./helpers/serve-process.js";
import { tempDir } from "./helpers/pipeline.js";

// The API's credential never reaches the model, whatever the API echoes back and however the
// runtime then cuts, escapes or encodes it: `projector serve` over stdio, its API the support desk's
// behind a server of the test's that rewrites chosen answers to hold the secret.

/** A bearer token as long as a live key, holding the characters JSON and URLs escape. */
const TOKEN = 'sk"live\\ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const PASSWORD = 'hunter"2\\x';

/** What the model must never read: any start of a secret long enough to mean something, in any form. */
const leaks = (text: string, secret: string) =>
  [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)].some((form) => text.includes(form.slice(0, 8)));

type Rewrite = (path: string, status: number, body: unknown) => { status: number; body: unknown };

/** The support desk's API, each answer passed through `api.rewrite` on its way to serve. */
async function startApi() {
  const db: Database.Database = openDatabase(join(tempDir(), "desk.db"));
  const desk: Server = createApiServer(db);
  await new Promise<void>((listening) => desk.listen(0, "127.0.0.1", listening));
  const deskUrl = `http://127.0.0.1:${(desk.address() as AddressInfo).port}`;
  const api = {
    rewrite: ((_path, status, body) => ({ status, body })) as Rewrite,
    baseUrl: "",
    async close() {
      await stop(front);
      await stop(desk);
      db.close();
    },
  };
  const front = createServer((request, response) => {
    void (async () => {
      const answer = await fetch(`${deskUrl}${request.url}`, { method: request.method ?? "GET" });
      const path = new URL(request.url ?? "/", deskUrl).pathname;
      const { status, body } = api.rewrite(path, answer.status, await answer.json());
      response.writeHead(status, { "content-type": "application/vnd.api+json" }).end(JSON.stringify(body));
    })();
  });
  await new Promise<void>((listening) => front.listen(0, "127.0.0.1", listening));
  api.baseUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`;
  return api;
}

async function connect(project: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "serve-secrets-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", join(project, "projector.yaml")],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: "pipe",
    }),
  );
  return client;
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

/** A ticket answer whose subject the test writes. */
const withSubject = (body: unknown, subject: string) => {
  const document = body as { data: { attributes: { subject: string } } };
  return { ...document, data: { ...document.data, attributes: { ...document.data.attributes, subject } } };
};

describe("projector serve with a bearer token: what the API echoes is masked before the runtime touches it", () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let client: Client;
  let ticketId: string;

  beforeAll(async () => {
    api = await startApi();
    // The next page is the API's link, so that a cursor the API writes reaches `next`.
    const project = projectServing(
      ["serve:", "  base_url: { env: DESK_API_URL }", "  auth: { bearer: { env: DESK_TOKEN } }", ""].join("\n"),
      (annotation) => annotation.replace("more: links.next", "next: links.next"),
    );
    client = await connect(project, { DESK_API_URL: api.baseUrl, DESK_TOKEN: TOKEN });
    const page = await callTool(client, "search_tickets", {});
    ticketId = (page.structuredContent as { tickets: { id: string }[] }).tickets[0]!.id;
  }, 60_000);

  afterAll(async () => {
    await client.close();
    await api.close();
  });

  it("masks a token at the end of an error message longer than the runtime quotes, rather than showing its start", async () => {
    const detail = "y".repeat(200 - TOKEN.length + 1) + TOKEN;
    api.rewrite = (path, status, body) => (path.startsWith("/v1/tickets/") ? { status: 401, body: { detail } } : { status, body });
    const refused = await callTool(client, "get_ticket", { ticket_id: ticketId });
    expect(refused).toEqual({
      isError: true,
      structuredContent: undefined,
      text: `get_ticket: the API answered 401: ${"y".repeat(200 - TOKEN.length + 1)}[secret]`,
    });
  });

  it("masks a token at the end of a kept string longer than a result keeps, in the text and the structured result", async () => {
    const subject = "x".repeat(10_000 - TOKEN.length + 1) + TOKEN;
    api.rewrite = (path, status, body) => ({ status, body: path.startsWith("/v1/tickets/") ? withSubject(body, subject) : body });
    const ticket = await callTool(client, "get_ticket", { ticket_id: ticketId });
    expect(ticket.isError).toBe(false);
    expect((ticket.structuredContent as { subject: string }).subject).toBe(`${"x".repeat(10_000 - TOKEN.length + 1)}[secret]`);
    expect(leaks(ticket.text, TOKEN)).toBe(false);
    expect(leaks(JSON.stringify(ticket.structuredContent), TOKEN)).toBe(false);
  });

  it("masks a token the text block would show JSON-escaped", async () => {
    api.rewrite = (path, status, body) => ({
      status,
      body: path.startsWith("/v1/tickets/") ? withSubject(body, `key=${TOKEN}`) : body,
    });
    const ticket = await callTool(client, "get_ticket", { ticket_id: ticketId });
    expect((ticket.structuredContent as { subject: string }).subject).toBe("key=[secret]");
    expect(ticket.text).toContain('"subject":"key=[secret]"');
    expect(leaks(ticket.text, TOKEN)).toBe(false);
  });

  it("masks a token the API writes, percent-encoded, into the next page's link, so `next` never carries it", async () => {
    api.rewrite = (path, status, body) => ({
      status,
      body:
        path === "/v1/tickets"
          ? { ...(body as object), links: { next: `${api.baseUrl}/tickets?page[number]=2&q=${encodeURIComponent(TOKEN)}` } }
          : body,
    });
    const page = await callTool(client, "search_tickets", {});
    expect(page.isError).toBe(false);
    const next = (page.structuredContent as { next: string | null }).next;
    expect(next).toMatch(/^page\[number\]=2&q=/);
    expect(leaks(`${next}`, TOKEN)).toBe(false);
    expect(leaks(page.text, TOKEN)).toBe(false);
  });
});

describe("projector serve with basic credentials: a password the API echoes", () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let client: Client;

  beforeAll(async () => {
    api = await startApi();
    const project = projectServing(
      [
        "serve:",
        "  base_url: { env: DESK_API_URL }",
        "  auth: { basic: { username: { env: DESK_USER }, password: { env: DESK_PASSWORD } } }",
        "",
      ].join("\n"),
    );
    client = await connect(project, { DESK_API_URL: api.baseUrl, DESK_USER: "desk-agent", DESK_PASSWORD: PASSWORD });
  }, 60_000);

  afterAll(async () => {
    await client.close();
    await api.close();
  });

  it("masks the password in the structured result and in the text block, where JSON escapes its quote and backslash", async () => {
    const page = await callTool(client, "search_tickets", {});
    const ticketId = (page.structuredContent as { tickets: { id: string }[] }).tickets[0]!.id;
    api.rewrite = (path, status, body) => ({ status, body: path.startsWith("/v1/tickets/") ? withSubject(body, `pw=${PASSWORD}`) : body });
    const ticket = await callTool(client, "get_ticket", { ticket_id: ticketId });
    expect((ticket.structuredContent as { subject: string }).subject).toBe("pw=[secret]");
    expect(ticket.text).toContain('"subject":"pw=[secret]"');
    expect(ticket.text).not.toContain("hunter");
  });
});

describe("the mask on what serve hands out, behind the mask on what the API answers", () => {
  const mask = secretMasker([TOKEN]);

  it("masks a secret JSON-escaped once or twice, and percent-encoded in either hex case or with + for a space", () => {
    const escaped = JSON.stringify(TOKEN).slice(1, -1);
    expect(mask(`a ${escaped} b`)).toBe("a [secret] b");
    expect(mask(JSON.stringify(JSON.stringify(`a ${TOKEN}`)))).toBe('"\\"a [secret]\\""');
    expect(mask(`q=${encodeURIComponent(TOKEN)}&r=${encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}`)).toBe(
      "q=[secret]&r=[secret]",
    );
    expect(secretMasker(["open sesame"])("q=open+sesame&r=open%20sesame&s=%6Fpen%20sesame")).toBe("q=[secret]&r=[secret]&s=[secret]");
  });

  it("masks the start of a secret a cut left before its …, quoted or not, and leaves a start too short to mean anything", () => {
    expect(mask(`yyy${TOKEN.slice(0, 30)}… (201 characters)`)).toBe("yyy[secret]… (201 characters)");
    expect(mask(`"${TOKEN.slice(0, 20)}"… (41 characters)`)).toBe('"[secret]"… (41 characters)');
    expect(mask(JSON.stringify(`${TOKEN.slice(0, 20)}… (41 characters)`))).toBe('"[secret]… (41 characters)"');
    expect(mask('sk"… is how keys start')).toBe('sk"… is how keys start');
  });
});

describe("the fetch serve gives the generated tools: the API's answer masked before the runtime reads it", () => {
  const mask = secretMasker([TOKEN]);
  const answering = (response: Response) => maskingFetch(async () => response, mask, 1024);
  const request = new Request("http://api.test/v1/tickets");

  it("masks a secret written with JSON's \\u escapes, and keeps a body that holds none byte for byte", async () => {
    const escaped = [...TOKEN].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    const masked = await answering(new Response(`{"detail": "bad key: ${escaped}"}`))(request);
    expect(await masked.json()).toEqual({ detail: "bad key: [secret]" });
    const plain = '{ "detail" : "no key"  }';
    expect(await (await answering(new Response(plain))(request)).text()).toBe(plain);
  });

  it("masks a secret in a text body, in the headers (a Link to the next page) and in the status text", async () => {
    const masked = await answering(
      new Response(`bad key: ${TOKEN}`, {
        status: 401,
        statusText: `Refused ${TOKEN}`,
        headers: { link: `</v1/tickets?cursor=${encodeURIComponent(TOKEN)}>; rel="next"` },
      }),
    )(request);
    expect(masked.status).toBe(401);
    expect(masked.statusText).toBe("Refused [secret]");
    expect(masked.headers.get("link")).toBe('</v1/tickets?cursor=[secret]>; rel="next"');
    expect(await masked.text()).toBe("bad key: [secret]");
  });

  it("passes on no answer holding the secret more than MOST_SECRETS_IN_ANSWER times, whose masking would take too long", async () => {
    const holding = (times: number) => JSON.stringify({ items: Array.from({ length: times }, () => TOKEN.slice(0, 6) + "…") });
    const wide = (response: Response) => maskingFetch(async () => response, mask, 1 << 24);
    const many = await wide(new Response(holding(MOST_SECRETS_IN_ANSWER + 1)))(request);
    expect(many.status).toBe(502);
    expect(await many.text()).toBe(
      `serve does not pass on the API's answer: it holds the secret serve sends, or the start of one, more than ${MOST_SECRETS_IN_ANSWER} times`,
    );
    const masked = (await (await wide(new Response(holding(MOST_SECRETS_IN_ANSWER)))(request)).json()) as { items: string[] };
    expect(new Set(masked.items)).toEqual(new Set(["[secret]…"]));
    expect((await wide(new Response(`plain ${TOKEN} `.repeat(MOST_SECRETS_IN_ANSWER + 1)))(request)).status).toBe(502);
  });

  it("reads no more of a body than the runtime's bound, and says how much it read, for the runtime to refuse it", async () => {
    const long = await answering(new Response("x".repeat(5000)))(request);
    expect(Number(long.headers.get("content-length"))).toBeGreaterThan(1024);
    expect(await long.text()).toBe("");
  });
});
