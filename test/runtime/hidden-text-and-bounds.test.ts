// Text the model and the consumer's logs read: every character a reader may not see is escaped in
// results, error messages and issues alike, and the text reads back exactly; a large answer costs a
// call work in proportion to what it can show, within the call's time.
import { decode } from "@toon-format/toon";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createTools } from "../../generated/support/index.js";
import { escapeUnseenCharacters } from "../../src/control-characters.js";
import { type CallParameter, callTool, MAX_RESULT_TEXT, type ToolCall } from "../../templates/runtime/call-tool.js";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { TEXT_OR_NUMBER_IDS } from "../../templates/runtime/ids.js";
import { joinMany, joinOne } from "../../templates/runtime/joins.js";
import { MAX_LABELLED_VALUES } from "../../templates/runtime/labels-later.js";
import { unknownCode } from "../../templates/runtime/legends.js";
import { nextLink, nextPage, type NextPageRule } from "../../templates/runtime/next-page.js";
import { apiMessage, printable } from "../../templates/runtime/quoting.js";
import { refOne } from "../../templates/runtime/refs.js";
import { resolveLabels } from "../../templates/runtime/resolvers.js";
import { type SpecResolverSource, specResolver } from "../../templates/runtime/spec-resolvers.js";
import { serializeToolResult, tableLayout, withTableLayout } from "../../templates/runtime/table-text.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

/** Characters that show as nothing, or act on the text around them, each of a kind the escapes must cover. */
const HIDDEN: Readonly<Record<string, string>> = {
  "a variation selector past U+E0100": "\u{e0100}\u{e0141}",
  "an emoji variation selector": "\ufe0f",
  "a soft hyphen": "\u00ad",
  "the Mongolian vowel separator": "\u180e",
  "the combining grapheme joiner": "\u034f",
  "the deprecated format characters": "\u206a\u206f",
  "the reserved U+2065": "\u2065",
  "the interlinear annotation marks": "\ufff9\ufffb",
  "the Hangul fillers": "\u115f\u1160\u3164\uffa0",
  "a musical format character": "\u{1d173}\u{1d17a}",
  "a zero-width joiner": "\u200d",
  "a tag character": "\u{e0041}",
};

/** Any character outside printable ASCII: what the escaped text must not hold, for the hidden ones above. */
const RAW_HIDDEN = new RegExp(`[${Object.values(HIDDEN).join("")}]`, "u");

describe("hidden characters", () => {
  const layout = tableLayout("list_hidden_text", { list: "items", columns: ["title"], page: ["next"] });

  it.each(Object.entries(HIDDEN))("escapes %s in JSON text, which reads back exactly", (_, hidden) => {
    const result = { title: `A${hidden}B`, meta: { [`k${hidden}`]: `v${hidden}` }, tags: [`t${hidden}`] };
    const text = serializeToolResult(result);
    expect(text).not.toMatch(RAW_HIDDEN);
    expect(JSON.parse(text)).toEqual(result);
  });

  it.each(Object.entries(HIDDEN))("escapes %s in table text, or sends JSON where TOON takes no escape", (_, hidden) => {
    const result = { items: [{ title: `A${hidden}B` }, { title: "plain" }], next: null };
    const text = serializeToolResult(withTableLayout(result, layout));
    expect(text).not.toMatch(RAW_HIDDEN);
    expect(text.startsWith("{") ? JSON.parse(text) : decode(text)).toEqual(result);
  });

  it("keeps a table as TOON when its hidden characters are all within U+FFFF", () => {
    const result = { items: [{ title: "A\u00ad\u206a\ufe0f\u3164B" }], next: null };
    const text = serializeToolResult(withTableLayout(result, layout));
    expect(text).toMatch(/^items\[1\]\{title\}:/);
    expect(decode(text)).toEqual(result);
  });

  it("escapes them in the API's words an error message quotes", () => {
    expect(apiMessage({ detail: "bad\u{e0100}\u00adthing" })).toBe("bad\\udb40\\udd00\\u00adthing");
  });

  it("escapes the same set in the lines `projector serve` prints as in the runtime's messages", () => {
    const differing: string[] = [];
    for (let point = 0; point <= 0x10ffff; point++) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const character = String.fromCodePoint(point);
      if (escapeUnseenCharacters(character) !== printable(character)) differing.push(point.toString(16));
    }
    expect(differing).toEqual([]);
    expect(escapeUnseenCharacters("a\u001b[2J\nFAKE\u2028x\u{e0100}")).toBe("a\\u001b[2J\\u000aFAKE\\u2028x\\udb40\\udd00");
  });
});

