// `page.next` on real specs that page (../shared/real-specs; skipped where absent): init drafts it,
// and a list tool walks two pages of the spec's own response shape, served on loopback and asked
// for through openapi-fetch and createTools, by passing the first result's `next` back.
import { existsSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { initAnnotation } from "../../src/init/init.js";
import { findOperation, listOperations, responseExample } from "../../src/model/operations.js";
import { loadSpec } from "../../src/openapi/load.js";
import { SchemaReader } from "../../src/openapi/schema.js";
import { generateFrom, importGenerated, REAL_SPECS, tempDir } from "../helpers/pipeline.js";

type Tools = Record<string, (args: unknown) => Promise<{ result?: any; error?: string }>>;

/** One API's case: what init drafts, the tool as written by hand, and its two pages. */
interface Case {
  file: string;
  /** The operations init drafts; the first is the tool's. */
  operations: string[];
  tool: string;
  drafted: { tool: string; next: unknown }[];
  /** The tool's annotation, laid over the one init drafted for it. */
  written: Record<string, unknown>;
  /** The client's base URL under the loopback server's origin: the path of the spec's server. */
  basePath: string;
  args: Record<string, unknown>;
  /** The body for a request: the first page, or the second when the request carries the first page's next. */
  page: (url: URL, origin: string, example: any) => unknown;
  next: string;
  /** What tells the pages apart in the result. */
  records: (result: any) => unknown[];
  firstRecords: unknown[];
  secondRecords: unknown[];
}

const TWILIO_ACCOUNT = `AC${"a".repeat(32)}`;
const playlist = (n: number) => ({
  collaborative: false,
  description: `Playlist ${n}`,
  external_urls: { spotify: `https://open.spotify.com/playlist/pl${n}` },
  href: `https://api.spotify.com/v1/playlists/pl${n}`,
  id: `pl${n}`,
  images: [],
  name: `Road trip ${n}`,
  owner: { id: "owner", type: "user", uri: "spotify:user:owner", display_name: "Owner" },
  public: true,
  snapshot_id: "MTY4",
  tracks: { href: `https://api.spotify.com/v1/playlists/pl${n}/tracks`, total: 10 },
  type: "playlist",
  uri: `spotify:playlist:pl${n}`,
});
const artist = (id: string, name: string) => ({
  external_urls: { spotify: `https://open.spotify.com/artist/${id}` },
  followers: { href: null, total: 1000 },
  genres: ["Prog rock"],
  href: `https://api.spotify.com/v1/artists/${id}`,
  id,
  images: [],
  name,
  popularity: 50,
  type: "artist",
  uri: `spotify:artist:${id}`,
});
const AFTER = "0I2XqVXqHScXjHhk6AYYRe";

const CASES: Case[] = [
  {
    file: "digitalocean/specification/DigitalOcean-public.v2.yaml",
    operations: ["droplets_list"],
    tool: "droplets_list",
    drafted: [{ tool: "droplets_list", next: "links.pages.next" }],
    written: { operation: "droplets_list", resource: "droplet", list: "droplets", page: { next: "links.pages.next" } },
    basePath: "",
    args: { per_page: 1 },
    page: (url, origin, example) => {
      const second = url.searchParams.get("page") === "2";
      return {
        ...example,
        droplets: [{ ...example.droplets[0], id: second ? 2 : 1, name: second ? "db.example.com" : "web.example.com" }],
        links: {
          pages: second ? { prev: `${origin}/v2/droplets?page=1&per_page=1` } : { next: `${origin}/v2/droplets?page=2&per_page=1` },
        },
        meta: { total: 2 },
      };
    },
    next: "page=2",
    records: (result) => result.droplets.map((d: { name: string }) => d.name),
    firstRecords: ["web.example.com"],
    secondRecords: ["db.example.com"],
  },
  {
    file: "twilio_api_v2010.json",
    operations: ["ListCall"],
    tool: "list_call",
    drafted: [{ tool: "list_call", next: "next_page_uri" }],
    written: { operation: "ListCall", list: "calls", page: { next: "next_page_uri" } },
    basePath: "",
    args: {
      AccountSid: TWILIO_ACCOUNT,
      Status: "completed",
      To: "+123456789",
      From: "+987654321",
      StartTime: "2008-01-02",
      ParentCallSid: `CA${"a".repeat(32)}`,
      EndTime: "2009-01-02",
      PageSize: 2,
    },
    // The spec's example is the first page as it stands: its next_page_uri names this account's calls.
    page: (url, _origin, example) =>
      url.searchParams.get("PageToken") === null
        ? example
        : { ...example, calls: [{ ...example.calls[0], to: "+15550002222" }], next_page_uri: null, page: 1 },
    next: `Page=1&PageToken=PACA${"a".repeat(31)}0`,
    records: (result) => result.calls.map((c: { to: string }) => c.to),
    firstRecords: ["+13051913581", "+13051913580"],
    secondRecords: ["+15550002222"],
  },
  {
    file: "spotify_web_api.yml",
    operations: ["get-a-list-of-current-users-playlists"],
    tool: "get_a_list_of_current_users_playlists",
    drafted: [{ tool: "get_a_list_of_current_users_playlists", next: "next" }],
    written: { operation: "get-a-list-of-current-users-playlists", list: "playlists", page: { total: "total", next: "next" } },
    basePath: "/v1",
    args: { limit: 1 },
    page: (url, origin) => {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      return {
        href: `${origin}/v1/me/playlists?offset=${offset}&limit=1`,
        limit: 1,
        next: offset === 0 ? `${origin}/v1/me/playlists?offset=1&limit=1` : null,
        offset,
        previous: offset === 0 ? null : `${origin}/v1/me/playlists?offset=0&limit=1`,
        total: 2,
        items: [playlist(offset + 1)],
      };
    },
    next: "offset=1",
    records: (result) => result.playlists.map((p: { name: string }) => p.name),
    firstRecords: ["Road trip 1"],
    secondRecords: ["Road trip 2"],
  },
  {
    file: "spotify_web_api.yml",
    operations: ["get-followed", "get-an-artists-related-artists", "get-recently-played"],
    tool: "get_followed",
    drafted: [{ tool: "get_recently_played", next: "next" }],
    written: {
      operation: "get-followed",
      rows: "artists.items",
      resource: "artist",
      list: "artists",
      page: { next: "artists.cursors.after" },
    },
    basePath: "/v1",
    args: { type: "artist", limit: 1 },
    page: (url, origin) => {
      const first = url.searchParams.get("after") === null;
      return {
        artists: {
          href: `${origin}/v1/me/following?type=artist&limit=1`,
          limit: 1,
          next: first ? `${origin}/v1/me/following?type=artist&after=${AFTER}&limit=1` : null,
          cursors: { after: first ? AFTER : null },
          total: 2,
          items: [first ? artist("6sFIWsNpZYqfjUpaCgueju", "Carly Rae Jepsen") : artist(AFTER, "Pink Floyd")],
        },
      };
    },
    next: `after=${AFTER}`,
    records: (result) => result.artists.map((a: { name: string }) => a.name),
    firstRecords: ["Carly Rae Jepsen"],
    secondRecords: ["Pink Floyd"],
  },
  {
    file: "pokeapi_openapi.yml",
    operations: ["pokemon_list"],
    tool: "pokemon_list",
    drafted: [{ tool: "pokemon_list", next: "next" }],
    written: { operation: "pokemon_list", list: "pokemon", page: { total: "count", next: "next" } },
    basePath: "",
    args: { limit: 1 },
    page: (url, origin) => {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const name = ["bulbasaur", "ivysaur"][offset];
      return {
        count: 2,
        next: offset === 0 ? `${origin}/api/v2/pokemon/?offset=1&limit=1` : null,
        previous: offset === 0 ? null : `${origin}/api/v2/pokemon/?offset=0&limit=1`,
        results: [{ name, url: `${origin}/api/v2/pokemon/${offset + 1}/` }],
      };
    },
    next: "offset=1",
    records: (result) => result.pokemon.map((p: { name: string }) => p.name),
    firstRecords: ["bulbasaur"],
    secondRecords: ["ivysaur"],
  },
];

describe.each(CASES)("$file: $tool", (test) => {
  const specPath = join(REAL_SPECS, test.file);
  const present = existsSync(specPath);
  const requests: string[] = [];
  let server: Server;
  let tools: Tools;
  let drafted: { tools: Record<string, { page?: { next?: unknown } }> };

  beforeAll(async () => {
    if (!present) return;
    const spec = await loadSpec(specPath, test.file);
    const reader = new SchemaReader(spec.document);
    const example = responseExample(reader, findOperation(listOperations(reader), test.operations[0]!)!);
    const dir = tempDir();
    const init = initAnnotation(spec, {
      file: "projector.yaml",
      spec: specPath,
      output: "generated",
      acceptGuesses: true,
      operations: test.operations,
    });
    drafted = parse(init.text);
    const annotation = parse(init.text);
    annotation.tools[test.tool] = { ...annotation.tools[test.tool], ...test.written };
    writeFileSync(join(dir, "projector.yaml"), stringify(annotation));
    const generated = await generateFrom(join(dir, "projector.yaml"));
    expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
    const module = await importGenerated<{ createTools: (options: unknown) => Tools }>(generated.files);
    let origin = "";
    server = createServer((request, response) => {
      requests.push(request.url ?? "");
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(test.page(new URL(request.url ?? "/", origin), origin, example)));
    });
    origin = await new Promise<string>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
    const resolvers = new Proxy({}, { get: () => async () => new Map() });
    tools = module.createTools({ client: createClient({ baseUrl: `${origin}${test.basePath}` }), resolvers });
  }, 240_000);
  afterAll(() => (present ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined));

  it.skipIf(!present)("init drafts page.next", () => {
    for (const { tool, next } of test.drafted) expect(drafted.tools[tool]?.page?.next, tool).toEqual(next);
  });

  it.skipIf(!present)("walks two pages by passing the first result's next back", async () => {
    const first = await tools[test.tool]!(test.args);
    expect(first.error).toBeUndefined();
    expect(test.records(first.result)).toEqual(test.firstRecords);
    expect(first.result.next).toBe(test.next);
    const second = await tools[test.tool]!({ ...test.args, next: first.result.next });
    expect(second.error).toBeUndefined();
    expect(test.records(second.result)).toEqual(test.secondRecords);
    expect(second.result.next).toBeNull();
    expect(requests).toHaveLength(2);
    const [asked, followed] = requests.map((url) => new URL(url, "http://loopback"));
    expect(followed!.pathname).toBe(asked!.pathname);
    for (const [name, value] of new URLSearchParams(test.next)) expect(followed!.searchParams.getAll(name)).toEqual([value]);
  });
});
