// What the consumer's hooks and the API's answers cannot cost a call: an onIssue whose promise
// rejects never ends the process, and a page of more records than any result could show is refused
// before it is projected.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { MAX_ROWS } from "../../templates/runtime/records.js";
import { type LocalApi, startLocalApi } from "../helpers/local-api.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Shop, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: cursor, in: query, schema: { type: string } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/Item" } }
                  next: { type: string, format: uri, nullable: true }
  /users:
    get:
      operationId: listUsers
      parameters:
        - { name: ids, in: query, style: form, explode: false, schema: { type: array, items: { type: string } } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/User" } } } }
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: words, in: query, style: spaceDelimited, explode: false, schema: { type: array, maxItems: 2, items: { type: string } } }
        - { name: codes, in: query, style: pipeDelimited, explode: false, schema: { type: array, items: { type: string } } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  things: { type: array, items: { $ref: "#/components/schemas/Thing" } }
  /events:
    get:
      operationId: listEvents
      parameters:
        - { name: offset, in: query, schema: { type: integer } }
        - { name: after, in: query, schema: { type: integer } }
        - { name: limit, in: query, schema: { type: integer, default: 4 } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  events: { type: array, items: { $ref: "#/components/schemas/Event" } }
components:
  schemas:
    Event:
      type: object
      properties:
        number: { type: integer }
    Item:
      type: object
      properties:
        id: { type: string }
        title: { type: string }
        owner_id: { type: string }
    User:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
    Thing:
      type: object
      properties:
        name: { type: string }
        parts: { type: array, items: { type: object, properties: { label: { type: string } } } }
        created: { type: string }
        stamp: { type: integer }
`;

const ANNOTATION = `spec: spec.yaml
output: gen
resolvers:
  users: { label: name, operation: listUsers, ids: ids }
resources:
  item:
    schema: Item
    fields:
      id: { fact: "people quote it" }
      title: keep
      owner_id: { as: owner, join: users }
  user:
    schema: User
    fields:
      id: { drop: "users are named, not listed" }
      name: keep
  thing:
    schema: Thing
    fields:
      name: keep
      parts.label: keep
      created: { format: datetime }
      stamp: { format: datetime }
  event:
    schema: Event
    fields:
      number: { fact: "people quote it" }
tools:
  list_events_by_offset:
    operation: listEvents
    list: events
    page: { next: { offset: offset, limit: limit } }
    budget: { rows: 2 }
    inputs:
      after: { drop: "read by the other tool" }
  list_events_after:
    operation: listEvents
    list: events
    page: { next: { after_last: number, param: after, limit: limit } }
    budget: { rows: 2 }
    inputs:
      offset: { drop: "read by the other tool" }
  list_items:
    operation: listItems
    list: items
    page: { next: next }
  list_things:
    operation: listThings
    list: things
`;

type Outcome = { result?: Record<string, unknown>; error?: string; text?: string };
type Tool = (args: unknown, options?: object) => Promise<Outcome>;
interface Generated {
  createTools: (options: object) => Record<string, Tool>;
  createResolvers: (client: unknown) => Record<string, unknown>;
  projectThing: (record: unknown, lookups: object, options: object) => Record<string, unknown>;
}

/** What the local API answers: the JSON text of a body, as the API wrote it. */
type Route = (path: string, query: URLSearchParams) => string;

let generated: Generated;
let api: LocalApi;
let baseUrl: string;
let requests: string[];

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "spec.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  generated = await importGenerated<Generated>(output.files);
  api = await startLocalApi();
  ({ baseUrl, requests } = api);
});

afterAll(() => api?.close());

/** The tools over the local API answering `route`, and the issues they report. */
function tools(answer: Route, options: object = {}) {
  api.answer = ({ path, query }) => ({ text: answer(path, query) });
  requests.length = 0;
  const issues: ProjectionIssue[] = [];
  const made = generated.createTools({
    client: createClient({ baseUrl }),
    resolvers: generated.createResolvers(createClient({ baseUrl })),
    onIssue: (issue: ProjectionIssue) => issues.push(issue),
    ...options,
  });
  return { tools: made, issues };
}

/** The rejections no one handled while `run` ran and the turns of the event loop after it. */
async function unhandledRejections(run: () => Promise<unknown>): Promise<unknown[]> {
  const rejections: unknown[] = [];
  const note = (reason: unknown) => void rejections.push(reason);
  process.on("unhandledRejection", note);
  try {
    await run();
    for (let turn = 0; turn < 5; turn++) await new Promise((next) => setImmediate(next));
  } finally {
    process.off("unhandledRejection", note);
  }
  return rejections;
}

describe("an onIssue whose promise rejects", () => {
  const rejecting = async () => {
    await Promise.resolve();
    throw new Error("log sink unavailable");
  };

  it("costs neither the result nor the process where the page's joins are resolved", async () => {
    const { tools: made } = tools(
      (path) =>
        path === "/users"
          ? JSON.stringify([{ id: "u1", name: "Dana" }])
          : JSON.stringify({ items: [{ id: "i1", title: 5, owner_id: "u1" }] }),
      { onIssue: rejecting },
    );
    let outcome: Outcome | undefined;
    expect(await unhandledRejections(async () => (outcome = await made["list_items"]!({})))).toEqual([]);
    expect(outcome?.result?.["items"]).toEqual([{ id: "i1", title: { unusable: expect.any(String) }, owner: "Dana" }]);
  });

  it("costs neither the result nor the process where the page has no joins", async () => {
    const { tools: made } = tools(() => JSON.stringify({ things: [{ name: 5 }] }), { onIssue: rejecting });
    let outcome: Outcome | undefined;
    expect(await unhandledRejections(async () => (outcome = await made["list_things"]!({})))).toEqual([]);
    expect(outcome?.result?.["things"]).toMatchObject([{ name: { unusable: expect.any(String) } }]);
  });

  it("costs nothing more than the refusal where the body is not what the spec declares", async () => {
    const { tools: made } = tools(() => JSON.stringify({ things: "none" }), { onIssue: rejecting });
    let outcome: Outcome | undefined;
    expect(await unhandledRejections(async () => (outcome = await made["list_things"]!({})))).toEqual([]);
    expect(outcome?.error).toMatch(/^list_things: the API answered 200 but its body is not a list of thing records/);
  });
  it("costs nothing where a projection function is called directly", async () => {
    let projected: Record<string, unknown> | undefined;
    expect(await unhandledRejections(async () => (projected = generated.projectThing({ name: 5 }, {}, { onIssue: rejecting })))).toEqual(
      [],
    );
    expect(projected).toMatchObject({ name: { unusable: expect.any(String) } });
  });
});

describe("a page of more records than any result could show", () => {
  it("is refused before any record is projected, with an issue", async () => {
    const rows = MAX_ROWS + 1;
    const { tools: made, issues } = tools(() => `{"things":[${"{},".repeat(rows - 1)}{}]}`);
    expect(await made["list_things"]!({})).toEqual({
      error: `list_things: the API answered 200 but its body is not a list of thing records at things (${rows} items, more than the ${MAX_ROWS} a page may have), so there is no result to show`,
    });
    expect(issues.map((issue) => issue.value)).toEqual(["array"]);
  });

  it("is unusable where a record's list of objects holds more, with an issue", async () => {
    const parts = MAX_ROWS + 1;
    const { tools: made, issues } = tools(() => `{"things":[{"name":"a","parts":[${"{},".repeat(parts - 1)}{}]}]}`);
    const unusable = `a list of ${parts} objects, more than the ${MAX_ROWS} a result could show`;
    expect((await made["list_things"]!({})).result?.["things"]).toMatchObject([{ name: "a", parts: { unusable } }]);
    expect(issues.map((issue) => issue.message)).toEqual([`thing.parts: ${unusable}`]);
  });

  it("is projected up to the bound, and refused only if its text is too long", async () => {
    const { tools: made } = tools(() => `{"things":[${'{"name":null},'.repeat(MAX_ROWS - 1)}{"name":null}]}`);
    expect((await made["list_things"]!({})).error).toMatch(/^list_things: the result is \d+ characters long, more than the 100000/);
  });
});

describe("a date-time read from an epoch", () => {
  const read = async (thing: object) => {
    const { tools: made, issues } = tools(() => JSON.stringify({ things: [thing] }));
    const [shown] = ((await made["list_things"]!({})).result?.["things"] ?? []) as Record<string, unknown>[];
    return { shown, issues: issues.map((issue) => issue.message) };
  };

  it.each([1.5, 99_999_999_999.9, 1_663_600_000.5])("is unusable where the number %j is not whole, with an issue", async (stamp) => {
    const { shown, issues } = await read({ stamp });
    expect(shown?.["stamp"]).toEqual({ unusable: `not a date-time: ${stamp}` });
    expect(issues).toEqual([`thing.stamp: not a date-time: ${stamp}`]);
  });

  it("is unusable where the spec declares text and the API sends a number", async () => {
    const { shown, issues } = await read({ created: 1_700_000_000 });
    expect(shown?.["created"]).toEqual({ unusable: "not a date-time: 1700000000" });
    expect(issues).toEqual(["thing.created: not a date-time: 1700000000"]);
  });

  it("reads whole epochs where the spec declares them, and epoch digits sent as text", async () => {
    const { shown } = await read({ created: "1700000000", stamp: 1_700_000_000_000 });
    expect(shown).toMatchObject({ created: "2023-11-14T22:13Z", stamp: "2023-11-14T22:13Z" });
  });
});

describe("an item of a space-delimited list holding a space", () => {
  it("is refused, and nothing is sent", async () => {
    const { tools: made } = tools(() => JSON.stringify({ things: [] }));
    expect(await made["list_things"]!({ words: ["red green", "blue"] })).toEqual({
      error:
        'list_things: words cannot have an item holding a space ("red green"): the API reads it as the break between two items; give each word as an item of its own',
    });
    expect(requests).toEqual([]);
  });

  it("is sent as its items where none holds a space, and a pipe list's as its items where none holds a pipe", async () => {
    const { tools: made } = tools(() => JSON.stringify({ things: [] }));
    expect((await made["list_things"]!({ words: ["red", "blue"], codes: ["a b", "c"] })).error).toBeUndefined();
    expect(requests).toEqual(["/things?words=red%20blue&codes=a%20b|c"]);
  });
});

describe("a short last page whose rows a budget cut", () => {
  const events = () => JSON.stringify({ events: [{ number: 11 }, { number: 12 }, { number: 13 }] });

  it("gives a next after the last record shown, by offset", async () => {
    const { tools: made } = tools(events);
    const outcome = await made["list_events_by_offset"]!({ offset: 10, limit: 4 });
    expect(outcome.result).toMatchObject({ events: [{ number: 11 }, { number: 12 }], truncated: { shown: 2, total: 3 } });
    expect(outcome.result?.["next"]).toMatch(/^offset=12\b/);
  });

  it("gives a next after the last record shown, after its value", async () => {
    const { tools: made } = tools(events);
    const outcome = await made["list_events_after"]!({ limit: 4 });
    expect(outcome.result?.["next"]).toMatch(/^after=12\b/);
  });

  it("gives none where nothing was cut", async () => {
    const { tools: made } = tools(() => JSON.stringify({ events: [{ number: 11 }] }));
    expect((await made["list_events_by_offset"]!({ offset: 10, limit: 4 })).result?.["next"]).toBeNull();
  });
});

describe("a next URL's query", () => {
  it.each([
    ["cursor=a+b", "cursor=a%20b"],
    ["cursor=x;limit=5", "cursor=x%3Blimit%3D5"],
  ])("%s is read as a query is, and its value sent escaped as %s", async (written, sent) => {
    let next: string | null = `${baseUrl}/items?${written}`;
    const { tools: made } = tools(() => JSON.stringify({ items: [], next }));
    const page = await made["list_items"]!({});
    next = null;
    requests.length = 0;
    expect((await made["list_items"]!({ next: page.result?.["next"] })).error).toBeUndefined();
    expect([page.result?.["next"], requests]).toEqual([sent, [`/items?${sent}`]]);
  });
});