describe("issue messages", () => {
  const HOSTILE = "u\u001b[2J\nFAKE\u2028x\u{e0100}\u00ad";
  /** What an issue message must never hold: a control, a separator or an invisible character. */
  const UNSEEN = /\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}|\p{Variation_Selector}|\p{Default_Ignorable_Code_Point}/u;

  function reading() {
    const issues: ProjectionIssue[] = [];
    return { issues, ctx: context("item", { onIssue: (issue) => issues.push(issue) }) };
  }

  const noLabels = new Map<string, string | Error>();
  const failing = new Map<string, string | Error>([[HOSTILE, new Error(`down for ${HOSTILE}`)]]);

  it.each([
    [
      "a to-one join the resolver cannot label",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        joinOne(HOSTILE, { labels: noLabels, resolver: "users", key: "owner_id", field: "owner_id", ctx }),
    ],
    [
      "a to-one join whose resolver failed",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        joinOne(HOSTILE, { labels: failing, resolver: "users", key: "owner_id", field: "owner_id", ctx }),
    ],
    [
      "a to-many join",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        joinMany([HOSTILE, HOSTILE], { labels: noLabels, resolver: "users", field: "watchers", ctx }),
    ],
    [
      "an embedded record's id",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        refOne(
          { id: HOSTILE },
          {
            ids: TEXT_OR_NUMBER_IDS,
            labels: noLabels,
            resolver: "users",
            key: "owner",
            keys: { id: "id", label: "name" },
            field: "owner",
            ctx,
          },
        ),
    ],
    ["a code without a word", (ctx: ReturnType<typeof reading>["ctx"]) => unknownCode(ctx, "status", HOSTILE)],
  ])("quote the API's id in %s escaped", (_, project) => {
    const { issues, ctx } = reading();
    project(ctx);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(issue.message).not.toMatch(UNSEEN);
      expect(issue.message).toMatch(/u\\u001b\[2J\\(?:u000a|n)FAKE\\u2028x\\udb40\\udd00\\u00ad/);
    }
  });
});

describe("a call's work on a large answer", () => {
  const ticket = (n: number) => ({
    type: "ticket",
    id: `tkt_${n}`,
    attributes: { subject: "s", status_code: 1, priority: 1 },
    relationships: {
      assignee: { data: { type: "user", id: `usr_${n}` } },
      organization: { data: { type: "organization", id: `org_${n}` } },
    },
  });
  const answering = (data: unknown) => ({
    GET: async () => ({ data, response: { status: 200, ok: true } }),
    POST: async () => ({ data, response: { status: 200, ok: true } }),
  });
  const page = (tickets: number) => ({
    data: Array.from({ length: tickets }, (_, n) => ticket(n)),
    links: { next: null },
    meta: { page: { total: tickets } },
  });

  it("stops at MAX_LABELLED_VALUES values to look up, asking no resolver, since no result could show them", async () => {
    const asked: string[] = [];
    const naming = async (ids: readonly string[]) => {
      asked.push(...ids);
      return new Map(ids.map((id) => [id, "N"]));
    };
    const tools = createTools({ client: answering(page(MAX_LABELLED_VALUES / 2 + 1)), resolvers: { users: naming, orgs: naming } });
    expect(await tools.search_tickets({})).toEqual({
      error: `search_tickets: the answer names more than ${MAX_LABELLED_VALUES} records or codes to look up, more than one call looks up; ask for less (a smaller page, fewer fields or a narrower filter, where the tool takes them)`,
    });
    expect(asked).toEqual([]);
    // The bound leaves room for every result that fits in the text a result may have.
    expect(MAX_LABELLED_VALUES * '"a",'.length).toBeGreaterThanOrEqual(MAX_RESULT_TEXT);
  });

  describe("with the clock moved on while it works", () => {
    beforeEach(() => vi.useFakeTimers({ toFake: ["Date"] }));
    afterEach(() => vi.useRealTimers());

    it("answers with the timeout error when its own work after the API's answer outlasts timeoutMs", async () => {
      const slowly = async (ids: readonly string[]) => {
        vi.setSystemTime(Date.now() + 5_000);
        return new Map(ids.map((id) => [id, "N"]));
      };
      const tools = createTools({ client: answering(page(2)), resolvers: { users: slowly, orgs: slowly }, timeoutMs: 3_000 });
      expect(await tools.search_tickets({})).toEqual({
        error:
          "search_tickets: the call did not finish within 3 seconds, the time it has: reading the API's answer took longer; ask for less (a smaller page, fewer fields or a narrower filter, where the tool takes them)",
      });
    });
  });
});

