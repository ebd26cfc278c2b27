// What init guesses for a field, on small specs built like the real ones it was wrong on: which
// field a tool's path parameter takes, what names an embedded record carries, what the spec's own
// schemas say is an id or a date, and the work it does on a spec whose records share one schema.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { parseAnnotation } from "../src/annotation/parse.js";
import { buildReport, formatReport } from "../src/evidence/report.js";
import { countText } from "../src/evidence/tokens.js";
import { initAnnotation } from "../src/init/init.js";
import { buildModel } from "../src/model/build.js";
import { carriedIdsAndUrls } from "../src/model/spec-ids.js";
import type { ToolModel } from "../src/model/types.js";
import { pascalCase } from "../src/naming.js";
import { loadSpec } from "../src/openapi/load.js";
import { SchemaReader } from "../src/openapi/schema.js";
import { context } from "../templates/runtime/context.js";
import { datetime } from "../templates/runtime/dates.js";
import { generateFrom, importGenerated, ROOT, tempDir } from "./helpers/pipeline.js";

type Schema = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema, example?: unknown) => ({
  "200": { description: "ok", content: { "application/json": { schema, ...(example !== undefined ? { example } : {}) } } },
});
const pathParameter = (name: string, schema: Schema = { type: "string" }) => ({ name, in: "path", required: true, schema });
/** A GET operation returning `schema`, with an example to project where one is given. */
const get = (operationId: string, parameters: object[], schema: Schema, example?: unknown) => ({
  get: { operationId, parameters, responses: json(schema, example) },
});
const specOf = (paths: Schema, schemas: Schema) => ({
  openapi: "3.0.3",
  info: { title: "Api", version: "1" },
  paths,
  components: { schemas },
});

/** init on a spec: the draft with its todos (or every guess taken), parsed, and where it was written. */
async function draft(spec: object, acceptGuesses = false) {
  const dir = tempDir();
  writeFileSync(join(dir, "spec.json"), JSON.stringify(spec));
  const loaded = await loadSpec(join(dir, "spec.json"), "spec.json", { allowRemoteRefs: false, allowOutsideRefs: false });
  const result = initAnnotation(loaded, { file: "projector.yaml", spec: "spec.json", output: "generated/api", acceptGuesses });
  writeFileSync(join(dir, "projector.yaml"), result.text);
  const annotation = parse(result.text) as {
    resolvers: Record<string, unknown>;
    resources: Record<string, { fields: Record<string, unknown> }>;
  };
  return { dir, result, text: result.text, annotation, loaded, fields: (resource: string) => annotation.resources[resource]!.fields };
}

type Project = (response: unknown, resolvers: unknown, options?: unknown) => Promise<Record<string, unknown>>;

/** Generates the draft with every guess taken and projects `response` through `tool`, with resolvers that record what they are asked. */
async function projected(dir: string, tool: string, response: unknown) {
  const generated = await generateFrom(join(dir, "projector.yaml"));
  expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const module = await importGenerated<Record<string, Project>>(generated.files);
  const asked: string[] = [];
  const resolvers = Object.fromEntries(
    generated.model!.resolvers.map((r) => [
      r.name,
      async (ids: readonly string[]) => {
        asked.push(...ids.map((id) => `${r.name} ${id}`));
        return new Map();
      },
    ]),
  );
  const issues: unknown[] = [];
  const result = await module[`project${pascalCase(tool)}`]!(response, resolvers, { onIssue: (i: unknown) => issues.push(i) });
  return { result, asked, issues };
}

// A code host: an issue has a global `id` and the `number` its path takes; it embeds its author and labels.
const SimpleUser = {
  type: "object",
  required: ["login", "id"],
  properties: {
    login: { type: "string" },
    id: { type: "integer" },
    avatar_url: { type: "string", format: "uri" },
    name: { type: "string", nullable: true },
  },
};
const Issue = {
  type: "object",
  properties: {
    id: { type: "integer" },
    number: { type: "integer" },
    title: { type: "string" },
    user: ref("SimpleUser"),
    labels: { type: "array", items: ref("Label") },
  },
};
const Label = {
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "integer" }, name: { type: "string" }, color: { type: "string" } },
};
const ISSUE_EXAMPLE = {
  id: 1296269,
  number: 1347,
  title: "Found a bug",
  user: { login: "octocat", id: 1, avatar_url: "https://github.com/images/error/octocat_happy.gif", name: null },
  labels: [{ id: 208045946, name: "bug", color: "f29513" }],
};
const codeHost = () =>
  specOf(
    {
      "/repos/{owner}/{repo}/issues": get("listIssues", [pathParameter("owner"), pathParameter("repo")], {
        type: "array",
        items: ref("Issue"),
      }),
      "/repos/{owner}/{repo}/issues/{issue_number}": get(
        "getIssue",
        [pathParameter("owner"), pathParameter("repo"), pathParameter("issue_number", { type: "integer" })],
        ref("Issue"),
        ISSUE_EXAMPLE,
      ),
      "/users/{username}": get("getUser", [pathParameter("username")], ref("User")),
    },
    {
      Issue,
      SimpleUser,
      Label,
      User: { type: "object", properties: { login: { type: "string" }, id: { type: "integer" }, bio: { type: "string" } } },
    },
  );

describe("the field a tool's path parameter takes", () => {
  it("is the one its name says: `issue_number` takes the issue's `number`, not its global `id`", async () => {
    const { fields } = await draft(codeHost(), true);
    expect(fields("issue").number).toEqual({ argument: ["list_issues", "get_issue"].slice(1) });
    expect(fields("issue").id).toEqual({ drop: "no tool takes this id" });
  });

  it("is left a todo, saying which parameter, when no field matches it by name or schema", async () => {
    const { fields, text } = await draft(codeHost());
    // `/users/{username}` takes a login; nothing in a user is named `username` or written like it.
    expect(fields("user").id).toEqual({
      todo: "get_user takes `username`, which no field of this record matches by name or schema: make the field that holds it an argument",
      drop: "no tool takes this id",
    });
    expect(text).not.toMatch(/argument: \[ get_user \]/);
  });

  it("is a todo where the field and the parameter are declared as different types", async () => {
    const spec = specOf(
      { "/notes/{note_id}": get("getNote", [pathParameter("note_id", { type: "integer" })], ref("Note")) },
      { Note: { type: "object", properties: { id: { type: "string" }, body: { type: "string" } } } },
    );
    const { fields } = await draft(spec);
    expect(fields("note").id).toEqual({
      todo: "passed to get_note as `note_id`, declared integer where the field is string: check the tool takes this value",
      argument: ["get_note"],
    });
  });
});

describe("a record the API embeds", () => {
  it("is joined through a resolver whose label is the name it carries, with the reason beside it", async () => {
    const { annotation, fields, text } = await draft(codeHost(), true);
    expect(fields("issue").user).toEqual({ join: "users" });
    expect(fields("issue").labels).toEqual({ join: "labels" });
    // `login` is always there; `name` may be null.
    expect(annotation.resolvers).toEqual({ users: { label: "login" }, labels: { label: "name" } });
    expect(text).toContain("  users: { label: login } # `user` embeds one with its name in `login`\n");
  });

  it("projects to the name it carries, asking no resolver", async () => {
    const { dir } = await draft(codeHost(), true);
    const { result, asked, issues } = await projected(dir, "get_issue", ISSUE_EXAMPLE);
    expect(result).toEqual({ number: 1347, title: "Found a bug", user: "octocat", labels: ["bug"] });
    expect(asked).toEqual([]);
    expect(issues).toEqual([]);
  });

  it("that carries no name is dropped with a todo, not joined to `{ unresolved }` through a resolver nobody wrote", async () => {
    const spec = specOf(
      { "/tasks/{id}": get("getTask", [pathParameter("id")], ref("Task")) },
      {
        Task: {
          type: "object",
          properties: {
            id: { type: "string" },
            title: { type: "string" },
            parent: { type: "object", properties: { id: { type: "string" }, type: { type: "string" } } },
          },
        },
      },
    );
    const { fields } = await draft(spec);
    expect(fields("task").parent).toEqual({
      todo: "a reference to another record that carries no name: write a resolver and `join: parents` to name it, or keep the drop",
      drop: "a reference to another record with no name in it",
    });
  });
});

// A chat API: every id is a snowflake, the one schema `id`, `channel_id` and the lists of mentions use.
const chat = () =>
  specOf(
    {
      "/channels/{channel_id}/messages/{message_id}": get(
        "getMessage",
        [pathParameter("channel_id", ref("SnowflakeType")), pathParameter("message_id", ref("SnowflakeType"))],
        ref("Message"),
      ),
    },
    {
      SnowflakeType: { type: "string", pattern: "^(0|[1-9][0-9]*)$" },
      Message: {
        type: "object",
        properties: {
          id: ref("SnowflakeType"),
          channel_id: ref("SnowflakeType"),
          content: { type: "string" },
          mention_roles: { type: "array", items: ref("SnowflakeType") },
          pinned_by: ref("SnowflakeType"),
          nonce: { type: "string", format: "uuid" },
          meta: { type: "object", properties: { note: { type: "string" }, pinned_by: ref("SnowflakeType") } },
        },
      },
    },
  );

