// Ids read as the type the spec declares on every path (integers only while JSON holds them
// exactly), `next` only from an id the record would show, a JSON:API resolver's error document, and
// a bound on how deep a value from outside may nest.
import { join } from "node:path";
import { decode } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { argumentProblem, argumentsSizeProblem } from "../../templates/runtime/arguments.js";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { type IdType, integerId, INTEGER_IDS, TEXT_OR_NUMBER_IDS } from "../../templates/runtime/ids.js";
import { integerRefIdMany, integerRefIdOne } from "../../templates/runtime/handles.js";
import { MAX_NESTING } from "../../templates/runtime/json.js";
import { nextPage, type NextPageRule } from "../../templates/runtime/next-page.js";
import { section } from "../../templates/runtime/records.js";
import { refMany, refOne } from "../../templates/runtime/refs.js";
import { specResolver, type SpecResolverSource } from "../../templates/runtime/spec-resolvers.js";
import { serializeToolResult, tableLayout, withTableLayout } from "../../templates/runtime/table-text.js";
import { whole } from "../../templates/runtime/values.js";
import { generateFrom, importGenerated, ROOT } from "../helpers/pipeline.js";

function reading() {
  const issues: ProjectionIssue[] = [];
  return { issues, ctx: context("item", { onIssue: (issue) => issues.push(issue) }) };
}

/** An id past 2^53 as an API sends it, read as JSON.parse reads it: rounded to 2^53. */
const PAST_2_53 = JSON.parse("9007199254740993") as number;

