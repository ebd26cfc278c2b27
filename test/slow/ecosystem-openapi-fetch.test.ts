// The generated tools and resolvers with every openapi-fetch version the peer range takes: each
// compiles against that version's own types and sends the same requests.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResolvers, createTools, type SearchTicketsResponse } from "../../generated/support/index.js";
import { consumerProject, consumerTsc, installedVersion, run } from "../helpers/consumer.js";
import { BUNDLED_FILES, ROOT, typecheck } from "../helpers/pipeline.js";

/** Each version as a dev dependency: the npm alias `openapi-fetch-0.13` for 0.13, and so on. */
const VERSIONS = ["openapi-fetch-0.13", "openapi-fetch-0.14", "openapi-fetch-0.15", "openapi-fetch-0.16", "openapi-fetch"] as const;
const FILES = join(ROOT, "test/.openapi-fetch-versions");
const PAGE = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8")) as SearchTicketsResponse;

type CreateClient = (options: { baseUrl: string; fetch: (request: Request) => Promise<Response> }) => unknown;

/** The requests one version's client sends for the same tool calls and lookups, as text. */
async function requestsWith(version: string): Promise<string[]> {
  const { default: createClient } = (await import(version)) as { default: CreateClient };
  const sent: string[] = [];
  const client = createClient({
    baseUrl: "https://api.example.com/v1",
    fetch: async (request) => {
      const body = request.method === "GET" ? "" : ` ${request.headers.get("content-type")} ${await request.text()}`;
      sent.push(`${request.method} ${request.url}${body}`);
      const path = new URL(request.url).pathname;
      return path === "/v1/tickets"
        ? Response.json(PAGE)
        : path.endsWith("/comments")
          ? Response.json({ data: { id: "cmt_1", type: "comment", attributes: { body: "On it", public: true } } }, { status: 201 })
          : path.startsWith("/v1/tickets/")
            ? Response.json({ data: PAGE.data[0] })
            : Response.json({ data: [] });
    },
  }) as Parameters<typeof createTools>[0]["client"] & Parameters<typeof createResolvers>[0];
  const resolvers = createResolvers(client);
  const tools = createTools({ client, resolvers });
  const outcomes = [
    await tools.search_tickets({ query: "refund & return", status: "open", page: 2 }),
    await tools.get_ticket({ ticket_id: "tkt_5498ee00-8600-4e00-8e38-b39f4e006600" }),
    await tools.add_comment({
      ticket_id: "tkt_5498ee00-8600-4e00-8e38-b39f4e006600",
      body: { data: { type: "comment", attributes: { body: "On it" } } },
    }),
  ];
  await resolvers.users(["usr_1", "usr_2"]);
  expect(outcomes.filter((outcome) => "error" in outcome)).toEqual([]);
  return sent;
}

describe("openapi-fetch versions in the peer range", () => {
  beforeAll(() => {
    mkdirSync(FILES, { recursive: true });
    writeFileSync(join(FILES, "package.json"), JSON.stringify({ type: "module" }));
  });
  afterAll(() => rmSync(FILES, { recursive: true, force: true }));

  it("type-check as the client of createTools and createResolvers, each against its own types", () => {
    const files = VERSIONS.map((version) => {
      const file = join(FILES, `${version}.ts`);
      writeFileSync(
        file,
        [
          `import createClient from "${version}";`,
          `import { createResolvers, createTools, type paths } from "../../generated/support/index.js";`,
          `const client = createClient<paths>({ baseUrl: "https://api.example.com/v1" });`,
          `export const tools = createTools({ client, resolvers: createResolvers(client) });`,
          `// @ts-expect-error a client made for another spec's paths does not fit`,
          `createTools({ client: createClient<{ "/other": { get: { responses: {} } } }>(), resolvers: createResolvers(client) });`,
          `// @ts-expect-error nor does an object that only has the methods`,
          `createTools({ client: { GET: async () => 1, POST: async () => 1 }, resolvers: createResolvers(client) });`,
          "",
        ].join("\n"),
      );
      return file;
    });
    expect(typecheck(files, ["node"])).toEqual([]);
  });

  it("send the same requests, byte for byte", async () => {
    const [latest, ...older] = await Promise.all([...VERSIONS].reverse().map(requestsWith));
    // The search, the get and the POST, each followed by the lookups of the ids its result names.
    expect(latest!.map((request) => request.slice(0, request.indexOf("?") > 0 ? request.indexOf("?") : undefined))).toEqual([
      "GET https://api.example.com/v1/tickets",
      "GET https://api.example.com/v1/organizations",
      "GET https://api.example.com/v1/users",
      "GET https://api.example.com/v1/tickets/tkt_5498ee00-8600-4e00-8e38-b39f4e006600",
      "GET https://api.example.com/v1/organizations",
      "GET https://api.example.com/v1/users",
      'POST https://api.example.com/v1/tickets/tkt_5498ee00-8600-4e00-8e38-b39f4e006600/comments application/vnd.api+json {"data":{"type":"comment","attributes":{"body":"On it"}}}',
      "GET https://api.example.com/v1/users",
    ]);
    expect(latest![0]).toBe("GET https://api.example.com/v1/tickets?q=refund%20%26%20return&filter[status]=3&page[number]=2");
    for (const requests of older) expect(requests).toEqual(latest);
  });
});

describe("a consumer with openapi-fetch 0.13", () => {
  it("installs projector beside it, compiles the tools with its client, and drafts an annotation editors check", () => {
    const consumer = consumerProject({
      type: "module",
      compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" },
      packages: ["openapi-fetch@0.13.8"],
    });
    expect(installedVersion(consumer, "openapi-fetch")).toBe("0.13.8");
    expect(run("npm", ["run", "generate", "--silent"], consumer)).toContain(`generated/support: ${BUNDLED_FILES} file(s) written`);
    writeFileSync(
      join(consumer, "src/tools.ts"),
      [
        `import createClient from "openapi-fetch";`,
        `import { createResolvers, createTools, type paths } from "../generated/support/index.js";`,
        `const client = createClient<paths>({ baseUrl: "https://api.example.com/v1" });`,
        `export const tools = createTools({ client, resolvers: createResolvers(client) });`,
        "",
      ].join("\n"),
    );
    consumerTsc(consumer);
    // An annotation init drafts there points editors at the schema the installed package ships.
    mkdirSync(join(consumer, "config"));
    run(
      "node",
      ["node_modules/openapi-projector/dist/cli.js", "init", "specs/support-tickets.openapi.yaml", "-o", "config/drafted.yaml"],
      consumer,
    );
    const modeline = readFileSync(join(consumer, "config/drafted.yaml"), "utf8").split("\n")[0]!;
    expect(modeline).toBe("# yaml-language-server: $schema=../node_modules/openapi-projector/schema/projector.schema.json");
    expect(existsSync(join(consumer, "config", modeline.slice(modeline.indexOf("=") + 1)))).toBe(true);
  }, 300_000);
});

it("the peer range is the versions tested above", () => {
  const { peerDependencies, devDependencies } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<
    string,
    Record<string, string>
  >;
  expect(peerDependencies!["openapi-fetch"]).toBe(">=0.13.0 <0.18.0");
  const minors = VERSIONS.map((name) => /^(?:npm:openapi-fetch@)?0\.(\d+)\./.exec(devDependencies![name]!)?.[1]);
  expect(minors).toEqual(["13", "14", "15", "16", "17"]);
});