describe("an id not named like one", () => {
  it("is recognised by the spec's id schema, a list of them too, and never drafted kept", async () => {
    const { fields } = await draft(chat(), true);
    expect(fields("message").mention_roles).toEqual({ drop: "no tool takes these ids" });
    expect(fields("message").pinned_by).toEqual({ drop: "no tool takes this id" });
    expect(fields("message").nonce).toEqual({ drop: "no tool takes this id" });
    expect(fields("message")["meta.pinned_by"]).toEqual({ drop: "no tool takes this id" });
    expect(fields("message")["meta.note"]).toBe("keep");
  });

  it("says how it is known in the todo", async () => {
    const { fields } = await draft(chat());
    expect((fields("message").mention_roles as { todo: string }).todo).toBe(
      "written with the spec's id schema (SnowflakeType) as a list of ids no drafted tool takes: write a resolver and `join: mention_roles` to name them, or keep the drop",
    );
  });

  it("stops generate when a value kept whole would carry it (PRJ022)", async () => {
    const { loaded } = await draft(chat());
    const annotation = [
      "spec: spec.json",
      "output: generated/api",
      "resources:",
      "  message:",
      "    schema: Message",
      "    fields:",
      '      id: { drop: "x" }',
      '      channel_id: { drop: "x" }',
      "      content: keep",
      "      mention_roles: keep",
      '      pinned_by: { drop: "x" }',
      '      nonce: { drop: "x" }',
      "      meta: keep",
      "tools:",
      "  get_message:",
      "    operation: getMessage",
      "",
    ].join("\n");
    const built = buildModel(parseAnnotation(annotation, "projector.yaml"), loaded);
    expect(built.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`)).toEqual([
      "PRJ022 message.mention_roles: kept whole, this list would carry `mention_roles[]`, an opaque id",
      "PRJ022 message.meta: kept whole, this object would carry `meta.pinned_by`, an opaque id",
    ]);
  });
});

describe("an integer enum reached through allOf", () => {
  it("takes the spec's words, read through the allOf", async () => {
    const spec = specOf(
      { "/tickets/{id}": get("getTicket", [pathParameter("id")], ref("Ticket")) },
      {
        Priority: { type: "integer", enum: [1, 2, 3], "x-enum-varnames": ["LOW", "HIGH", "URGENT"] },
        Ticket: {
          type: "object",
          properties: { id: { type: "string" }, priority: { allOf: [ref("Priority")], description: "How urgent it is." } },
        },
      },
    );
    expect((await draft(spec, true)).fields("ticket").priority).toEqual({ legend: "spec" });
  });
});

describe("a point in time", () => {
  const spec = specOf(
    { "/charges/{id}": get("getCharge", [pathParameter("id")], ref("Charge")) },
    {
      Charge: {
        type: "object",
        properties: {
          id: { type: "string" },
          created: { type: "integer", format: "unix-time" },
          date_created: { type: "string", format: "date-time-rfc-2822" },
          refunded_at: { type: "string" },
          growth_time: { type: "integer", description: "The time it takes a tree to grow one stage, in hours." },
          ripening_time: { type: "integer" },
        },
      },
    },
  );

  it("is read from the declared format before the name: Stripe's `unix-time` integers are dates", async () => {
    const { fields } = await draft(spec);
    expect(fields("charge").created).toEqual({ format: "datetime" });
    // A string named like a timestamp and declared nothing more is a guess by its name alone.
    expect(fields("charge").refunded_at).toEqual({
      todo: "named like a timestamp, by its name alone: to the minute in UTC",
      format: "datetime",
    });
  });

  it("written as RFC 2822 text, which the runtime's date readers do not read, stays text with a todo saying why", async () => {
    expect(datetime("Thu, 30 Jul 2015 20:12:31 +0000", { field: "date_created", required: true, ctx: context("charge", {}) })).toEqual({
      unusable: 'not a date-time: "Thu, 30 Jul 2015 20:12:31 +0000"',
    });
    const { fields } = await draft(spec);
    expect((fields("charge").date_created as { todo: string }).todo).toMatch(
      /^a date-time declared `format: date-time-rfc-2822` .*would mark every value unusable, so it is kept as the text it is$/,
    );
    expect((await draft(spec, true)).fields("charge").date_created).toBe("keep");
  });

  it("is not a duration: hours stay a number, and an integer named `*_time` alone is a todo that keeps it", async () => {
    const { fields } = await draft(spec);
    expect(fields("charge").growth_time).toBe("keep");
    expect(fields("charge").ripening_time).toEqual({
      todo: "named like a time, but an integer so named is as often a duration: write `format: datetime` if it holds unix seconds",
    });
    expect((await draft(spec, true)).fields("charge").ripening_time).toBe("keep");
  });
});

describe("init on a spec whose records all embed one large schema", () => {
  afterEach(() => vi.restoreAllMocks());

  /** `fields` properties on each of `records` schemas, all the same deep tree of `depth` levels, two wide, with ids at the leaves. */
  const sharedSpec = (records: number, fields: number, depth: number) => {
    const tree = (level: number): Schema =>
      level === depth
        ? { type: "object", properties: { id: { type: "string" }, note: { type: "string" } } }
        : { type: "object", properties: { left: ref(`Level${level + 1}`), right: ref(`Level${level + 1}`) } };
    const schemas: Schema = Object.fromEntries(Array.from({ length: depth + 1 }, (_, level) => [`Level${level}`, tree(level)]));
    const paths: Schema = {};
    for (let r = 0; r < records; r++) {
      schemas[`Record${r}`] = {
        type: "object",
        properties: {
          id: { type: "string" },
          ...Object.fromEntries(Array.from({ length: fields }, (_, f) => [`part_${f}`, ref("Level0")])),
        },
      };
      paths[`/records${r}/{id}`] = get(`getRecord${r}`, [pathParameter("id")], ref(`Record${r}`));
    }
    return specOf(paths, schemas);
  };

  /** How many times each schema node below the classified levels is walked, counted where every walk reads its properties. */
  const walksBelow = async (spec: object, level: number) => {
    const properties = vi.spyOn(SchemaReader.prototype, "properties");
    await draft(spec);
    const deep = /^\/components\/schemas\/Level(\d+)$/;
    const counts = new Map<string, number>();
    for (const [at] of properties.mock.calls) {
      const pointer = new SchemaReader({}).unwrapNullable(at).pointer;
      const match = deep.exec(pointer);
      if (match && Number(match[1]) >= level) counts.set(pointer, (counts.get(pointer) ?? 0) + 1);
    }
    properties.mockRestore();
    return counts;
  };

  it("walks each node of the shared schema the same number of times, however many fields share it", async () => {
    const few = await walksBelow(sharedSpec(2, 3, 10), 4);
    const many = await walksBelow(sharedSpec(8, 12, 10), 4);
    expect([...few.keys()].sort()).toEqual([...many.keys()].sort());
    expect(few.size).toBeGreaterThan(0);
    // Sixteen times the fields, and not one more walk of the deep levels.
    expect(many).toEqual(few);
  });

  it("finds the ids at any depth of the shared schema, from every field, walking it once", () => {
    const spec = sharedSpec(1, 40, 12);
    const reader = new SchemaReader(spec as unknown as Record<string, never>);
    const properties = vi.spyOn(SchemaReader.prototype, "properties");
    const record = reader.pointer("/components/schemas/Record0")!;
    const carried = reader.properties(record).map((p) => carriedIdsAndUrls(reader, p.at, p.name));
    expect(carried[1]!.ids[0]).toBe(`part_0${".left".repeat(12)}.id`);
    expect(carried.at(-1)!.ids[0]).toBe(`part_39${".left".repeat(12)}.id`);
    // Thirteen levels walked once each, the record itself read once: not forty times thirteen.
    expect(properties.mock.calls.length).toBeLessThanOrEqual(13 + 1);
  });
});

describe("projector tokens on a page", () => {
  let tool: ToolModel;
  beforeAll(async () => {
    tool = (await generateFrom(join(ROOT, "projector.yaml"))).model!.tools.find((t) => t.name === "search_tickets")!;
  });

  it("gives the mean over the page's records as the figure per record, and says so", () => {
    const record = (subject: string) => ({ type: "ticket", id: "tkt_1", attributes: { subject } });
    const records = [
      record("Short"),
      record("A much longer subject than the others, with many more words in it"),
      record("Mid length one"),
    ];
    const texts = records.map((r) => JSON.stringify(r));
    const report = buildReport({
      tool,
      tokenizer: "o200k_base",
      raw: { data: records },
      rawRecords: records,
      projectedText: JSON.stringify(texts),
      projectedRecordTexts: texts,
      jsonText: JSON.stringify(texts),
      followUpsByResolver: {},
      toolDefinitions: [],
    });
    const each = texts.map((text) => countText(text, "o200k_base").tokens);
    expect(each[0]).not.toBe(Math.round((each[0]! + each[1]! + each[2]!) / 3));
    expect(report.raw.perRecord!.tokens).toBe(Math.round((each[0]! + each[1]! + each[2]!) / 3));
    expect(report.projected.perRecord!.tokens).toBe(report.raw.perRecord!.tokens);
    expect(Object.values(report.raw.perRecord!.parts).reduce((a, b) => a + b, 0)).toBe(report.raw.perRecord!.tokens);
    const printed = formatReport(report);
    expect(printed).toMatch(/^per record \(mean of 3\) {2}tokens/m);
    expect(printed).toContain("raw record (mean of 3) by part (tokens):");
  });
});

// Twilio's API v2010: sids in `{Sid}.json` paths, each kind with its own pattern; RFC 2822 dates; maps of URLs.
const sid = (prefix: string) => ({ type: "string", minLength: 34, maxLength: 34, pattern: `^${prefix}[0-9a-fA-F]{32}$` });
const rfc2822 = { type: "string", format: "date-time-rfc-2822", nullable: true };
const twilio = () =>
  specOf(
    {
      "/2010-04-01/Accounts.json": get("ListAccount", [], {
        type: "object",
        properties: { accounts: { type: "array", items: ref("api.v2010.account") }, next_page_uri: { type: "string", format: "uri" } },
      }),
      "/2010-04-01/Accounts/{Sid}.json": get("FetchAccount", [pathParameter("Sid", sid("AC"))], ref("api.v2010.account")),
      "/2010-04-01/Accounts/{AccountSid}/Calls.json": get("ListCall", [pathParameter("AccountSid", sid("AC"))], {
        type: "object",
        properties: { calls: { type: "array", items: ref("api.v2010.account.call") }, next_page_uri: { type: "string", format: "uri" } },
      }),
      "/2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json": get(
        "FetchCall",
        [pathParameter("AccountSid", sid("AC")), pathParameter("Sid", sid("CA"))],
        ref("api.v2010.account.call"),
      ),
    },
    {
      "api.v2010.account": {
        type: "object",
        properties: {
          sid: sid("AC"),
          owner_account_sid: sid("AC"),
          friendly_name: { type: "string" },
          date_created: rfc2822,
          subresource_uris: { type: "object", format: "uri-map", nullable: true },
        },
      },
      "api.v2010.account.call": {
        type: "object",
        properties: {
          sid: sid("CA"),
          account_sid: sid("AC"),
          parent_call_sid: sid("CA"),
          call_sid_to_coach: sid("CA"),
          to: { type: "string" },
          media: { type: "array", items: {} },
          date_created: rfc2822,
        },
      },
    },
  );

describe("Twilio's sids", () => {
  it("are arguments of the tools whose `{Sid}` paths take them, matched by name and by pattern", async () => {
    const { fields } = await draft(twilio(), true);
    expect(fields("api_v2010_account").sid).toEqual({ argument: ["fetch_account", "list_call"] });
    expect(fields("api_v2010_account").owner_account_sid).toEqual({ argument: ["fetch_account"] });
    expect(fields("api_v2010_account_call").sid).toEqual({ argument: ["fetch_call"] });
    expect(fields("api_v2010_account_call").account_sid).toEqual({ argument: ["fetch_account"] });
    expect(fields("api_v2010_account_call").parent_call_sid).toEqual({ argument: ["fetch_call"] });
    // Named like nothing in particular, written like a call's sid.
    expect(fields("api_v2010_account_call").call_sid_to_coach).toEqual({ argument: ["fetch_call"] });
  });

  it("leave RFC 2822 dates as text to decide, and drop a map of URLs", async () => {
    const { fields } = await draft(twilio());
    // A list of items of no declared type may hold media sids and links: kept only once someone decides.
    expect(fields("api_v2010_account_call").media).toEqual({ todo: "a list of values of no declared type" });
    expect(Object.keys(fields("api_v2010_account_call").date_created as object)).toEqual(["todo"]);
    expect(fields("api_v2010_account").subresource_uris).toEqual({ drop: "a link the model cannot open" });
  });
});

// PokeAPI: other records are `{ name, url }`, with no id.
const named = (resource: string) => ({
  type: "object",
  required: ["name", "url"],
  properties: { name: { type: "string" }, url: { type: "string", format: "uri" } },
  description: `a ${resource}`,
});
const ABILITY_EXAMPLE = {
  id: 1,
  name: "stench",
  generation: { name: "generation-iii", url: "https://pokeapi.co/api/v2/generation/3/" },
  names: [{ name: "Puanteur", language: { name: "fr", url: "https://pokeapi.co/api/v2/language/5/" } }],
};
const pokeApi = () =>
  specOf(
    { "/api/v2/ability/{id}/": get("ability_retrieve", [pathParameter("id")], ref("AbilityDetail"), ABILITY_EXAMPLE) },
    {
      GenerationSummary: named("generation"),
      LanguageSummary: named("language"),
      AbilityDetail: {
        type: "object",
        properties: {
          id: { type: "integer" },
          name: { type: "string" },
          generation: ref("GenerationSummary"),
          names: {
            type: "array",
            items: { type: "object", properties: { name: { type: "string" }, language: ref("LanguageSummary") } },
          },
        },
      },
    },
  );

describe("a reference with a name and a link but no id", () => {
  it("keeps the name, lifted to the field's place, and drops the link; inside a list it keeps the name in each item", async () => {
    const { fields } = await draft(pokeApi(), true);
    expect(fields("ability_detail")).toEqual({
      id: { argument: ["ability_retrieve"] },
      name: "keep",
      "generation.name": { as: "generation" },
      "generation.url": { drop: "a link the model cannot open" },
      "names.name": "keep",
      "names.language.name": "keep",
      "names.language.url": { drop: "a link the model cannot open" },
    });
  });

  it("projects to its name, and no link reaches the model", async () => {
    const { dir } = await draft(pokeApi(), true);
    const { result, issues } = await projected(dir, "ability_retrieve", ABILITY_EXAMPLE);
    expect(result).toEqual({
      id: 1,
      name: "stench",
      names: [{ name: "Puanteur", language: { name: "fr" } }],
      generation: "generation-iii",
    });
    expect(issues).toEqual([]);
  });
});

// Spotify: an album embeds its artists as `[{ id, name, uri, href }]`, and a page of its tracks.
const simplified = {
  type: "object",
  properties: { id: { type: "string" }, name: { type: "string" }, uri: { type: "string" }, href: { type: "string" } },
};
const ALBUM_EXAMPLE = {
  id: "4aawyAB9vmqN3uQ7FjRGTy",
  name: "Discovery",
  artists: [
    {
      id: "4tZwfgrHOc3mvqYlEYSvVi",
      name: "Daft Punk",
      uri: "spotify:artist:4tZwfgrHOc3mvqYlEYSvVi",
      href: "https://api.spotify.com/v1/artists/4tZwfgrHOc3mvqYlEYSvVi",
    },
  ],
  tracks: {
    href: "https://api.spotify.com/v1/albums/4aawyAB9vmqN3uQ7FjRGTy/tracks",
    items: [
      {
        id: "0DiWol3AO6WpXZgp0goxAV",
        name: "One More Time",
        uri: "spotify:track:0DiWol3AO6WpXZgp0goxAV",
        href: "https://api.spotify.com/v1/tracks/0DiWol3AO6WpXZgp0goxAV",
      },
    ],
    next: null,
    total: 14,
  },
};
const spotify = () =>
  specOf(
    {
      "/albums/{id}": get("get-an-album", [pathParameter("id")], ref("AlbumObject"), ALBUM_EXAMPLE),
      "/tracks/{id}": get("get-track", [pathParameter("id")], ref("SimplifiedTrackObject")),
    },
    {
      SimplifiedArtistObject: simplified,
      SimplifiedTrackObject: simplified,
      AlbumObject: {
        type: "object",
        properties: {
          id: { type: "string" },
          name: { type: "string" },
          artists: { type: "array", items: ref("SimplifiedArtistObject") },
          tracks: {
            type: "object",
            properties: {
              href: { type: "string", description: "A link to the Web API endpoint returning the full result of the request" },
              items: { type: "array", items: ref("SimplifiedTrackObject") },
              next: { type: "string", nullable: true, description: "URL to the next page of items. ( `null` if none)" },
              total: { type: "integer" },
            },
          },
        },
      },
    },
  );

describe("a list of embedded records with ids and names", () => {
  it("is joined to the names, not dropped as a list of records with opaque ids", async () => {
    const { annotation, fields } = await draft(spotify(), true);
    expect(fields("album").artists).toEqual({ join: "artists" });
    expect(fields("album")["tracks.items"]).toEqual({ join: "tracks" });
    expect(fields("album")["tracks.next"]).toEqual({ drop: "a link the model cannot open" });
    expect(annotation.resolvers).toEqual({ artists: { label: "name" }, tracks: { label: "name" } });
  });

  it("projects to the names the records carry, asking no resolver", async () => {
    const { dir } = await draft(spotify(), true);
    const { result, asked } = await projected(dir, "get_an_album", ALBUM_EXAMPLE);
    expect(result).toEqual({
      id: "4aawyAB9vmqN3uQ7FjRGTy",
      name: "Discovery",
      artists: ["Daft Punk"],
      tracks: { items: ["One More Time"], total: 14 },
    });
    expect(asked).toEqual([]);
  });
});

// An account record that holds its own credentials beside look-alikes that are no secret.
const text = { type: "string" };
const Account = {
  type: "object",
  properties: {
    sid: sid("AC"),
    friendly_name: text,
    auth_token: text,
    apiKey: text,
    "client-secret": text,
    refresh_token: text,
    signing_secret: text,
    private_key: text,
    passcode: { type: "string", format: "password" },
    pwd: text,
    session_cookie: text,
    routing_key: text,
    connection_string: text,
    tokens: { type: "array", items: text },
    private_key_pem: text,
    authorization: text,
    basic_auth: text,
    mnemonic: text,
    backup_codes: { type: "array", items: text },
    otp_enabled: { type: "boolean" },
    authorization_header: text,
    otp_code: text,
    seed_phrase: text,
    key_pem: text,
    recovery_key: text,
    public_key_pem: text,
    tls_key_pem: text,
    private_pem: text,
    recovery_phrase: text,
    pass_phrase: text,
    phrase: text,
    priv_pem: text,
    tls_key: text,
    privkey: text,
    psk: text,
    creds: text,
    backup_phrase: text,
    seed_words: text,
    key_material: text,
    security_answer: text,
    catch_phrase: text,
    key_phrases: { type: "array", items: text },
    api_key_name: text,
    token_type: text,
    expires_in: { type: "integer" },
    password_changed_at: { type: "string", format: "date-time" },
    has_password: { type: "boolean" },
    secret_count: { type: "integer" },
    max_tokens: { type: "integer" },
    input_tokens: { type: "string", format: "uint64" },
    total_tokens: text,
    next_page_token: text,
    public_key: text,
    key: text,
    keyboard: text,
    auth_header: text,
    auth: text,
    accesstoken: text,
    authkey: text,
    door_passcode: text,
    pin_number: text,
    client_certificate_key: text,
    mfa_seed: text,
    verification_code: text,
    application_keys: { type: "array", items: { type: "object", properties: { name: text, key: text } } },
    numeric_password: { type: "integer", format: "password" },
    card_pin_int: { type: "integer" },
    login_pin: { type: "integer" },
    status_code: { type: "integer" },
    secret_total: { type: "integer" },
    secrets_by_env: { type: "object", additionalProperties: { type: "string", format: "password" } },
    settings_by_env: { type: "object", additionalProperties: { type: "object", properties: { region: text, api_key: text } } },
    labels_by_env: { type: "object", additionalProperties: text },
    // Maps whose values are credentials as often as not, whatever their keys.
    request_headers: { type: "object", additionalProperties: text },
    env_vars: { type: "object", additionalProperties: text },
    forwarder_auth: {
      oneOf: [
        { type: "object", properties: { type: { type: "string" } } },
        { type: "object", additionalProperties: text },
      ],
    },
    header_counts: { type: "object", additionalProperties: { type: "integer" } },
    custom_headers: { type: "array", items: { type: "object", properties: { name: text, value: text } } },
    raw_headers: { type: "array", items: text },
    any_headers: { type: "object" },
    env: { type: "array", items: { type: "object", properties: { key: text, value: text } } },
    environments: { type: "array", items: text },
    jdbc_url: { type: "string", example: "jdbc:postgresql://admin:s3cret@db.example.com/app" },
    ado_connection: { type: "string", example: "Server=db;Database=app;User Id=admin;Password=s3cret;" },
    callback: { type: "string", example: "https://app.example.com/cb?token=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0In0." },
    auth_value: { type: "string", example: "Bearer 4f9c2a71b6d04e3f" },
    basic_value: { type: "string", example: "Basic YWRtaW46czNjcmV0" },
    auth_type: { type: "string", example: "Basic authentication" },
    openai_handle: { type: "string", enum: ["sk-proj-abcdefghijklmnop1234"] },
    token_list: { type: "array", items: { type: "string", example: "ghp_abcdefghijklmnopqrstuvwx" } },
    api_key: { type: "object", properties: { value_enc: text, label: text } },
    picks: { type: "array", contains: { type: "object", properties: { password: text } } },
    steps: {
      type: "object",
      allOf: [
        {
          if: { required: ["a"] },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then`, not a promise's
          then: { properties: { api_token: text } },
        },
      ],
    },
    totp: text,
    tfa_code: text,
    authorization_code: text,
    password_confirmation: text,
    pwd_hash: text,
    cvv: { type: "integer" },
    security_code: text,
    client_assertion: text,
    keystore: text,
    client_key_data: text,
    pin_count: { type: "integer" },
    pins_total: { type: "integer" },
    passwords: { type: "integer" },
    token: { type: "object", properties: { text, logprob: { type: "number" } } },
    nlp_tokens: { type: "array", items: { type: "object", properties: { text, tag: text } } },
    rule: {
      type: "object",
      properties: { kind: text },
      if: { properties: { kind: { const: "hook" } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then`, not a promise's
      then: { properties: { api_secret: text } },
    },
    pin: text,
    card_pin: text,
    pin_code: text,
    pins: { type: "array", items: { type: "object", properties: { channel: text } } },
    pinned: { type: "boolean" },
    // Named like nothing secret: their examples say what they hold.
    sink_key: { type: "string", example: "-----BEGIN PRIVATE KEY-----\\nMIIEvg...\\n-----END PRIVATE KEY-----" },
    sink_cert: { type: "string", example: "-----BEGIN CERTIFICATE-----\\nMIIFFj...\\n-----END CERTIFICATE-----" },
    database_uri: { type: "string", format: "uri", example: "postgres://doadmin:wv78n3zpz42xezdk@db.example.com:25060/defaultdb" },
    clone_url: { type: "string", format: "uri", example: "ssh://git@github.com:22/acme/app.git" },
    id_jwt: { type: "string", examples: ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"] },
    stripe_handle: { type: "string", default: "sk_live_4eC39HqLyjWDarjtT1zdp7dc" },
    sku: { type: "string", example: "sk-1234" },
    api_keys: { type: "array", items: { type: "object", properties: { label: text, value: text } } },
    settings: { type: "object", properties: { value: text, theme: text } },
    sip: { type: "object", properties: { username: text, password: text, realm: text } },
    vault: { type: "object", properties: { size: { type: "integer" }, master: { type: "object", properties: { api_key: text } } } },
  },
};
const ACCOUNT_EXAMPLE = {
  sid: "AC0123456789abcdef0123456789abcdef",
  friendly_name: "Main",
  auth_token: "s3cr3t-auth",
  apiKey: "s3cr3t-api",
  "client-secret": "s3cr3t-client",
  refresh_token: "s3cr3t-refresh",
  signing_secret: "s3cr3t-signing",
  private_key: "s3cr3t-private",
  passcode: "s3cr3t-pass",
  token_type: "bearer",
  sink_key: "-----BEGIN PRIVATE KEY-----\ns3cr3t-key\n-----END PRIVATE KEY-----",
  database_uri: "postgres://admin:s3cr3t-db@db.example.com/app",
  sip: { username: "main", password: "s3cr3t-sip", realm: "sip.example.com" },
  vault: { size: 2, master: { api_key: "s3cr3t-vault" } },
  api_keys: [{ label: "ci", value: "s3cr3t-listed" }],
};
const accounts = () =>
  specOf({ "/Accounts/{Sid}": get("FetchAccount", [pathParameter("Sid", sid("AC"))], ref("Account"), ACCOUNT_EXAMPLE) }, { Account });

describe("a credential in a record", () => {
  const secret = { drop: "a credential, never shown to the model" };

  it("is dropped for sure, by its name in any case or by `format: password`, and look-alikes are not", async () => {
    const { fields } = await draft(accounts());
    expect(fields("account")).toMatchObject({
      auth_token: secret,
      apiKey: secret,
      "client-secret": secret,
      refresh_token: secret,
      signing_secret: secret,
      private_key: secret,
      passcode: secret,
      pwd: secret,
      session_cookie: secret,
      routing_key: secret,
      connection_string: secret,
      tokens: secret,
      private_key_pem: secret,
      authorization: secret,
      basic_auth: secret,
      mnemonic: secret,
      backup_codes: secret,
      otp_enabled: "keep",
      authorization_header: secret,
      otp_code: secret,
      seed_phrase: secret,
      key_pem: secret,
      recovery_key: secret,
      public_key_pem: "keep",
      tls_key_pem: secret,
      private_pem: secret,
      recovery_phrase: secret,
      pass_phrase: secret,
      phrase: "keep",
      priv_pem: secret,
      tls_key: secret,
      privkey: secret,
      psk: secret,
      creds: secret,
      backup_phrase: secret,
      seed_words: secret,
      key_material: secret,
      security_answer: secret,
      catch_phrase: "keep",
      key_phrases: "keep",
      api_key_name: "keep",
      token_type: "keep",
      expires_in: "keep",
      password_changed_at: { format: "datetime" },
      has_password: "keep",
      secret_count: "keep",
      max_tokens: "keep",
      input_tokens: "keep",
      total_tokens: "keep",
      next_page_token: "keep",
      public_key: "keep",
      key: "keep",
      keyboard: "keep",
      auth_header: secret,
      auth: "keep",
      accesstoken: secret,
      authkey: secret,
      door_passcode: secret,
      pin_number: secret,
      client_certificate_key: secret,
      mfa_seed: secret,
      verification_code: secret,
      "application_keys.name": "keep",
      "application_keys.key": secret,
      numeric_password: secret,
      card_pin_int: "keep",
      login_pin: secret,
      status_code: "keep",
      secret_total: "keep",
      secrets_by_env: {
        todo: "kept whole it would carry secrets_by_env{}, a credential: its values have no names to classify, so it goes whole",
        drop: "holds a credential",
      },
      settings_by_env: {
        todo: "kept whole it would carry settings_by_env{}.api_key, a credential: its values have no names to classify, so it goes whole",
        drop: "holds a credential",
      },
      labels_by_env: { todo: "free-form data" },
      request_headers: {
        todo: "kept whole it would carry request_headers{}, a credential: its values have no names to classify, so it goes whole",
        drop: "holds a credential",
      },
      env_vars: {
        todo: "kept whole it would carry env_vars{}, a credential: its values have no names to classify, so it goes whole",
        drop: "holds a credential",
      },
      // Its declared part only: the values of its free-form branch, which no name classifies, are never kept.
      "forwarder_auth.type": "keep",
      header_counts: { todo: "free-form data" },
      "custom_headers.name": "keep",
      "custom_headers.value": secret,
      raw_headers: secret,
      any_headers: { todo: expect.stringContaining("any_headers{}, a credential"), drop: "holds a credential" },
      "env.key": "keep",
      "env.value": secret,
      environments: "keep",
      jdbc_url: secret,
      ado_connection: secret,
      callback: secret,
      auth_value: secret,
      basic_value: secret,
      auth_type: "keep",
      openai_handle: secret,
      token_list: secret,
      api_key: secret,
      picks: {
        todo: "kept whole it would carry picks{}.password, a credential: its values have no names to classify, so it goes whole",
        drop: "holds a credential",
      },
      steps: {
        todo: "kept whole it would carry steps{}{}.api_token, a credential: its values have no names to classify, so it goes whole",
        drop: "holds a credential",
      },
      totp: secret,
      tfa_code: secret,
      authorization_code: secret,
      password_confirmation: secret,
      pwd_hash: secret,
      cvv: secret,
      security_code: secret,
      client_assertion: secret,
      keystore: secret,
      client_key_data: secret,
      pin_count: "keep",
      pins_total: "keep",
      passwords: "keep",
      token: "keep",
      nlp_tokens: "keep",
      // Classified by its declared parts, so the secret its `then` holds is never read.
      "rule.kind": "keep",
      pin: secret,
      card_pin: secret,
      pin_code: secret,
      pins: "keep",
      pinned: "keep",
      sink_key: secret,
      sink_cert: "keep",
      database_uri: secret,
      clone_url: { drop: "a link the model cannot open" },
      id_jwt: secret,
      stripe_handle: secret,
      sku: "keep",
      "api_keys.label": "keep",
      "api_keys.value": secret,
      settings: "keep",
    });
  });

  it("inside an object is dropped by its part, or with the object where nothing else of it is worth reading", async () => {
    const { fields } = await draft(accounts());
    expect(fields("account")).toMatchObject({
      "sip.username": "keep",
      "sip.password": secret,
      "sip.realm": "keep",
      vault: {
        todo: "kept whole it would carry vault.master.api_key, a credential: classify its parts to keep the rest",
        drop: "holds a credential",
      },
    });
    expect(fields("account")).not.toHaveProperty("sip");
  });

  it("never reaches the model, every guess taken", async () => {
    const { dir } = await draft(accounts(), true);
    const { result } = await projected(dir, "fetch_account", ACCOUNT_EXAMPLE);
    expect(JSON.stringify(result)).not.toMatch(/s3cr3t/);
    expect(result).toMatchObject({ friendly_name: "Main", token_type: "bearer", sip: { username: "main", realm: "sip.example.com" } });
  });
});

// A music API: the queue holds tracks and episodes, each fetched by its own tool; `/me` is the private side of a user.
const playable = (type: string) => ({
  type: "object",
  properties: { id: text, name: text, type: { type: "string", enum: [type] } },
});
const musicApi = () =>
  specOf(
    {
      "/tracks/{id}": get("get-track", [pathParameter("id")], ref("TrackObject")),
      "/episodes/{id}": get("get-an-episode", [pathParameter("id")], ref("EpisodeObject")),
      "/me/player/queue": get("get-queue", [], ref("QueueObject")),
      "/users/{user_id}": get("get-users-profile", [pathParameter("user_id")], ref("PublicUserObject")),
      "/me": get("get-current-users-profile", [], ref("PrivateUserObject")),
    },
    {
      TrackObject: playable("track"),
      EpisodeObject: playable("episode"),
      QueueObject: {
        type: "object",
        properties: { queue: { type: "array", items: { oneOf: [ref("TrackObject"), ref("EpisodeObject")] } } },
      },
      PublicUserObject: { type: "object", properties: { id: text, display_name: text } },
      PrivateUserObject: { type: "object", properties: { id: text, display_name: text, country: text, account_id: text } },
    },
  );

// Twilio writes the sids of incoming phone numbers and of outgoing caller ids alike; a call's `phone_number_sid` is either.
const phoneNumbers = () =>
  specOf(
    {
      "/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json": get(
        "FetchIncomingPhoneNumber",
        [pathParameter("AccountSid", sid("AC")), pathParameter("Sid", sid("PN"))],
        ref("incoming_phone_number"),
      ),
      "/Accounts/{AccountSid}/OutgoingCallerIds/{Sid}.json": get(
        "FetchOutgoingCallerId",
        [pathParameter("AccountSid", sid("AC")), pathParameter("Sid", sid("PN"))],
        ref("outgoing_caller_id"),
      ),
      "/Accounts/{AccountSid}/Calls/{Sid}.json": get(
        "FetchCall",
        [pathParameter("AccountSid", sid("AC")), pathParameter("Sid", sid("CA"))],
        ref("call"),
      ),
    },
    {
      incoming_phone_number: { type: "object", properties: { sid: sid("PN"), phone_number: text } },
      outgoing_caller_id: { type: "object", properties: { sid: sid("PN"), phone_number: text } },
      call: { type: "object", properties: { sid: sid("CA"), phone_number_sid: sid("PN"), to: text } },
    },
  );

// Three kinds of account, two of them fetched at a path of the same shape, `/<vendor>/accounts/{account_id}`.
const vendorAccounts = () =>
  specOf(
    {
      "/aws/accounts/{account_id}": get("GetAwsAccount", [pathParameter("account_id")], ref("AwsAccount")),
      "/okta/accounts/{account_id}": get("GetOktaAccount", [pathParameter("account_id")], ref("OktaAccount")),
      "/jira/accounts": get("ListJiraAccounts", [], { type: "array", items: ref("JiraAccount") }),
      "/okta/accounts/{account_id}/logs": get("ListOktaLogs", [pathParameter("account_id")], { type: "array", items: ref("OktaLog") }),
      "/alerts": get("ListAlerts", [], { type: "array", items: ref("Alert") }),
    },
    {
      OktaLog: { type: "object", properties: { id: text, message: text } },
      Alert: { type: "object", properties: { id: text, title: text, account_id: text } },
      AwsAccount: { type: "object", properties: { id: text, name: text } },
      OktaAccount: { type: "object", properties: { id: text, name: text } },
      JiraAccount: { type: "object", properties: { id: text, name: text } },
    },
  );

describe("a name in any writing", () => {
  it("is an id or a link written in capitals or with hyphens as it is in snake or camel case", async () => {
    const { fields } = await draft(
      specOf(
        { "/events/{id}": get("GetEvent", [pathParameter("id")], ref("Event")) },
        {
          Event: {
            type: "object",
            properties: {
              id: text,
              groupID: text,
              OWNER_ID: text,
              "owner-id": text,
              deviceUUID: text,
              objectGUID: text,
              user_uid: text,
              fluid: text,
              webhookURL: text,
              URL: text,
              "github-html-url": text,
              paid: { type: "boolean" },
              valid: { type: "boolean" },
              android: text,
            },
          },
        },
      ),
    );
    const noTool = { todo: expect.stringMatching(/^named like an id no drafted tool takes/), drop: "no tool takes this id" };
    expect(fields("event")).toMatchObject({
      groupID: { ...noTool, todo: expect.stringContaining("`join: groups`") },
      OWNER_ID: noTool,
      "owner-id": { ...noTool, todo: expect.stringContaining("`join: owners`") },
      deviceUUID: noTool,
      objectGUID: noTool,
      user_uid: { ...noTool, todo: expect.stringContaining("`join: users`") },
      fluid: "keep",
      webhookURL: { drop: "a link the model cannot open" },
      URL: { drop: "a link the model cannot open" },
      "github-html-url": { drop: "a link the model cannot open" },
      paid: "keep",
      valid: "keep",
      android: "keep",
    });
  });
});

describe("an id taken by tools of its kind", () => {
  it("is never an argument of a list its path scopes by another kind's id, though the list follows its collection", async () => {
    const { fields } = await draft(
      specOf(
        {
          "/servicenow/instances": get("ListServiceNowInstances", [], { type: "array", items: ref("ServiceNowInstance") }),
          "/servicenow/users/{instance_id}": get("ListServiceNowUsers", [pathParameter("instance_id")], {
            type: "array",
            items: ref("ServiceNowUser"),
          }),
          "/synthetics/tests/{public_id}": get("GetSyntheticsTest", [pathParameter("public_id")], ref("SyntheticsTest")),
        },
        {
          ServiceNowInstance: { type: "object", properties: { id: text, instance_name: text } },
          ServiceNowUser: { type: "object", properties: { id: text, user_name: text } },
          SyntheticsTest: { type: "object", properties: { public_id: text, name: text } },
        },
      ),
    );
    expect(fields("service_now_user").id).toEqual({ drop: "no tool takes this id" });
    // The one collection of instances is where the list's parameter names a record of.
    expect(fields("service_now_instance").id).toEqual({ argument: ["list_service_now_users"] });
    expect(fields("synthetics_test").public_id).toEqual({ argument: ["get_synthetics_test"] });
  });

  it("is a guess for a tool reading its kind from afar where the spec lists another record of that kind nearer", async () => {
    const { fields, text: drafted } = await draft(
      specOf(
        {
          "/integration/servicenow/instances": get("ListServiceNowInstances", [], { type: "array", items: ref("ServiceNowInstance") }),
          "/integration/servicenow/users": get("ListServiceNowUsers", [], { type: "array", items: ref("ServiceNowUser") }),
          "/workflows/{workflow_id}/instances/{instance_id}": get(
            "GetWorkflowInstance",
            [pathParameter("workflow_id"), pathParameter("instance_id")],
            ref("WorkflowInstance"),
          ),
          "/alerts": get("ListAlerts", [], { type: "array", items: ref("Alert") }),
          "/workflows/{workflow_id}/runs": get("ListWorkflowRuns", [pathParameter("workflow_id")], { type: "array", items: ref("Run") }),
        },
        {
          ServiceNowInstance: { type: "object", properties: { id: text, instance_name: text } },
          ServiceNowUser: { type: "object", properties: { id: text, user_name: text, instance_id: text } },
          WorkflowInstance: { type: "object", properties: { id: text, status: text } },
          Alert: { type: "object", properties: { id: text, title: text, instance_id: text } },
          Run: { type: "object", properties: { id: text, instance_id: text } },
        },
      ),
    );
    // A ServiceNow user's instance is one of the ServiceNow instances beside it, which no tool fetches.
    expect(fields("service_now_user").instance_id).toEqual({
      todo: "the id of an instance, which get_workflow_instance reads from /workflows/{}/instances, though the spec lists another kind of record as instance at /integration/servicenow/instances, nearer this record: keep the tools that take this one",
      argument: ["get_workflow_instance"],
    });
    // Read beside the workflows, a run's is the workflow instance the one tool fetches.
    expect(fields("run").instance_id).toEqual({ argument: ["get_workflow_instance"] });
    expect(drafted).toContain(
      "instance_id: { argument: [ get_workflow_instance ] } # the id of an instance, which the model passes to get_workflow_instance",
    );
    // Read from neither, an alert's may be either kind of instance: the guess says so.
    expect(fields("alert").instance_id).toEqual({
      todo: "the id of an instance, which get_workflow_instance reads from /workflows/{}/instances, though the spec lists another kind of record as instance at /integration/servicenow/instances, as near this record: keep the tools that take this one",
      argument: ["get_workflow_instance"],
    });
  });

  it("is a tool name function-calling APIs take, cut to 64 characters and numbered within them", async () => {
    const long = `GetFilesIdMetadataEnterpriseSecurityClassification${"Variant".repeat(6)}`;
    const { text: drafted } = await draft(
      specOf(
        {
          "/files/{file_id}/classification": get(`${long}One`, [pathParameter("file_id")], ref("Classification")),
          "/folders/{folder_id}/classification": get(`${long}Two`, [pathParameter("folder_id")], ref("Classification")),
        },
        { Classification: { type: "object", properties: { id: text, name: text } } },
      ),
    );
    const names = [...drafted.matchAll(/^ {2}(get_files_id_\w+):$/gm)].map((match) => match[1]!);
    expect(names).toHaveLength(2);
    expect(names[0]).toHaveLength(64);
    expect(names[1]).toBe(`${names[0]!.slice(0, 62)}_2`);
  });

  it("is an argument of the tool fetching its kind however the collection's plural is written", async () => {
    const { fields } = await draft(
      specOf(
        {
          // Datadog's: `cases` once read as the kind `ca`, so no tool took a `case_id`.
          "/cases/{case_id}": get("GetCase", [pathParameter("case_id")], ref("Case")),
          "/statuses/{status_id}": get("GetStatus", [pathParameter("status_id")], ref("Status")),
          "/people/{person_id}": get("GetPerson", [pathParameter("person_id")], ref("Person")),
          "/incidents": get("ListIncidents", [], { type: "array", items: ref("Incident") }),
        },
        {
          Case: { type: "object", properties: { id: text, title: text } },
          Status: { type: "object", properties: { id: text, label: text } },
          Person: { type: "object", properties: { id: text, name: text } },
          Incident: { type: "object", properties: { id: text, title: text, case_id: text, status_id: text, person_id: text } },
        },
      ),
    );
    expect(fields("incident")).toMatchObject({
      case_id: { argument: ["get_case"] },
      status_id: { argument: ["get_status"] },
      person_id: { argument: ["get_person"] },
    });
  });

  it("reads no kind from a word in the singular that scopes a list to a record of another collection", async () => {
    const { fields } = await draft(
      specOf(
        {
          // Box's: an enterprise's metadata templates, which are no enterprises.
          "/metadata_templates/enterprise": get("ListEnterpriseTemplates", [], { type: "array", items: ref("MetadataTemplate") }),
          "/metadata_templates/{template_id}": get("GetMetadataTemplate", [pathParameter("template_id")], ref("MetadataTemplate")),
          "/enterprises/{enterprise_id}/device_pinners": get("ListDevicePinners", [pathParameter("enterprise_id")], {
            type: "array",
            items: ref("DevicePinner"),
          }),
        },
        {
          MetadataTemplate: { type: "object", properties: { id: text, displayName: text } },
          DevicePinner: { type: "object", properties: { id: text, product_name: text } },
        },
      ),
    );
    expect(fields("metadata_template").id).toEqual({ argument: ["get_metadata_template"] });
  });

  it("is a guess where a collection of its own nearer the record holds a kind of theirs in more words", async () => {
    const { fields } = await draft(
      specOf(
        {
          "/api/v2/projects/{project_id}": get("GetProject", [pathParameter("project_id")], ref("Project")),
          "/api/v2/llm-obs/v1/projects": get("ListLlmProjects", [], { type: "array", items: ref("LlmProject") }),
          "/api/v2/llm-obs/v1/datasets/{dataset_id}": get("GetDataset", [pathParameter("dataset_id")], ref("Dataset")),
        },
        {
          Project: { type: "object", properties: { id: text, name: text } },
          LlmProject: { type: "object", properties: { id: text, name: text } },
          Dataset: { type: "object", properties: { id: text, name: text, project_id: text } },
        },
      ),
    );
    expect(fields("dataset").project_id).toEqual({
      todo: "the id of a project, which get_project reads from /api/v2/projects, though the spec lists another kind of record as project at /api/v2/llm-obs/v1/projects, nearer this record: keep the tools that take this one",
      argument: ["get_project"],
    });
  });

  it("is a guess where two collections of its kind, each of its own, are read as different records and neither is nearer", async () => {
    const { fields } = await draft(
      specOf(
        {
          "/api/v2/cases/projects/{project_id}": get("GetProject", [pathParameter("project_id")], ref("CaseProject")),
          "/api/v2/llm-obs/v1/projects": get("ListLlmProjects", [], { type: "array", items: ref("LlmProject") }),
          "/api/v2/cases/{case_id}": get("GetCase", [pathParameter("case_id")], ref("Case")),
          "/api/v2/cost/gcp_configs": get("ListGcpConfigs", [], { type: "array", items: ref("GcpConfig") }),
        },
        {
          CaseProject: { type: "object", properties: { id: text, name: text } },
          LlmProject: { type: "object", properties: { id: text, name: text } },
          Case: { type: "object", properties: { id: text, title: text, project_id: text } },
          // Datadog's: a GCP cost config's project is a GCP project, neither a case project nor an LLM one.
          GcpConfig: { type: "object", properties: { id: text, bucket: text, project_id: text } },
        },
      ),
    );
    expect(fields("case").project_id).toEqual({ argument: ["get_project"] });
    expect(fields("gcp_config").project_id).toEqual({
      todo: "the id of a project, which get_project reads from /api/v2/cases/projects, though the spec lists another kind of record as project at /api/v2/llm-obs/v1/projects, as near this record: keep the tools that take this one",
      argument: ["get_project"],
    });
  });

  it("is a guess where it stands for another word of the parameter's and the record has a field of the parameter's name", async () => {
    const { fields } = await draft(
      specOf(
        {
          "/invoices/{invoice_uuid}": get("GetInvoiceByUuid", [pathParameter("invoice_uuid")], ref("Invoice")),
          "/billing_history": get("ListBillingHistory", [], { type: "array", items: ref("BillingEntry") }),
        },
        {
          Invoice: { type: "object", properties: { invoice_uuid: text, amount: text } },
          // DigitalOcean's: the invoice's number beside its uuid, which the tool takes.
          BillingEntry: { type: "object", properties: { description: text, invoice_id: text, invoice_uuid: text } },
        },
      ),
    );
    expect(fields("billing_entry").invoice_uuid).toEqual({ argument: ["get_invoice_by_uuid"] });
    expect(fields("billing_entry").invoice_id).toEqual({
      todo: "the id of an invoice, passed to get_invoice_by_uuid as `invoice_uuid`, though this record has a field of that name: check the tool takes this one",
      argument: ["get_invoice_by_uuid"],
    });
  });

  it("is not the argument of a tool whose collection names another id of the record: that one is", async () => {
    const { fields } = await draft(
      specOf(
        {
          "/issues/{issue_id}": get("GetIssue", [pathParameter("issue_id")], ref("Issue")),
          // Sentry's: the path parameter is named for the issue, the collection says it takes a short id ("PROJ-12").
          "/organizations/{org}/shortids/{issue_id}": get(
            "ResolveShortId",
            [pathParameter("org"), pathParameter("issue_id")],
            ref("Issue"),
          ),
        },
        { Issue: { type: "object", properties: { id: text, shortId: text, title: text } } },
      ),
    );
    expect(fields("issue").id).toEqual({ argument: ["get_issue"] });
    expect(fields("issue").shortId).toEqual({ argument: ["resolve_short_id"] });
  });

  it("is an argument only of those that read its own record, never of one reading another kind fetched alike", async () => {
    const { fields } = await draft(vendorAccounts());
    expect(fields("aws_account").id).toEqual({ argument: ["get_aws_account"] });
    expect(fields("okta_account").id).toEqual({ argument: ["get_okta_account", "list_okta_logs"] });
    expect(fields("jira_account").id).toEqual({ drop: "no tool takes this id" });
  });

  it("is no argument of the tool fetching one of a collection where the collection's GET answers one object around the list", async () => {
    const agent = { type: "object", properties: { id: text, hostname: text } };
    const { fields, text: drafted } = await draft(
      specOf(
        {
          // Answers a status with the agents inside it, not an agent.
          "/fleet/agents": get("ListFleetAgents", [], {
            type: "object",
            properties: { id: text, status: text, agents: { type: "array", items: agent } },
          }),
          "/fleet/agents/{agent_id}": get("GetFleetAgent", [pathParameter("agent_id")], ref("FleetAgent")),
          // Around a list of another name, in a page it holds: the records the collection's fetches read.
          "/fleet/pools": get("ListFleetPools", [], {
            type: "object",
            properties: { id: text, page: { type: "object", properties: { items: { type: "array", items: ref("Pool") } } } },
          }),
          // An order found by its number holds its line items, none of which a fetch of orders reads: it is an order.
          "/orders": get("FindOrder", [], ref("OrderDetail")),
          "/orders/{order_id}": get("GetOrder", [pathParameter("order_id")], ref("OrderSummary")),
          "/fleet/pools/{pool_id}": get("GetFleetPool", [pathParameter("pool_id")], ref("Pool")),
          // Answers one record with a list of its own (not its collection's) at a plural path: still one of its kind.
          "/notifications/actions": get("ListNotificationActions", [], ref("NotificationAction")),
          "/notifications/actions/{action_id}": get("GetNotificationAction", [pathParameter("action_id")], ref("NotificationAction")),
          // A singular path answers the record it names.
          "/user": get("GetCurrentUser", [], ref("User")),
          "/users/{user_id}": get("GetUser", [pathParameter("user_id")], ref("User")),
        },
        {
          FleetAgent: agent,
          Pool: { type: "object", properties: { id: text, size: { type: "integer" } } },
          OrderDetail: { type: "object", properties: { id: text, items: { type: "array", items: ref("LineItem") } } },
          OrderSummary: { type: "object", properties: { id: text, total: { type: "integer" } } },
          LineItem: { type: "object", properties: { sku: text, quantity: { type: "integer" } } },
          NotificationAction: { type: "object", properties: { id: text, projects: { type: "array", items: text } } },
          User: { type: "object", properties: { id: text, name: text } },
        },
      ),
    );
    expect(fields("list_fleet_agents_record").id).toEqual({ drop: "no tool takes this id" });
    expect(drafted).toContain("the id of the answer around the `agents` list, not of one of them");
    expect(fields("list_fleet_pools_record").id).toEqual({ drop: "no tool takes this id" });
    expect(fields("pool").id).toEqual({ argument: ["get_fleet_pool"] });
    expect(fields("order_detail").id).toEqual({ argument: ["get_order"] });
    expect(fields("fleet_agent").id).toEqual({ argument: ["get_fleet_agent"] });
    expect(fields("notification_action").id).toEqual({ argument: ["get_notification_action"] });
    expect(fields("user").id).toEqual({ argument: ["get_user"] });
  });

  it("is the field the parameter's words or example name, of two ids a record has", async () => {
    const uuid = { type: "string", format: "uuid" };
    const withExample = (example: string, schema: Schema = text) => ({ ...schema, example });
    const { fields } = await draft(
      specOf(
        {
          // `{thing_uuid}` takes the thing's `uuid`, never its integer `id`.
          "/things/{thing_uuid}": get("GetThing", [pathParameter("thing_uuid", uuid)], ref("Thing")),
          // `{namespace_id}`'s example is the namespace's `namespace`, written otherwise than its `uuid`.
          "/namespaces/{namespace_id}": get(
            "GetNamespace",
            [{ ...pathParameter("namespace_id"), example: "fn-0a1b2c3d-4e5f" }],
            ref("Namespace"),
          ),
          // `parent_slug` shares `{widget_id}`'s example, but the `id` is named as the parameter ends: the `id`.
          "/widgets/{widget_id}": get("GetWidget", [{ ...pathParameter("widget_id"), example: "my-widget" }], ref("Widget")),
          // `{gadget_id}` is a UUID: the gadget's `uuid`, written so, not its integer `id`, though `id` ends its name.
          "/gadgets/{gadget_id}": get(
            "GetGadget",
            [pathParameter("gadget_id", { ...uuid, example: "3fa85f64-5717-4562-b3fc-2c963f66afa6" })],
            ref("Gadget"),
          ),
          // `{doohickey_uuid}` names the `uuid`, but its example is the `id`'s: a todo saying so.
          "/doohickeys/{doohickey_uuid}": get(
            "GetDoohickey",
            [pathParameter("doohickey_uuid", { ...uuid, example: "9b2e7c1a-0d3f-4a5b-8c6d-7e8f9a0b1c2d" })],
            ref("Doohickey"),
          ),
          // `cloned_from` shares `{deployment_id}`'s example, but the `id` is written alike: the `id`.
          "/deployments/{deployment_id}": get(
            "GetDeployment",
            [pathParameter("deployment_id", withExample("3aa4d20e-5527-4c5e-a2d4-8d5e4a6c2c11"))],
            ref("Deployment"),
          ),
        },
        {
          Thing: { type: "object", properties: { id: { type: "integer" }, uuid, name: text } },
          Gadget: {
            type: "object",
            properties: { id: { type: "integer" }, uuid: { ...uuid, example: "3fa85f64-5717-4562-b3fc-2c963f66afa6" } },
          },
          Doohickey: {
            type: "object",
            properties: { id: { ...uuid, example: "9b2e7c1a-0d3f-4a5b-8c6d-7e8f9a0b1c2d" }, uuid: withExample("dh-000077") },
          },
          Widget: { type: "object", properties: { id: withExample("9f1c2b7e"), parent_slug: withExample("my-widget") } },
          Namespace: {
            type: "object",
            properties: { uuid: withExample("0a1b2c3d-4e5f-6a7b"), namespace: withExample("fn-0a1b2c3d-4e5f"), label: text },
          },
          Deployment: {
            type: "object",
            properties: {
              id: withExample("b6bdf840-2854-4f87-a36c-5f231c617c84"),
              cloned_from: withExample("3aa4d20e-5527-4c5e-a2d4-8d5e4a6c2c11"),
            },
          },
        },
      ),
    );
    expect(fields("thing")).toMatchObject({ uuid: { argument: ["get_thing"] }, id: { drop: "no tool takes this id" } });
    // By the example alone: a guess to check.
    expect(fields("namespace")).toMatchObject({
      namespace: {
        argument: ["get_namespace"],
        todo: expect.stringContaining("the spec's example of both the same: check it takes this one"),
      },
      uuid: { drop: "no tool takes this id" },
    });
    expect(fields("widget")).toMatchObject({ id: { argument: ["get_widget"] }, parent_slug: "keep" });
    expect(fields("gadget")).toEqual({ uuid: { argument: ["get_gadget"] }, id: { drop: "no tool takes this id" } });
    expect(fields("doohickey").uuid).toEqual({
      argument: ["get_doohickey"],
      todo: "passed to get_doohickey as `doohickey_uuid` by its name, though the spec's example of it is `id`'s: check which the tool takes",
    });
    expect(fields("deployment")).toMatchObject({ id: { argument: ["get_deployment"] }, cloned_from: "keep" });
  });

  it("is a sure argument of its own tool only, though its name ends with another record's", async () => {
    const { fields } = await draft(
      specOf(
        {
          "/services/{id}/integrations/{integration_id}": get(
            "GetServiceIntegration",
            [pathParameter("id"), pathParameter("integration_id")],
            ref("Integration"),
          ),
          "/orchestrations/{id}/integrations/{integration_id}": get(
            "GetOrchestrationIntegration",
            [pathParameter("id"), pathParameter("integration_id")],
            ref("OrchestrationIntegration"),
          ),
          "/aws/accounts/{account_id}": get("GetAwsAccount", [pathParameter("account_id")], ref("Account")),
          "/gcp/accounts": get("ListGcpAccounts", [], { type: "array", items: ref("GcpServiceAccount") }),
        },
        {
          Integration: { type: "object", properties: { id: text, name: text } },
          OrchestrationIntegration: { type: "object", properties: { id: text, name: text } },
          Account: { type: "object", properties: { id: text, name: text } },
          GcpServiceAccount: { type: "object", properties: { id: text, name: text } },
        },
      ),
    );
    expect(fields("integration").id).toEqual({ argument: ["get_service_integration"] });
    expect(fields("orchestration_integration").id).toEqual({ argument: ["get_orchestration_integration"] });
    // Only a variant by its name of what `/aws/accounts/{account_id}` reads: a todo, never a sure argument.
    expect(fields("gcp_service_account").id).toMatchObject({ argument: ["get_aws_account"], todo: expect.any(String) });
  });

  it("is offered as a todo to the tools of its kind where the spec names no schema for either record", async () => {
    const project = { type: "object", properties: { id: text, slug: text, name: text } };
    const { fields } = await draft(
      specOf(
        {
          "/organizations/{org}/projects/": get("ListOrganizationProjects", [pathParameter("org")], { type: "array", items: project }),
          "/projects/{org}/{project_id}/": get("GetProject", [pathParameter("org"), pathParameter("project_id")], project),
        },
        {},
      ),
    );
    expect(fields("list_organization_projects_record").id).toMatchObject({ argument: ["get_project"], todo: expect.any(String) });
  });

  it("is offered to the tool that reads the same kind in full, for a record read in brief elsewhere, as a todo", async () => {
    const { fields } = await draft(
      specOf(
        {
          "/tracks/{id}": get("GetTrack", [pathParameter("id")], ref("TrackObject")),
          "/albums/{id}/tracks": get("GetAlbumTracks", [pathParameter("id")], { type: "array", items: ref("SimplifiedTrackObject") }),
        },
        {
          TrackObject: { type: "object", properties: { id: text, name: text, popularity: { type: "integer" } } },
          SimplifiedTrackObject: { type: "object", properties: { id: text, name: text } },
        },
      ),
    );
    expect(fields("simplified_track").id).toEqual({
      todo: "passed to get_track as `id`, the id of a track of a collection this record is never read from: check it takes this one",
      argument: ["get_track"],
    });
  });

  it("held by another record is a todo where the tools that fetch its kind fetch different records", async () => {
    const { fields } = await draft(vendorAccounts());
    expect(fields("alert").account_id).toEqual({
      todo: "the id of an account, which get_aws_account, get_okta_account fetch as 2 kinds of record (aws_account, okta_account): keep the tools that take this one",
      argument: ["get_aws_account", "get_okta_account"],
    });
  });
});

describe("an id no tool is drafted for by its own kind", () => {
  it("in a union of records is an argument of the tools that fetch each branch's schema", async () => {
    const { fields } = await draft(musicApi());
    expect(fields("queue").id).toEqual({ argument: ["get_track", "get_an_episode"] });
  });

  it("of a record whose kind ends with a kind a tool takes is that tool's argument, as a todo", async () => {
    const { fields } = await draft(musicApi());
    expect(fields("private_user").id).toEqual({
      todo: "passed to get_users_profile as `user_id`, the id of a user, by the record's name alone (a private_user): check it takes this one",
      argument: ["get_users_profile"],
    });
    // Its other ids are another record's, not its own.
    expect(fields("private_user").account_id).toMatchObject({ drop: "no tool takes this id" });
  });

  it("written as the ids of a few kinds of record is offered the tools of each, as a todo saying why", async () => {
    const { fields } = await draft(phoneNumbers());
    expect(fields("call").phone_number_sid).toEqual({
      todo: "written as fetch_incoming_phone_number, fetch_outgoing_caller_id take ids (pattern ^PN[0-9a-fA-F]{32}$), which the spec gives 2 kinds of record (incoming_phone_number, outgoing_caller_id) and its name does not tell apart: keep the tools that take this one",
      argument: ["fetch_incoming_phone_number", "fetch_outgoing_caller_id"],
    });
  });
});

// A JSON:API type whose list gives its records in brief and whose fetch gives them in full, each its own schema.
const jsonApi = (schema: Schema, example?: unknown) => ({
  "200": {
    description: "ok",
    content: { "application/vnd.api+json": { schema: { type: "object", properties: { data: schema } }, ...(example ? { example } : {}) } },
  },
});
const apiKey = (attributes: Schema) => ({
  type: "object",
  properties: {
    id: text,
    type: { type: "string", enum: ["api_keys"] },
    attributes: { type: "object", properties: attributes },
  },
});
const FULL_KEY_EXAMPLE = {
  data: {
    id: "k1",
    type: "api_keys",
    attributes: { name: "ci", last4: "f00d", key: "s3cr3t-full-key", created_by_email: "a@example.com" },
  },
};
const apiKeys = () =>
  specOf(
    {
      "/api_keys": { get: { operationId: "ListAPIKeys", responses: jsonApi({ type: "array", items: ref("PartialAPIKey") }) } },
      "/api_keys/{api_key_id}": {
        get: {
          operationId: "GetAPIKey",
          parameters: [pathParameter("api_key_id")],
          responses: jsonApi(ref("FullAPIKey"), FULL_KEY_EXAMPLE),
        },
      },
    },
    {
      PartialAPIKey: apiKey({ name: text, last4: text }),
      FullAPIKey: apiKey({ name: text, last4: text, key: text, created_by_email: text }),
    },
  );

describe("a JSON:API type declared as a brief and a full schema", () => {
  it("is one resource classifying the fields of both, the key itself dropped as the credential its record names", async () => {
    const { fields } = await draft(apiKeys());
    expect(fields("api_keys")).toMatchObject({
      id: { argument: ["get_api_key"] },
      name: "keep",
      last4: "keep",
      key: { drop: "a credential, never shown to the model" },
      created_by_email: "keep",
    });
  });

  it("generates, every guess taken, and the full key never reaches the model", async () => {
    const { dir } = await draft(apiKeys(), true);
    const { result } = await projected(dir, "get_api_key", FULL_KEY_EXAMPLE);
    expect(result).toMatchObject({ name: "ci", last4: "f00d", created_by_email: "a@example.com" });
    expect(JSON.stringify(result)).not.toMatch(/s3cr3t/);
  });
});
