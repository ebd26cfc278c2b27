// How init reads what a tool's response holds, on a small spec shaped like Spotify's: a page whose
// paging members come from an `allOf` part, a page wrapped in an envelope, a search answering
// several pages, a list of booleans, a map of records by key, and a list with a record beside it.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseAnnotation } from "../src/annotation/parse.js";
import { initAnnotation } from "../src/init/init.js";
import { buildModel } from "../src/model/build.js";
import { loadSpec } from "../src/openapi/load.js";
import { pascalCase } from "../src/naming.js";
import { summarize } from "../src/summary.js";
import { generateFrom, importGenerated, tempDir } from "./helpers/pipeline.js";

type Schema = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const page = { name: "offset", in: "query", schema: { type: "integer" } };
const get = (operationId: string, schema: Schema, parameters: object[] = [page]) => ({
  get: { operationId, parameters, responses: { "200": { description: "ok", content: { "application/json": { schema } } } } },
});
const paged = (item: string) => ({
  type: "object",
  allOf: [ref("PagingObject"), { type: "object", properties: { items: { type: "array", items: ref(item) } } }],
});

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Music", version: "1" },
  paths: {
    "/me/playlists": get("get-my-playlists", ref("PagingPlaylistObject")),
    "/browse/featured-playlists": get("get-featured-playlists", {
      type: "object",
      properties: { message: { type: "string" }, playlists: ref("PagingPlaylistObject") },
    }),
    "/search": get("search", { type: "object", properties: { tracks: ref("PagingTrackObject"), playlists: ref("PagingPlaylistObject") } }),
    "/me/tracks/contains": get("check-saved-tracks", { type: "array", items: { type: "boolean" } }, []),
    "/tracks/by-market": get(
      "get-tracks-by-market",
      { type: "object", properties: { markets: { type: "object", additionalProperties: ref("TrackObject") } } },
      [],
    ),
    "/tracks/by-genre": get(
      "get-tracks-by-genre",
      {
        type: "object",
        properties: {
          total: { type: "integer" },
          genres: { type: "object", additionalProperties: { type: "array", items: ref("TrackObject") } },
        },
      },
      [],
    ),
    "/tracks/by-decade": get(
      "get-tracks-by-decade",
      { type: "object", properties: { decades: { type: "object", patternProperties: { "^[0-9]{4}s$": ref("TrackObject") } } } },
      [],
    ),
    "/me/player/queue": get(
      "get-queue",
      {
        type: "object",
        properties: {
          currently_playing: ref("TrackObject"),
          queue: { type: "array", items: ref("TrackObject") },
          // Envelope members: a link the model cannot open goes unsaid; what may say something to it is named.
          links: { type: "object", properties: { self: { type: "string" } } },
          meta: { type: "object", properties: { request_id: { type: "string" } } },
          warnings: { type: "array", items: { type: "string" } },
        },
      },
      [],
    ),
    "/me/albums": get(
      "get-my-albums",
      {
        type: "object",
        properties: {
          albums: { type: "array", items: ref("TrackObject") },
          meta: { type: "object", properties: { total: { type: "integer" } } },
          links: { type: "object", properties: { next: { type: "string" } } },
        },
      },
      [],
    ),
    "/playlists/{playlist_id}": get("get-playlist", ref("PlaylistObject"), [
      { name: "playlist_id", in: "path", required: true, schema: { type: "string" } },
    ]),
    "/tracks/{id}": get("get-track", ref("TrackObject"), [{ name: "id", in: "path", required: true, schema: { type: "string" } }]),
  },
  components: {
    schemas: {
      PagingObject: {
        type: "object",
        required: ["href", "items", "limit", "next", "offset", "previous", "total"],
        properties: {
          href: { type: "string" },
          limit: { type: "integer" },
          next: { type: "string", format: "uri", nullable: true },
          offset: { type: "integer" },
          previous: { type: "string", format: "uri", nullable: true },
          total: { type: "integer" },
        },
      },
      PagingPlaylistObject: paged("PlaylistObject"),
      PagingTrackObject: paged("TrackObject"),
      PlaylistObject: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
      TrackObject: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
    },
  },
};

async function drafted(spec: object = SPEC) {
  const dir = tempDir();
  writeFileSync(join(dir, "spec.json"), JSON.stringify(spec));
  const loaded = await loadSpec(join(dir, "spec.json"), "spec.json", { allowRemoteRefs: false, allowOutsideRefs: false });
  const result = initAnnotation(loaded, { file: "projector.yaml", spec: "spec.json", output: "generated/music", acceptGuesses: true });
  writeFileSync(join(dir, "projector.yaml"), result.text);
  const annotation = parse(result.text) as { resources: Record<string, { schema?: string }>; tools: Record<string, Schema> };
  return { dir, result, loaded, annotation };
}

type Project = (response: unknown, resolvers: unknown) => Promise<Record<string, unknown>>;

async function projected(dir: string, tool: string, response: unknown) {
  const generated = await generateFrom(join(dir, "projector.yaml"));
  expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const module = await importGenerated<Record<string, Project>>(generated.files);
  return module[`project${pascalCase(tool)}`]!(response, {});
}

const playlistPage = {
  href: "https://api.example.com/me/playlists?offset=0&limit=1",
  limit: 1,
  next: "https://api.example.com/me/playlists?offset=1&limit=1",
  offset: 0,
  previous: null,
  total: 37,
  items: [{ id: "37i9dQZF1DXcBWIGoYBM5M", name: "Today's Top Hits" }],
};

