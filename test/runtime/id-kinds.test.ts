// A short id is expanded only into an id of a kind the argument takes: a task's short id passed as a
// user's is sent as given, two kinds whose short forms collide stay apart, and each kind's own
// ambiguity still offers its longer forms. In this process's book, in a shared one, and on Redis.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisIdBook } from "../../src/redis-id-book.js";
import type { IdBook } from "../../templates/runtime/id-book.js";
import { generateFrom, importGenerated, ROOT, tempDir } from "../helpers/pipeline.js";
import { redisServer, startRedis } from "../helpers/redis-server.js";

const SPEC = `openapi: 3.0.3
info: { title: Tasks, version: "1" }
paths:
  /tasks:
    get:
      operationId: listTasks
      responses:
        "200":
          description: a page of tasks
          content:
            application/json:
              schema: { type: object, properties: { tasks: { type: array, items: { $ref: "#/components/schemas/Task" } } } }
  /tasks/{task_id}:
    get:
      operationId: getTask
      parameters: [{ name: task_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: one task
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Task" }
  /tasks/{task_id}/assignment:
    post:
      operationId: assignTask
      parameters: [{ name: task_id, in: path, required: true, schema: { type: string } }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [user_id], properties: { user_id: { type: string } } }
      responses:
        "200":
          description: the task, assigned
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Task" }
  /users:
    get:
      operationId: listUsers
      responses:
        "200":
          description: a page of users
          content:
            application/json:
              schema: { type: object, properties: { users: { type: array, items: { $ref: "#/components/schemas/User" } } } }
  /users/{user_id}:
    get:
      operationId: getUser
      parameters: [{ name: user_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: one user
          content:
            application/json:
              schema: { $ref: "#/components/schemas/User" }
components:
  schemas:
    Task:
      type: object
      required: [id]
      properties:
        id: { type: string }
        title: { type: string }
        assignee: { type: string }
    User:
      type: object
      required: [id]
      properties:
        id: { type: string }
        name: { type: string }
`;

const ANNOTATION = `spec: tasks.yaml
output: generated
resolvers:
  users: {}
resources:
  task:
    schema: Task
    fields:
      id: { argument: [get_task, assign_task], shorten: true }
      title: keep
      assignee: { join: users, argument: [get_user], shorten: true }
  user:
    schema: User
    fields:
      id: { argument: [get_user, assign_task], shorten: true }
      name: keep
tools:
  list_tasks:
    operation: listTasks
    list: tasks
  get_task:
    operation: getTask
  assign_task:
    operation: assignTask
  list_users:
    operation: listUsers
    list: users
  get_user:
    operation: getUser
`;

const TASK = "tsk_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
/** Another task whose id has the same short form as {@link TASK}'s. */
const TASK_TWIN = "tsk_9f3a71c4-77aa-4f31-8d2c-1e5b6c9042af";
const USER = "usr_0baa8c00-cc40-4700-8c00-46abcc000c00";
/** A user whose id, shown whole, is {@link USER}'s short form. */
const WHOLE_USER = "usr_0baa8c00";
/** A user and a task whose ids, bare UUIDs, have one short form: `5d8804f1`. */
const SAME_FORM_USER = "5d8804f1-6b2a-4c77-9e10-3f7d51ac8802";
const SAME_FORM_TASK = "5d8804f1-1d18-4b6e-9c05-8ab3f2e17d90";

type Outcome = { result?: unknown; error?: string };
type Tool = (args: object) => Promise<Outcome>;
type Tools = Record<"list_tasks" | "get_task" | "assign_task" | "list_users" | "get_user", Tool>;

let generated: Awaited<ReturnType<typeof generateFrom>>;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "tasks.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  generated = await generateFrom(join(dir, "projector.yaml"));
  expect(generated.problems).toEqual([]);
});

/**
 * The API: `tasks` and `users` are what the lists answer; a record fetched is found among them by
 * its full id, else a 404. Every request's path parameters and body are kept.
 */
