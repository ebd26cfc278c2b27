// A tool's input schema says exactly what the tool takes: a validator in front of it (ajv, the MCP
// SDK's, LangChain's) accepts the short ids a result gave, refuses members the API does not declare,
// and offers only words the parameter can send.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { generateFrom, importGenerated, tempDir, typecheckFiles } from "./helpers/pipeline.js";

type Outcome = { result?: any; error?: string };
type Generated = {
  toolDefinitions: { name: string; inputSchema: { properties: Record<string, any> } }[];
  createTools: (options: { client: unknown }) => Record<string, (args: unknown) => Promise<Outcome>>;
};

const TASK = "tsk_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const PROJECT = "prj_0b7c52de-91a4-4f0e-8d3b-6e2a0c9f4417";
const ID_PATTERN = "^[a-z]{3}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
const FULL_ID = { type: "string", pattern: ID_PATTERN, minLength: 40, maxLength: 40, format: "uuid-ish" };

const json = (schema: object) => ({ "application/json": { schema } });
const ONE = { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Task" }) } };
const MANY = { "200": { description: "ok", content: json({ type: "array", items: { $ref: "#/components/schemas/Task" } }) } };

const spec = {
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/tasks": {
      get: {
        operationId: "listTasks",
        parameters: [
          { name: "project_id", in: "query", schema: FULL_ID },
          // A list filter takes fewer codes than the records show.
          { name: "state", in: "query", schema: { type: "integer", enum: [1, 2] } },
          { name: "filter[state]", in: "query", schema: { type: "array", items: { type: "integer", enum: [2] } } },
        ],
        responses: MANY,
      },
      post: {
        operationId: "createTask",
        requestBody: {
          content: json({
            type: "object",
            additionalProperties: false,
            properties: {
              project_id: FULL_ID,
              labels: { type: "object", additionalProperties: { type: "integer" } },
              owner: { type: "object", additionalProperties: false, properties: { name: { type: "string" } } },
            },
          }),
        },
        responses: ONE,
      },
    },
    "/tasks/{id}": {
      get: { operationId: "getTask", parameters: [{ name: "id", in: "path", required: true, schema: FULL_ID }], responses: ONE },
    },
  },
  components: {
    schemas: {
      Task: {
        type: "object",
        required: ["id"],
        properties: {
          id: { type: "string" },
          project_id: { type: "string" },
          state: { type: "integer", enum: [1, 2, 3] },
        },
      },
    },
  },
};

const annotation = (inputs = "") => `spec: openapi.json
output: out
resources:
  task:
    schema: Task
    fields:
      id: { argument: [get_task], shorten: true }
      project_id: { argument: [list_tasks, create_task], shorten: true }
      state: { legend: { 1: open, 2: closed, 3: deleted } }
tools:
  list_tasks:
    operation: listTasks${inputs}
  get_task: { operation: getTask }
  create_task: { operation: createTask }
`;

async function build(inputs?: string) {
  const dir = tempDir("projector-input-boundary-");
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
  writeFileSync(join(dir, "projector.yaml"), annotation(inputs));
  const output = await generateFrom(join(dir, "projector.yaml"));
  const generated = output.problems.length === 0 ? await importGenerated<Generated>(output.files) : undefined;
  return { diagnostics: output.diagnostics, files: output.files, generated };
}

/** An openapi-fetch client that records each request and answers with the records of `data`: all of them to a list, the first to one record's path or a POST. */
function recordingClient(data: unknown[]) {
  const requests: { path: string; init: any }[] = [];
  const list = async (path: string, init: unknown) => {
    requests.push({ path, init });
    return { data: path === "/tasks" ? data : data[0], response: { ok: true, status: 200 } };
  };
  const one = async (path: string, init: unknown) => {
    requests.push({ path, init });
    return { data: data[0], response: { ok: true, status: 200 } };
  };
  return { requests, client: { GET: list, POST: one } };
}

const schemaOf = (generated: Generated | undefined, tool: string) => generated!.toolDefinitions.find((t) => t.name === tool)!.inputSchema;