describe("a page whose paging members come from an allOf part", () => {
  it("is drafted as a list of its items, with the total and the next page, even where another response wraps it", async () => {
    const { annotation } = await drafted();
    expect(Object.values(annotation.resources).map((r) => r.schema)).not.toContain("PagingPlaylistObject");
    expect(annotation.tools["get_my_playlists"]).toMatchObject({ page: { total: "total", next: "next" } });
    expect(annotation.tools["get_featured_playlists"]).toMatchObject({
      rows: "playlists.items",
      page: { total: "playlists.total", next: "playlists.next" },
    });
  });

  it("projects to the playlists with the ids get_playlist takes, the total and a next page", async () => {
    const { dir } = await drafted();
    const playlists = [{ id: "37i9dQZF1DXcBWIGoYBM5M", name: "Today's Top Hits" }];
    // With no request to compare it to, the next URL is given as null: the key says the tool pages.
    expect(await projected(dir, "get_my_playlists", playlistPage)).toEqual({ playlists, total: 37, next: null });
    expect(await projected(dir, "get_featured_playlists", { message: "Popular", playlists: playlistPage })).toEqual({
      playlists,
      total: 37,
      next: null,
    });
  });
});

describe("a response of several pages", () => {
  it("is left out, naming the lists to choose from, never drafted as one record", async () => {
    const { result, annotation } = await drafted();
    expect(annotation.tools["search"]).toBeUndefined();
    expect(result.draft.skipped).toContainEqual({
      operation: "search",
      reason:
        "its response holds several lists of records (tracks.items, playlists.items); projector reads one list a tool: write a tool for each with `rows:`",
    });
  });
});

describe("a list of booleans", () => {
  it("is left out by init, saying why", async () => {
    const { result, annotation } = await drafted();
    expect(annotation.tools["check_saved_tracks"]).toBeUndefined();
    expect(result.draft.skipped).toContainEqual({
      operation: "check-saved-tracks",
      reason: "its response is a list of booleans, not of records",
    });
  });

  it("is refused by generate where a tool is written for it, at the tool", async () => {
    const { dir, loaded } = await drafted();
    const text = `spec: spec.json\noutput: generated/music\nresources:\n  saved: { fields: {} }\ntools:\n  check_saved_tracks:\n    operation: check-saved-tracks\n    resource: saved\n`;
    const built = buildModel(parseAnnotation(text, join(dir, "projector.yaml")), loaded);
    expect(built.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.message, d.help, d.location.line])).toEqual([
      [
        "PRJ012",
        "tool check_saved_tracks: its response is a list of booleans, not of records",
        "projector projects records (objects); choose an operation that returns them, or name their list with `rows:`",
        6,
      ],
    ]);
  });
});

describe("a map of records by key", () => {
  it("is left out by init, saying why, and refused by generate where a tool is written for it", async () => {
    const { result, dir, loaded } = await drafted();
    expect(result.draft.skipped).toContainEqual({
      operation: "get-tracks-by-market",
      reason: "its markets is a map of records by key, not a record or a list of them",
    });
    // Lists of them by key, and records under keys of a pattern, alike.
    expect(result.draft.skipped).toContainEqual({
      operation: "get-tracks-by-genre",
      reason: "its genres is a map of records by key, not a record or a list of them",
    });
    expect(result.draft.skipped).toContainEqual({
      operation: "get-tracks-by-decade",
      reason: "its decades is a map of records by key, not a record or a list of them",
    });
    const text = `spec: spec.json\noutput: generated/music\nresources:\n  market: { fields: {} }\ntools:\n  by_market:\n    operation: get-tracks-by-market\n    resource: market\n`;
    const built = buildModel(parseAnnotation(text, join(dir, "projector.yaml")), loaded);
    expect(built.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.message, d.location.line])).toEqual([
      ["PRJ012", "tool by_market: its markets is a map of records by key, not a record or a list of them", 6],
    ]);
  });
});

describe("a list with its count in meta", () => {
  it("reads meta.total as its page's total, so nothing beside the list is left unsaid", async () => {
    const { result } = await drafted();
    const tool = result.draft.tools.get("get_my_albums")!;
    expect(tool.page).toContainEqual(["total", "meta.total"]);
    expect(tool.rows).toBeUndefined();
  });
});

describe("a list with a record beside it", () => {
  it("names the list it reads and, beside it, the member no result shows", async () => {
    const { result } = await drafted();
    expect(result.text).toContain(
      "  get_queue:\n    operation: get-queue\n    rows: queue # beside it, not in the result: currently_playing, meta, warnings\n",
    );
  });

  it("is summarized with the member the result leaves out", async () => {
    const { dir, loaded } = await drafted();
    const model = buildModel(parseAnnotation(readFileSync(join(dir, "projector.yaml"), "utf8"), "projector.yaml"), loaded).model!;
    expect(summarize({ ...model, tools: model.tools.filter((t) => t.name === "get_queue") })).toBe(
      [
        "get_queue  get-queue (GET /me/player/queue)  ->  { tracks[] }",
        "  id        kept as argument to get_track",
        "  name      kept",
        "  not in the result: currently_playing, meta, warnings",
      ].join("\n"),
    );
  });
});
