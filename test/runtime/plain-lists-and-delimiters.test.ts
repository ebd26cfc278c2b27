// Lists of plain values kept inside records, and values kept whole with no declared type, share
// the budget of the lists of objects: a result's lists hold at most MAX_ROWS items together, and
// every list past that is marked before its items are read. Query arrays sent as one delimited
// value refuse an item holding their delimiter, which a server splitting the decoded value would
// read as more items.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { context, type PageExchange, type ProjectionIssue } from "../../templates/runtime/context.js";
import { nextPage, type NextPageRule } from "../../templates/runtime/next-page.js";
import { queryStringFor, queryValueProblem } from "../../templates/runtime/query-string.js";
import { MAX_ROWS } from "../../templates/runtime/records.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Items, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      responses:
        "200":
          description: a page of items
          content:
            application/json:
              schema: { type: object, properties: { items: { type: array, items: { $ref: "#/components/schemas/Item" } } } }
components:
  schemas:
    Item:
      type: object
      required: [id]
      properties:
        id: { type: string }
        tags: { type: array, items: { type: string } }
        counts: { type: object, additionalProperties: { type: integer } }
        anything: {}
        parts:
          type: array
          items: { type: object, properties: { p: { type: string } } }
`;

const ANNOTATION = `spec: items.yaml
output: generated
resources:
  item:
    schema: Item
    fields:
      id: { fact: "the item's number, as people quote it" }
      tags: keep
      counts: keep
      anything: keep
      parts.p: keep
tools:
  list_items:
    operation: listItems
    list: items