class FakeApi {
  tasks: string[] = [];
  users: string[] = [];
  /** The user every task is assigned to. */
  assignee = USER;
  readonly sent: { path: string; params: Record<string, string>; body?: unknown }[] = [];
  readonly client = {
    GET: async (path: string, init: { params: { path: Record<string, string> } }) => {
      this.sent.push({ path, params: init.params.path });
      if (path === "/tasks") return ok({ tasks: this.tasks.map((id) => task(id, this.assignee)) });
      if (path === "/users") return ok({ users: this.users.map(user) });
      const taskId = init.params.path["task_id"];
      if (taskId !== undefined) return this.tasks.includes(taskId) ? ok(task(taskId, this.assignee)) : notFound();
      const userId = init.params.path["user_id"]!;
      return this.users.includes(userId) ? ok(user(userId)) : notFound();
    },
    POST: async (path: string, init: { params: { path: Record<string, string> }; body: unknown }) => {
      this.sent.push({ path, params: init.params.path, body: init.body });
      return ok(task(init.params.path["task_id"]!, this.assignee));
    },
  };

  /** The ids sent as path parameters of requests for one record, in order. */
  get idsSent(): string[] {
    return this.sent.filter((r) => r.path !== "/tasks" && r.path !== "/users").flatMap((r) => Object.values(r.params));
  }
}

const task = (id: string, assignee: string) => ({ id, title: `Task ${id.slice(0, 12)}`, assignee });
const user = (id: string) => ({ id, name: `User ${id.slice(0, 12)}` });
const ok = (data: unknown) => ({ data, response: { status: 200, ok: true } });
const notFound = () => ({ error: { message: "Not found" }, response: { status: 404, ok: false } });

/** A process serving the tools: a fresh copy of the generated folder, its own in-memory book unless given one. */
async function serve(idBook?: IdBook, api = new FakeApi()): Promise<{ tools: Tools; api: FakeApi }> {
  const module = await importGenerated<{ createTools: (options: object) => Tools }>(generated.files);
  const users = async (ids: readonly string[]) => new Map(ids.map((id) => [id, `User ${id.slice(0, 12)}`]));
  const tools = module.createTools({ client: api.client, resolvers: { users }, ...(idBook ? { idBook } : {}) });
  return { tools, api };
}

/** The short ids a list result showed, as `field` of each row. */
async function shown(tools: Tools, list: "list_tasks" | "list_users", field = "id"): Promise<string[]> {
  const outcome = await tools[list]({});
  if (outcome.error !== undefined) throw new Error(outcome.error);
  const rows = Object.values(outcome.result as Record<string, Record<string, string>[]>)[0]!;
  return rows.map((row) => row[field]!);
}

/** A shared book in memory, kept as the Redis adapter keeps it: each key's ids, each once, the most recent last. */
class MemoryBook implements IdBook {
  readonly lists = new Map<string, string[]>();
  async remember(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    for (const [key, full] of entries) this.lists.set(key, [...(this.lists.get(key) ?? []).filter((id) => id !== full), full].slice(-8));
  }
  async recall(key: string): Promise<readonly string[]> {
    return [...(this.lists.get(key) ?? [])];
  }
}

/** Each way a process keeps its short ids: a fresh book for each test. */
const books: [string, () => IdBook | undefined][] = [
  ["this process's book", () => undefined],
  ["a shared book", () => new MemoryBook()],
];