/** A value nested `depth` lists deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe("a join key the spec declares an integer", () => {
  const labels = new Map<string, string | Error>([
    ["5", "Ann"],
    ["10", "Ten"],
  ]);
  const keys = { id: "id", label: "login" };
  const one = (value: unknown, ctx = reading().ctx) =>
    refOne(value, { ids: INTEGER_IDS, labels, resolver: "users", key: "user", keys, field: "user", ctx });

  it.each([
    ["abc", "text that is not an integer of at most 15 digits"],
    ["1e1", "text that is not an integer of at most 15 digits"],
    [" 5", "text that is not an integer of at most 15 digits"],
    ["05", "text that is not an integer of at most 15 digits"],
    ["99999999999999999999", "text that is not an integer of at most 15 digits"],
    [1.5, "a number that is not whole"],
    [1e300, "a number past 2^53, which may be rounded"],
    [PAST_2_53, "a number past 2^53, which may be rounded"],
  ])("marks %j unusable with an issue, and never looks it up nor shows the name it carries", (id, why) => {
    const { issues, ctx } = reading();
    expect(one(id, ctx)).toEqual({ unusable: `expected an integer id or a record with \`id\`, got ${why}` });
    expect(one({ id, login: "Carried" })).toEqual({
      unusable: `expected a record with \`id\` as an integer, got one whose \`id\` is ${why}`,
    });
    expect(issues.map((issue) => issue.kind)).toEqual(["unusable"]);
  });

  it("reads an integer, or an integer's own digits as text, as that id", () => {
    expect([one(5), one("5"), one({ id: 10 }), one({ id: "10", login: "Carried" })]).toEqual(["Ann", "Ann", "Ten", "Carried"]);
  });

  it("marks each id of a list the same way, and the id kept beside the join too", () => {
    const ctx = reading().ctx;
    const many = refMany(["abc", 2.5, { id: "x", login: "CarriedA" }, 5], {
      ids: INTEGER_IDS,
      labels,
      resolver: "users",
      keys,
      field: "followers",
      ctx,
    });
    expect(many).toEqual([
      { unusable: "expected an integer id or a record with `id`, got text that is not an integer of at most 15 digits" },
      { unusable: "expected an integer id or a record with `id`, got a number that is not whole" },
      { unusable: "expected a record with `id` as an integer, got one whose `id` is text that is not an integer of at most 15 digits" },
      "Ann",
    ]);
    expect(integerRefIdOne({ id: "05" }, { idKey: "id", field: "user_id", ctx })).toEqual({
      unusable: "expected a record with `id` as an integer, got one whose `id` is text that is not an integer of at most 15 digits",
    });
    expect(integerRefIdMany([PAST_2_53, "7"], { field: "watcher_ids", ctx })).toEqual([
      { unusable: "expected an integer id, got a number past 2^53, which may be rounded" },
      7,
    ]);
  });

  it("is read so by the generated projector, which asks the resolver only for the ids it reads", async () => {
    const generated = await generateFrom(join(ROOT, "specs/scenarios/integer-ids/projector.yaml"));
    const module = await importGenerated(generated.files);
    const project = module["projectListConversations"] as (response: unknown, resolvers: unknown) => Promise<{ conversations: unknown[] }>;
    const asked: string[][] = [];
    const admins = async (ids: string[]) => (asked.push(ids), new Map(ids.map((id) => [id, `Admin ${id}`])));
    const result = await project(
      {
        conversations: [
          { id: 1, assignee_id: "abc" },
          { id: PAST_2_53, assignee_id: PAST_2_53 },
          { id: 3, assignee_id: 7 },
        ],
      },
      { admins },
    );
    expect(result.conversations).toMatchObject([
      { id: 1, assignee: { unusable: expect.stringContaining("text that is not an integer") } },
      { id: { unusable: expect.stringContaining("past 2^53") }, assignee: { unusable: expect.stringContaining("past 2^53") } },
      { id: 3, assignee: "Admin 7" },
    ]);
    expect(asked).toEqual([["7"]]);
  });
});

describe("an integer id of a record", () => {
  it.each([PAST_2_53, 2 ** 60, "0012", "1e3"])("marks %j unusable rather than rounding or reading it", (value) => {
    expect(integerId(value, { field: "id", required: true, ctx: reading().ctx })).toMatchObject({ unusable: expect.any(String) });
  });

  it("where the spec lets it be text or a number, reads a number as its digits only when it is a safe integer", () => {
    const labels = new Map([["12", "Twelve"]]);
    const read = (value: unknown) =>
      refOne(value, { ids: TEXT_OR_NUMBER_IDS, labels, resolver: "users", key: "k", field: "f", ctx: reading().ctx });
    expect(read(12)).toBe("Twelve");
    expect([read(12.5), read(2 ** 60)]).toMatchObject([{ unusable: expect.any(String) }, { unusable: expect.any(String) }]);
  });

  it("refuses an integer argument past 2^53 instead of sending another number", () => {
    expect(argumentProblem({ type: "object", properties: { item_id: { type: "integer" } } }, { item_id: 1e21 }, "")).toBe(
      "item_id must be an integer from -(2^53 - 1) to 2^53 - 1, which JSON holds exactly, not 1e+21",
    );
    expect(argumentProblem({ type: "integer" }, 2 ** 53 - 1, "")).toBeUndefined();
  });
});

describe("next after the last record", () => {
  const rule = (ids?: IdType): NextPageRule => ({
    path: "/items",
    source: { afterLast: ["id"], param: "before", limit: "limit", ...(ids ? { ids } : {}) },
    parameters: [{ name: "before", in: "query", argument: "before" }],
    schema: { properties: { before: { type: "string" } } },
  });
  const nextAfter = (last: unknown, ids?: IdType) => {
    const { issues, ctx } = reading();
    const records = [{ id: last }];
    return {
      next: nextPage(rule(ids), {
        response: records,
        records,
        returned: 1,
        exchange: { url: "https://api.example.com/items?limit=1", query: { limit: 1 } },
        ctx,
      }),
      issues,
    };
  };

  it.each([
    ["a number where text is declared", 5, "text" as const],
    ["text that is no integer where an integer is declared", " 12", "integer" as const],
    ["an integer past 2^53", PAST_2_53, "integer" as const],
    ["an integer past 2^53 where no type is declared", PAST_2_53, undefined],
    ["a number that is not whole where text or a number is declared", 1.5, "text or number" as const],
  ])("gives none from %s, which the record marks unusable", (_what, last, ids) => {
    const { next, issues } = nextAfter(last, ids);
    expect(next).toBeNull();
    expect(issues[0]?.message).toMatch(/the last record has no id to continue after/);
  });

  it("continues after an id of the declared type", () => {
    expect(nextAfter("itm_5", "text").next).toBe("before=itm_5");
    expect(nextAfter(12, "integer").next).toBe("before=12");
  });
});

describe("a JSON:API list resolver answering errors beside its data", () => {
  it("labels none of the ids it asked for, each unresolved with the reason", async () => {
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
    const client = {
      GET: async () => ({
        data: { data: [{ type: "user", id: "u1", attributes: { name: "Eve" } }], errors: [{ title: "partial failure" }] },
        response: new Response(null, { status: 200 }),
      }),
    };
    const labels = await specResolver(client, source)(["u1"]);
    const label = labels.get("u1");
    expect(label).toBeInstanceOf(Error);
    expect((label as Error).message).toBe("GET /users answered errors beside its data: partial failure; its labels are not used");
  });
});

describe("a JSON:API record's attributes", () => {
  it("reports null there as it reports a list: JSON:API says a section is an object", () => {
    for (const value of [null, ["subject"]]) {
      const { issues, ctx } = reading();
      expect(section(value, "attributes", ctx)?.["subject"]).toBeUndefined();
      expect(issues).toMatchObject([{ kind: "unusable", field: "attributes" }]);
    }
  });
});

describe("nesting", () => {
  it(`marks a value kept whole that nests more than ${MAX_NESTING} deep unusable, and its result text is written`, () => {
    for (const schema of [{}, { type: "array" as const, items: {} }, { type: "object" as const, additionalProperties: {} }]) {
      const { issues, ctx } = reading();
      const value = schema.type === "object" ? { deep: nested(4_500) } : nested(4_500);
      const kept = whole(value, { schema, field: "payload", required: false, ctx });
      expect(kept).toMatchObject({ unusable: expect.stringContaining(`nests lists and objects more than ${MAX_NESTING} deep`) });
      expect(issues).toHaveLength(1);
      expect(() => serializeToolResult({ items: [{ payload: kept }] })).not.toThrow();
    }
  });

  it(`keeps a value ${MAX_NESTING} deep as it is`, () => {
    const value = nested(MAX_NESTING);
    expect(whole(value, { schema: {}, field: "payload", required: false, ctx: reading().ctx })).toBe(value);
  });

  it("refuses the model's arguments nested past the bound, naming the argument, before anything recurses", () => {
    expect(argumentsSizeProblem({ q: nested(300_000) })).toBe(
      `q nests lists and objects more than ${MAX_NESTING} deep; pass a flatter value`,
    );
    expect(argumentsSizeProblem({ filter: { tag: "x", x: nested(MAX_NESTING + 1) } })).toMatch(/^filter nests/);
    expect(argumentsSizeProblem({ q: nested(MAX_NESTING - 1) })).toBeUndefined();
  });
});

describe("result text", () => {
  const hidden = "a\u200eb\u061cc\ufeffd\u200be\u2060f\u007fg\u0085h";
  const tag = "x\u{e0041}y";
  const UNSEEN = /[\u007f-\u009f\u200b-\u200f\u061c\ufeff\u2060]|\udb40/;
  const layout = tableLayout("list_hidden", { list: "items", columns: ["title"], page: ["next"] });

  it("escapes in JSON text the invisible characters error messages escape, and reads back exactly", () => {
    const result = { items: [{ title: hidden + tag }], next: null };
    const json = serializeToolResult(result);
    expect(json).not.toMatch(UNSEEN);
    expect(JSON.parse(json)).toEqual(result);
  });

  it("escapes them in table text too, which TOON reads back exactly", () => {
    const result = { items: [{ title: hidden }, { title: "plain" }], next: null };
    const table = serializeToolResult(withTableLayout(result, layout));
    expect(table).not.toMatch(UNSEEN);
    expect(decode(table)).toEqual(result);
  });

  it("sends a result holding a tag character as JSON, since TOON takes no escape for it", () => {
    const result = { items: [{ title: tag }, { title: "plain" }], next: null };
    const text = serializeToolResult(withTableLayout(result, layout));
    expect(text).not.toMatch(UNSEEN);
    expect(JSON.parse(text)).toEqual(result);
  });
});