describe("a next naming list items that hold their delimiter", () => {
  const PARAMETERS: CallParameter[] = [
    { name: "ids", in: "query", argument: "ids", shortIds: false, style: "form", explode: false },
    { name: "tags", in: "query", argument: "tags", shortIds: false, style: "pipeDelimited", explode: false },
    { name: "cursor", in: "query", argument: "cursor", shortIds: false },
  ];
  const PROPERTIES = {
    ids: { type: "array", items: { type: "string" } },
    tags: { type: "array", items: { type: "string" } },
    cursor: { type: "string" },
  };
  const CALL: ToolCall = { method: "get", path: "/things", nextPage: true, parameters: PARAMETERS };
  const SCHEMA = { type: "object", properties: { ...PROPERTIES, next: { type: "string" } }, additionalProperties: false };
  const RULE: NextPageRule = {
    path: "/things",
    source: { body: ["next_url"] },
    parameters: PARAMETERS.map(({ shortIds: _, ...parameter }) => parameter),
    schema: { properties: PROPERTIES },
    fixed: [],
  };

  /** The query the tool sends for these arguments. */
  async function sentFor(args: Record<string, unknown>): Promise<string> {
    const sent: string[] = [];
    const client = {
      GET: async (
        _: string,
        init: { params: { query: Record<string, unknown> }; querySerializer: (q: Record<string, unknown>) => string },
      ) => {
        sent.push(init.querySerializer(init.params.query));
        return { data: { things: [] }, response: { status: 200, ok: true } };
      },
    };
    const outcome = await callTool(client, "list_things", CALL, SCHEMA, args, async () => ({ things: [] }));
    expect(outcome).not.toHaveProperty("error");
    return sent[0]!;
  }

  it("passes items back as the API named them, sending them as it wrote them", async () => {
    const query = "ids=a,b%20c&tags=x|y&cursor=1";
    const token = nextPage(RULE, {
      response: { next_url: `https://api.example.com/things?${query}` },
      records: [{}],
      returned: 1,
      exchange: undefined,
      ctx: context("list_things", {}),
    });
    expect(typeof token).toBe("string");
    expect(await sentFor({ next: token })).toBe(await sentFor({ ids: ["a", "b c"], tags: ["x", "y"], cursor: "1" }));
    expect(await sentFor({ next: token })).toBe(query);
  });

  it.each([
    ["ids=a%2Cb&cursor=1", "a comma"],
    ["tags=a%7Cb&cursor=1", "a pipe"],
  ])("gives no next for %s, whose item holds the delimiter the API splits at, with an issue", (query, delimiter) => {
    const issues: ProjectionIssue[] = [];
    const token = nextPage(RULE, {
      response: { next_url: `https://api.example.com/things?${query}` },
      records: [{}],
      returned: 1,
      exchange: undefined,
      ctx: context("list_things", { onIssue: (issue) => issues.push(issue) }),
    });
    expect(token).toBeNull();
    expect(issues.map((issue) => issue.message)).toEqual([
      expect.stringContaining(`the next page is not a page this tool can ask for: cannot have an item holding ${delimiter}`),
    ]);
  });
});