describe.each(books)("with %s, a short id", (_, newBook) => {
  it("of a task, passed as get_user's user_id, is sent as given, never as the task's full id", async () => {
    const { tools, api } = await serve(newBook());
    api.tasks = [TASK];
    expect(await shown(tools, "list_tasks")).toEqual(["tsk_9f3a71c4"]);
    expect(await tools.get_user({ user_id: "tsk_9f3a71c4" })).toEqual({ error: expect.stringMatching(/^get_user: the API answered 404/) });
    expect(api.idsSent).toEqual(["tsk_9f3a71c4"]);
    await tools.get_task({ task_id: "tsk_9f3a71c4" });
    expect(api.idsSent).toEqual(["tsk_9f3a71c4", TASK]);
  });

  it("that a user's and a task's ids share is expanded by each tool into its own kind's id, without ambiguity", async () => {
    const { tools, api } = await serve(newBook());
    api.tasks = [SAME_FORM_TASK];
    api.users = [SAME_FORM_USER];
    expect(await shown(tools, "list_tasks")).toEqual(["5d8804f1"]);
    expect(await shown(tools, "list_users")).toEqual(["5d8804f1"]);
    expect(await tools.get_task({ task_id: "5d8804f1" })).not.toHaveProperty("error");
    expect(await tools.get_user({ user_id: "5d8804f1" })).not.toHaveProperty("error");
    expect(api.idsSent).toEqual([SAME_FORM_TASK, SAME_FORM_USER]);
  });

  it("of a task's assignee, a related id naming get_user, is expanded in get_user's user_id, and a task's of the same form is not", async () => {
    const { tools, api } = await serve(newBook());
    api.users = [USER, SAME_FORM_USER];
    api.tasks = [TASK];
    expect(await shown(tools, "list_tasks", "assignee_id")).toEqual(["usr_0baa8c00"]);
    expect(await tools.get_user({ user_id: "usr_0baa8c00" })).not.toHaveProperty("error");
    api.assignee = SAME_FORM_USER;
    expect(await shown(tools, "list_tasks", "assignee_id")).toEqual(["5d8804f1"]);
    api.tasks = [SAME_FORM_TASK];
    api.assignee = USER;
    expect(await shown(tools, "list_tasks")).toEqual(["5d8804f1"]);
    expect(await tools.get_user({ user_id: "5d8804f1" })).not.toHaveProperty("error");
    expect(await tools.get_task({ task_id: "5d8804f1" })).not.toHaveProperty("error");
    expect(api.idsSent).toEqual([USER, SAME_FORM_USER, SAME_FORM_TASK]);
  });

  it("of a user is expanded in a request body's user_id, and a task's is not", async () => {
    const { tools, api } = await serve(newBook());
    api.tasks = [TASK];
    api.users = [USER];
    await shown(tools, "list_tasks");
    await shown(tools, "list_users");
    await tools.assign_task({ task_id: "tsk_9f3a71c4", body: { user_id: "usr_0baa8c00" } });
    await tools.assign_task({ task_id: "tsk_9f3a71c4", body: { user_id: "tsk_9f3a71c4" } });
    expect(api.sent.filter((r) => r.path.endsWith("/assignment")).map((r) => [r.params["task_id"], r.body])).toEqual([
      [TASK, { user_id: USER }],
      [TASK, { user_id: "tsk_9f3a71c4" }],
    ]);
  });

  it("shown for two tasks in different results is ambiguous, and each longer form it offers then works", async () => {
    const book = newBook();
    const { tools, api } = await serve(book);
    api.tasks = [TASK];
    await shown(tools, "list_tasks");
    api.tasks = [TASK_TWIN];
    await shown(tools, "list_tasks");
    api.tasks = [TASK, TASK_TWIN];
    expect(await tools.get_task({ task_id: "tsk_9f3a71c4" })).toEqual({
      error:
        'get_task: task_id "tsk_9f3a71c4" is ambiguous: it was shown for 2 different records; pass the longer id of the one you mean: "tsk_9f3a71c4-2" or "tsk_9f3a71c4-7"',
    });
    // A task's longer forms are no user's: get_user sends them as given.
    await tools.get_user({ user_id: "tsk_9f3a71c4-7" });
    await tools.get_task({ task_id: "tsk_9f3a71c4-7" });
    await tools.get_task({ task_id: "tsk_9f3a71c4-2" });
    expect(api.idsSent).toEqual(["tsk_9f3a71c4-7", TASK_TWIN, TASK]);
  });

  it("shown whole for one user and as another's short form under another kind is ambiguous once, then each form works", async () => {
    const { tools, api } = await serve(newBook());
    api.users = [WHOLE_USER, USER];
    api.tasks = [TASK];
    expect(await shown(tools, "list_users")).toEqual([WHOLE_USER, "usr_0baa8c00-c"]);
    api.users = [WHOLE_USER];
    expect(await shown(tools, "list_users")).toEqual([WHOLE_USER]);
    expect(await shown(tools, "list_tasks", "assignee_id")).toEqual([WHOLE_USER]);
    api.users = [WHOLE_USER, USER];
    expect(await tools.get_user({ user_id: WHOLE_USER })).toEqual({
      error: `get_user: user_id "${WHOLE_USER}" is ambiguous: it is one record's whole id, and was shown as the short form of another's; pass it again for the record whose whole id it is, or the longer id of the one you mean: "usr_0baa8c00-c"`,
    });
    await tools.get_user({ user_id: WHOLE_USER });
    await tools.get_user({ user_id: "usr_0baa8c00-c" });
    expect(api.idsSent).toEqual([WHOLE_USER, USER]);
  });
});