`;

type Row = { id: string; tags: unknown; counts: unknown; anything: unknown; parts: unknown };
type ProjectPage = (response: unknown, resolvers: object, options: object) => Promise<{ items: Row[] }>;
type ProjectItem = (record: unknown, lookups: object, options: object) => Row;
let projectListItems: ProjectPage;
let projectItem: ProjectItem;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "items.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  ({ projectListItems, projectItem } = await importGenerated<{ projectListItems: ProjectPage; projectItem: ProjectItem }>(output.files));
});

const PER_RECORD = 10_000;
const FITTING = MAX_ROWS / PER_RECORD;
const OVER = `the lists of this result hold more than the ${MAX_ROWS} items a result could show`;

async function projectRows(field: keyof Row, value: () => unknown, records: number) {
  const issues: ProjectionIssue[] = [];
  const page = { items: Array.from({ length: records }, (_, i) => ({ id: `i${i}`, [field]: value() })) };
  const { items } = await projectListItems(page, {}, { onIssue: (issue: ProjectionIssue) => issues.push(issue) });
  return { values: items.map((row) => row[field]), issues: issues.map((issue) => issue.message) };
}

describe("the plain lists inside a page's records", () => {
  const strings = () => Array.from({ length: PER_RECORD }, () => "");

  it("count against the page's item budget: every kept list past it is unusable, with one issue each", async () => {
    const { values, issues } = await projectRows("tags", strings, FITTING + 5);
    expect(values.slice(0, FITTING).every((tags) => Array.isArray(tags) && tags.length === PER_RECORD)).toBe(true);
    expect(values.slice(FITTING)).toEqual(Array.from({ length: 5 }, () => ({ unusable: OVER })));
    expect(issues).toEqual(Array.from({ length: 5 }, () => expect.stringContaining(OVER)));
  });

  it("share the budget with the lists of objects", async () => {
    const issues: ProjectionIssue[] = [];
    const objects = Array.from({ length: MAX_ROWS }, () => ({ p: "a" }));
    const page = {
      items: [
        { id: "a", parts: objects },
        { id: "b", tags: ["x"] },
      ],
    };
    const { items } = await projectListItems(page, {}, { onIssue: (issue: ProjectionIssue) => issues.push(issue) });
    expect((items[0]!.parts as unknown[]).length).toBe(MAX_ROWS);
    expect(items[1]!.tags).toEqual({ unusable: OVER });
  });

  it("are unusable on their own past MAX_ROWS items, even in a record projected outside a page", () => {
    const record = { id: "a", tags: Array.from({ length: MAX_ROWS + 1 }, () => "") };
    expect(projectItem(record, {}, {}).tags).toEqual({
      unusable: `a list of ${MAX_ROWS + 1} items, more than the ${MAX_ROWS} a result could show`,
    });
    const within = { id: "a", tags: Array.from({ length: MAX_ROWS }, () => "") };
    for (let i = 0; i < 3; i++) expect((projectItem(within, {}, {}).tags as unknown[]).length).toBe(MAX_ROWS);
  });

  it("include the members of a map kept whole", async () => {
    const map = () => Object.fromEntries(Array.from({ length: PER_RECORD }, (_, i) => [`k${i}`, i]));
    const { values, issues } = await projectRows("counts", map, FITTING + 1);
    expect(values.slice(0, FITTING).every((counts) => Object.keys(counts as object).length === PER_RECORD)).toBe(true);
    expect(values[FITTING]).toEqual({ unusable: OVER });
    expect(issues).toEqual([expect.stringContaining(OVER)]);
  });

  it("include the items and members of a value kept whole with no declared type, at any depth", async () => {
    const nested = () => ({ inner: [strings()] });
    const { values, issues } = await projectRows("anything", nested, FITTING + 2);
    expect(values.slice(0, FITTING - 1).every((value) => (value as { inner: string[][] }).inner[0]!.length === PER_RECORD)).toBe(true);
    expect(values.slice(FITTING)).toEqual([{ unusable: OVER }, { unusable: OVER }]);
    expect(issues.length).toBeGreaterThanOrEqual(2);
    expect(projectItem({ id: "a", anything: { many: Array.from({ length: MAX_ROWS + 1 }, () => 0) } }, {}, {}).anything).toEqual({
      unusable: `a list of ${MAX_ROWS + 1} items, more than the ${MAX_ROWS} a result could show`,
    });
  });
});

describe("an item of an unexploded query array holding its delimiter", () => {
  const parameters = [
    { name: "ids", in: "query", style: "form", explode: false },
    { name: "codes", in: "query", style: "pipeDelimited", explode: false },
    { name: "tags", in: "query", style: "form" },
  ] as const;
  const write = queryStringFor(parameters);

  it("is refused for a comma in a form list and a pipe in a pipeDelimited one, and the query is not written", () => {
    expect(queryValueProblem(parameters, "ids", ["a,b", "c"])).toBe(
      'cannot have an item holding a comma ("a,b"): the API reads it as the break between two items; give each part as an item of its own',
    );
    expect(queryValueProblem(parameters, "codes", ["x", "y|z"])).toBe(
      'cannot have an item holding a pipe ("y|z"): the API reads it as the break between two items; give each part as an item of its own',
    );
    expect(() => write({ ids: ["a,b", "c"] })).toThrow('query parameter ids cannot have an item holding a comma ("a,b")');
    expect(() => write({ codes: ["y|z"] })).toThrow('query parameter codes cannot have an item holding a pipe ("y|z")');
  });

  it("is sent where the list is exploded or the item holds another list's delimiter", () => {
    expect(write({ tags: ["a,b", "c|d"] })).toBe("tags=a%2Cb&tags=c%7Cd");
    expect(write({ ids: ["a|b", "c d"], codes: ["x,y"] })).toBe("ids=a%7Cb,c%20d&codes=x%2Cy");
  });
});

describe("a next page the runtime refuses", () => {
  const RULE: NextPageRule = {
    path: "/things",
    source: { body: ["next_url"] },
    parameters: [{ name: "page", in: "query", argument: "page" }],
    schema: { properties: { page: { type: "integer", minimum: 1 } } },
  };

  function refusal(rule: NextPageRule, response: unknown, exchange?: PageExchange): string[] {
    const issues: ProjectionIssue[] = [];
    const next = nextPage(rule, {
      response,
      records: [{}],
      returned: 1,
      exchange,
      ctx: context("list_things", { onIssue: (issue) => issues.push(issue) }),
    });
    expect(next).toBeNull();
    return issues.map((issue) => issue.message);
  }

  it("quotes a next URL's integer past 2^53 as the API wrote it, not as JSON rounds it", () => {
    expect(refusal(RULE, { next_url: "?page=9007199254740993" })).toEqual([
      "list_things.next: the next page sets page to 9007199254740993, past the integers from -(2^53 - 1) to 2^53 - 1 that JSON holds exactly, so no next page is given",
    ]);
  });

  it("says a request's negative offset is negative", () => {
    const byOffset: NextPageRule = {
      ...RULE,
      source: { offset: "offset" },
      parameters: [{ name: "offset", in: "query", argument: "offset" }],
    };
    expect(refusal(byOffset, {}, { query: { offset: "-5" } })).toEqual([
      "list_things.next: the request's offset is negative, so no next page is given",
    ]);
    expect(refusal(byOffset, {}, { query: { offset: "1.5" } })).toEqual([
      "list_things.next: the request's offset is not a whole number, so no next page is given",
    ]);
  });
});
