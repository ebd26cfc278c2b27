// A list of ids given to a query parameter that takes them (`filter[task_id]=a,b`): each short id a
// result gave is sent whole, as a single id is; a short form two records share is refused naming its
// place in the list; and a shared id book is asked about a bounded number of texts per call.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { callTool, type ToolCall } from "../../templates/runtime/call-tool.js";
import type { IdBook } from "../../templates/runtime/id-book.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Tasks, version: "1" }
paths:
  /tasks:
    get:
      operationId: listTasks
      parameters:
        - name: filter[task_id]
          in: query
          style: form
          explode: false
          schema: { type: array, items: { type: string } }
      responses:
        "200":
          description: a page of tasks
          content:
            application/json:
              schema: { type: object, properties: { tasks: { type: array, items: { $ref: "#/components/schemas/Task" } } } }
components:
  schemas:
    Task:
      type: object
      required: [id]
      properties:
        id: { type: string }
        title: { type: string }
`;

const ANNOTATION = `spec: tasks.yaml
output: generated
resources:
  task:
    schema: Task
    fields:
      id: { argument: [list_tasks], shorten: true }
      title: keep
tools:
  list_tasks:
    operation: listTasks
    list: tasks
`;

const TASKS = ["tsk_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "tsk_0c1d2e3f-1111-4b6e-9c05-8ab3f2e17d90"];
/** A task whose id has the same short form as the first's. */
const TWIN = "tsk_9f3a71c4-77aa-4f31-8d2c-1e5b6c9042af";

type Outcome = { result?: { tasks: { id: string }[] }; error?: string };
type Tools = { list_tasks: (args: object) => Promise<Outcome> };

let generated: Awaited<ReturnType<typeof generateFrom>>;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "tasks.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  generated = await generateFrom(join(dir, "projector.yaml"));
  expect(generated.problems).toEqual([]);
});

/** An API answering every listing with its `tasks`, keeping each request's query. */
function fakeApi(tasks: string[]) {
  const api = {
    tasks,
    queries: [] as Record<string, unknown>[],
    client: {
      GET: async (_path: string, init: { params: { query: Record<string, unknown> } }) => {
        api.queries.push(init.params.query);
        return { data: { tasks: api.tasks.map((id) => ({ id, title: `Task ${id.slice(4, 12)}` })) }, response: { status: 200, ok: true } };
      },
    },
  };
  return api;
}

async function serve(tasks: string[], idBook?: IdBook) {
  const module = await importGenerated<{ createTools: (options: object) => Tools }>(generated.files);
  const api = fakeApi(tasks);
  return { tools: module.createTools({ client: api.client, ...(idBook ? { idBook } : {}) }), api };
}

/** A shared book in memory: each key's ids, each once, the most recent last. */
class MemoryBook implements IdBook {
  readonly lists = new Map<string, string[]>();
  recalls = 0;
  async remember(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    for (const [key, full] of entries) this.lists.set(key, [...(this.lists.get(key) ?? []).filter((id) => id !== full), full]);
  }
  async recall(key: string): Promise<readonly string[]> {
    this.recalls++;
    return [...(this.lists.get(key) ?? [])];
  }
}

describe.each([
  ["this process's book", () => undefined],
  ["a shared book", () => new MemoryBook()],
])("with %s, a list of ids given to a query parameter", (_, newBook) => {
  it("has each short id a result gave sent whole, and any other text as given", async () => {
    const { tools, api } = await serve(TASKS, newBook());
    const listed = await tools.list_tasks({});
    const shortIds = listed.result!.tasks.map((task) => task.id);
    expect(shortIds).toEqual(["tsk_9f3a71c4", "tsk_0c1d2e3f"]);
    expect((await tools.list_tasks({ filter_task_id: [...shortIds, "tsk_unknown"] })).error).toBeUndefined();
    expect(api.queries.at(-1)).toEqual({ "filter[task_id]": [...TASKS, "tsk_unknown"] });
  });

  it("refuses a short form two records share, naming its place in the list, and sends nothing", async () => {
    const { tools, api } = await serve(TASKS, newBook());
    await tools.list_tasks({});
    api.tasks = [TWIN];
    await tools.list_tasks({});
    const sent = api.queries.length;
    const outcome = await tools.list_tasks({ filter_task_id: ["tsk_0c1d2e3f", "tsk_9f3a71c4"] });
    expect(outcome.error).toMatch(/^list_tasks: filter_task_id\[1\] "tsk_9f3a71c4" is ambiguous: it was shown for 2 different records/);
    expect(api.queries.length).toBe(sent);
  });
});

describe("a shared id book, given a list of ids", () => {
  it("is asked about at most MAX_SHORT_IDS_RECALLED texts in one call; more are refused before any is asked", async () => {
    const book = new MemoryBook();
    const { tools, api } = await serve(TASKS, book);
    await tools.list_tasks({});
    const many = Array.from({ length: 101 }, (_, i) => `tsk_${String(i).padStart(8, "0")}`);
    const before = { recalls: book.recalls, sent: api.queries.length };
    expect((await tools.list_tasks({ filter_task_id: many })).error).toBe(
      "list_tasks: 101 different ids were given, more than the 100 one call looks up in the id book; pass fewer",
    );
    expect({ recalls: book.recalls, sent: api.queries.length }).toEqual(before);
  });
});

describe("the note on a forgotten short id, beside an argument's problem", () => {
  const FORGOTTEN = "no longer remembered";
  const getItem: ToolCall = {
    method: "get",
    path: "/items/{item_id}",
    parameters: [{ name: "item_id", in: "path", argument: "item_id", shortIds: ["item.id"] }],
  };
  const listItems: ToolCall = {
    method: "get",
    path: "/items",
    parameters: [{ name: "ids", in: "query", argument: "ids", shortIds: ["item.id"], style: "form", explode: false }],
  };
  const noRequest = { GET: async () => expect.unreachable("no request is sent") };
  const call = (toolCall: ToolCall, schema: object, args: object) =>
    callTool(noRequest, "tool", toolCall, { type: "object", properties: schema }, args, async (response) => response) as Promise<{
      error?: string;
    }>;

  it("is not given for a list where one id is taken: the list's type is the problem, not an id", async () => {
    const outcome = await call(getItem, { item_id: { type: "string" } }, { item_id: ["itm_0badcafe", "itm_1badcafe"] });
    expect(outcome.error).toMatch(/^tool: bad arguments: item_id /);
    expect(outcome.error).not.toContain(FORGOTTEN);
  });

  it("is given for the item of a list the book does not know whose problem is its own", async () => {
    const ids = { type: "array", items: { type: "string", minLength: 20 } };
    const outcome = await call(listItems, { ids }, { ids: ["itm_0badcafe"] });
    expect(outcome.error).toMatch(/^tool: bad arguments: ids\[0\] /);
    expect(outcome.error).toContain(FORGOTTEN);
  });
});