describe("a plain body holding its records and an error", () => {
  const SPEC = `openapi: 3.0.3
info: { title: Things, version: "1" }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/Thing" } }
  /batches:
    get:
      operationId: listBatches
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/Thing" } }
                  errors: { type: array, items: { type: object, properties: { detail: { type: string } } } }
components:
  schemas:
    Thing:
      type: object
      properties:
        sku: { type: string }
        name: { type: string }
`;
  const ANNOTATION = `spec: spec.yaml
output: gen
resources:
  thing:
    schema: Thing
    fields:
      sku: keep
      name: keep
tools:
  list_things: { operation: listThings, list: items }
  list_batches: { operation: listBatches, list: items }
`;
  type Project = (response: unknown) => Promise<unknown>;
  let projectListThings: Project;
  let projectListBatches: Project;
  beforeAll(async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "spec.yaml"), SPEC);
    writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
    const generated = await generateFrom(join(dir, "projector.yaml"));
    expect(generated.problems).toEqual([]);
    const module = await importGenerated<Record<string, Project>>(generated.files);
    projectListThings = module["projectListThings"]!;
    projectListBatches = module["projectListBatches"]!;
  });

  it.each([
    [{ items: [], errors: [{ detail: "rate limited" }] }],
    [{ items: [], error: "rate limited" }],
    [{ items: [], error: { message: "rate limited" } }],
  ])("refuses %j as the error document it is, with the API's words", async (body) => {
    await expect(projectListThings(body)).rejects.toThrow("list_things: the response body is an error document: rate limited");
  });

  it("reads an empty error beside the records, and an errors list the spec declares, as data", async () => {
    expect(await projectListThings({ items: [], errors: [], error: null })).toEqual({ items: [] });
    expect(await projectListBatches({ items: [{ sku: "t1", name: "A" }], errors: [{ detail: "one item failed" }] })).toEqual({
      items: [{ sku: "t1", name: "A" }],
    });
  });
});

describe("a list resolver's answer holding items that are no records", () => {
  const source: SpecResolverSource = {
    method: "get",
    path: "/users",
    parameter: { name: "filter[id]", in: "query", explode: false },
    concurrency: 1,
    records: ["data"],
    jsonapi: true,
    type: "user",
    id: "id",
    label: ["name"],
  };
  const answering = (data: unknown) => ({ GET: async () => ({ data, response: { status: 200, ok: true } }) });

  it("is not used, as a tool's own list is refused, and each id's issue names the resolver and why", async () => {
    const users = specResolver(answering({ data: [{ type: "user", id: "u1", attributes: { name: "Alice" } }, null, 5] }), source);
    const labels = await resolveLabels({ users: ["u1", "u2"] }, { users }, new Map());
    const { issues, ctx } = (() => {
      const issues: ProjectionIssue[] = [];
      return { issues, ctx: context("ticket", { onIssue: (issue) => issues.push(issue) }) };
    })();
    expect(joinOne("u1", { labels: labels.users, resolver: "users", key: "assignee", field: "assignee", ctx })).toEqual({
      unresolved: "u1",
    });
    expect(issues.map((issue) => issue.message)).toEqual([
      'ticket.assignee: u1: resolver "users" failed for it: GET /users answered item 1 of its list as null, not a record; its labels are not used',
    ]);
  });
});

describe("a Link header naming a link's relation twice", () => {
  it("takes the first rel, as RFC 8288 says, so a link first named prev is no next link", () => {
    expect(nextLink('<https://api.example.com/items?page=2>; rel="prev"; rel="next"')).toEqual([]);
    expect(nextLink('<https://api.example.com/items?page=3>; rel="next"; rel="prev"')).toEqual(["https://api.example.com/items?page=3"]);
  });
});