describe("the kinds of short id", () => {
  it("are named in each tool's call by the resource and field that hand them out, as the generator labels them", async () => {
    const kinds = (name: string) =>
      generated.model!.tools.find((t) => t.name === name)!.inputs.parameters.map((p) => [p.name, p.shortIds, p.shortIdProperties]);
    expect(kinds("get_task")).toEqual([["task_id", ["task.id"], undefined]]);
    // The assignee's id is taken by no parameter by name, so user_id, the tool's one id parameter, takes it too.
    expect(kinds("get_user")).toEqual([["user_id", ["user.id", "task.assignee"], undefined]]);
    expect(kinds("assign_task")).toEqual([
      ["task_id", ["task.id"], undefined],
      ["body", false, [["user_id", ["user.id"]]]],
    ]);
    expect(generated.files.get("definitions.ts")).toContain('shortIds: ["user.id", "task.assignee"]');
  });

  it("handed out at run time are those the generated calls take", async () => {
    const book = new MemoryBook();
    const { tools, api } = await serve(book);
    api.tasks = [TASK];
    api.users = [USER];
    await shown(tools, "list_tasks");
    await shown(tools, "list_users");
    const taken = new Set(
      generated.model!.tools.flatMap((t) =>
        t.inputs.parameters.flatMap((p) => [...(p.shortIds || []), ...(p.shortIdProperties ?? []).flatMap(([, k]) => k)]),
      ),
    );
    const handedOut = [...book.lists.keys()].map((key) => [...taken].find((kind) => key.startsWith(JSON.stringify(kind))));
    expect(new Set(handedOut)).toEqual(taken);
  });
});

describe("the support desk's short ids", () => {
  it("are handed out under the kinds its calls take, a relationship's too; an unresolved join's under its own field", async () => {
    const support = await import("../../generated/support/index.js");
    const handOuts: string[] = [];
    const noNames = { users: async () => new Map<string, string>(), orgs: async () => new Map<string, string>() };
    const ticketRecord = {
      type: "ticket",
      id: TASK.replace("tsk", "tkt"),
      attributes: { subject: "Refund", status_code: 3, priority: 2, created_at: "2026-02-11T00:14:22.481Z" },
      relationships: { assignee: { data: { type: "user", id: USER } }, organization: { data: null } },
    };
    await support.projectSearchTickets({ data: [ticketRecord] } as never, noNames, { handOuts });
    const commentRecord = {
      type: "comment",
      id: "cmt_1",
      attributes: { body: "Refunded.", public: true, created_at: "2026-02-14T16:02:07.113Z" },
      relationships: { ticket: { data: { type: "ticket", id: ticketRecord.id } }, author: { data: null } },
    };
    await support.projectAddComment({ data: commentRecord } as never, noNames, { handOuts });
    const handedOut = new Set(handOuts.filter((_, i) => i % 3 === 2));
    const desk = await generateFrom(join(ROOT, "projector.yaml"));
    const taken = new Set(desk.model!.tools.flatMap((t) => t.inputs.parameters.flatMap((p) => p.shortIds || [])));
    expect(taken).toEqual(new Set(["ticket.id", "comment.ticket", "user.id"]));
    // The assignee no tool takes is shown unresolved, its short id handed out as the field's own kind.
    expect(handedOut).toEqual(new Set(["ticket.id", "ticket.assignee", "comment.ticket"]));
  });
});

describe.skipIf(!redisServer)(redisServer ? "on Redis, a short id" : "on Redis: skipped, redis-server is not installed", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it("of a task, passed as get_user's user_id by another process, is sent as given; as get_task's, expanded", async () => {
    const prefix = `id-kinds-${process.pid}:`;
    const first = await serve(redisIdBook(client, { prefix }));
    first.api.tasks = [TASK];
    await shown(first.tools, "list_tasks");
    const { tools, api } = await serve(redisIdBook(client, { prefix }));
    api.tasks = [TASK];
    await tools.get_user({ user_id: "tsk_9f3a71c4" });
    await tools.get_task({ task_id: "tsk_9f3a71c4" });
    expect(api.idsSent).toEqual(["tsk_9f3a71c4", TASK]);
    expect(await client.lrange(`${prefix}"task.id"tsk_9f3a71c4`, 0, -1)).toEqual([TASK]);
  });
});