describe("an id parameter that takes short ids", () => {
  it("is shown without the constraints a short form fails, so a standard validator takes the short id", async () => {
    const { generated } = await build();
    const ajv = new Ajv2020({ strict: false });
    const { requests, client } = recordingClient([{ id: TASK, project_id: PROJECT, state: 1 }]);
    const tools = generated!.createTools({ client });
    const shown = (await tools.list_tasks!({})).result.tasks[0];
    expect(shown).toMatchObject({ id: "tsk_9f3a71c4", project_id: "prj_0b7c52de" });
    for (const [tool, args] of [
      ["get_task", { id: shown.id }],
      ["list_tasks", { project_id: shown.project_id }],
      ["create_task", { body: { project_id: shown.project_id } }],
    ] as const) {
      const validate = ajv.compile(schemaOf(generated, tool));
      expect(validate(args), `${tool}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(await tools[tool]!(args)).not.toHaveProperty("error");
    }
    expect(requests.map((r) => r.init.params.path?.id ?? r.init.params.query?.project_id ?? r.init.body?.project_id)).toEqual([
      undefined,
      TASK,
      PROJECT,
      PROJECT,
    ]);
    // A prefix of the full id is never longer, so maxLength is shown as the spec has it.
    expect(schemaOf(generated, "get_task").properties["id"]).toEqual({
      type: "string",
      maxLength: 40,
      description: "An id as a result gave it; the short form is accepted.",
    });
  });

  it("still refuses a full id that breaks the spec's pattern, and sends nothing", async () => {
    const { generated } = await build();
    const { requests, client } = recordingClient([{ id: TASK }]);
    const tools = generated!.createTools({ client });
    const wrong = "tsk_zzzzzzzz-2d18-4b6e-9c05-8ab3f2e17d90";
    expect((await tools.get_task!({ id: wrong })).error).toMatch(`get_task: bad arguments: id must match ${ID_PATTERN};`);
    expect((await tools.create_task!({ body: { project_id: wrong } })).error).toBe(
      `create_task: bad arguments: body.project_id must match ${ID_PATTERN}`,
    );
    expect(requests).toEqual([]);
  });
});

describe("object members", () => {
  it("carry additionalProperties into the input schema and the arguments' type, and the tool refuses what it refuses", async () => {
    const { files, generated } = await build();
    expect(files.get("definitions.ts")).toMatch(/labels\?: \{ \[key: string\]: number \}/);
    expect(typecheckFiles(files)).toEqual([]);
    const body = schemaOf(generated, "create_task").properties["body"];
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.labels).toEqual({ type: "object", additionalProperties: { type: "integer" } });
    expect(body.properties.owner.additionalProperties).toBe(false);
    const { requests, client } = recordingClient([{ id: TASK }]);
    const tools = generated!.createTools({ client });
    expect((await tools.create_task!({ body: { labels: { weight: "heavy" } } })).error).toBe(
      'create_task: bad arguments: body.labels.weight must be integer, not "heavy"',
    );
    expect((await tools.create_task!({ body: { owner: { name: "ann", admin: true } } })).error).toMatch(
      /body\.owner\.admin is not an argument here/,
    );
    expect((await tools.create_task!({ body: { extra: 1 } })).error).toMatch(/body\.extra is not an argument here/);
    expect(requests).toEqual([]);
    expect(await tools.create_task!({ body: { labels: { weight: 3 } } })).not.toHaveProperty("error");
  });
});

describe("a parameter's words", () => {
  it("are only those for codes its own enum takes", async () => {
    const { generated } = await build();
    const list = schemaOf(generated, "list_tasks");
    expect(list.properties["state"]).toEqual({ type: "string", enum: ["open", "closed"] });
    expect(list.properties["filter_state"]).toEqual({ type: "array", items: { type: "string", enum: ["closed"] } });
    const { requests, client } = recordingClient([]);
    const tools = generated!.createTools({ client });
    expect((await tools.list_tasks!({ state: "deleted" })).error).toMatch(/state must be one of "open", "closed", not "deleted"/);
    expect(requests).toEqual([]);
    await tools.list_tasks!({ state: "closed", filter_state: ["closed"] });
    expect(requests[0]!.init.params.query).toEqual({ state: 2, "filter[state]": [2] });
  });

  it("given in the annotation for a code the parameter does not take is PRJ062", async () => {
    const { diagnostics } = await build("\n    inputs:\n      state: { legend: { 1: open, 3: deleted } }");
    expect(diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      [
        "PRJ062",
        "error",
        'tool list_tasks: legend code "3" is not one "state" takes (its enum: 1, 2), so its word would be sent and refused',
      ],
    ]);
  });
});
