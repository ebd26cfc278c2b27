import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { generateFrom, importGenerated, tempDir } from "./helpers/pipeline.js";

/**
 * The input half against what specs really hold: schemas validators
 * and the tool APIs accept, requests that send what the model passed, and a diagnostic wherever a
 * tool could not call the operation as the spec says.
 */

type Outcome = { result?: unknown; error?: string };
type Generated = {
  toolDefinitions: { name: string; inputSchema: { properties: Record<string, any>; required: string[] } }[];
  createTools: (options: { client: unknown; resolvers?: unknown }) => Record<string, (args: unknown) => Promise<Outcome>>;
};

const RECORD = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string" }, project_id: { type: "string" }, size: { $ref: "#/components/schemas/Size" } },
};
const ONE = { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Task" } } } } };
const MANY = {
  "200": {
    description: "ok",
    content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Task" } } } },
  },
};

/** A spec of one resource, `task`, with the given operations under `paths`. */
const specWith = (paths: object, openapi = "3.0.3") => ({
  openapi,
  info: { title: "t", version: "1" },
  paths,
  components: {
    schemas: { Task: RECORD, Size: { type: "integer", enum: [1, 2], "x-enum-varnames": ["SIZE_SMALL", "SIZE_LARGE"] } },
  },
});

const SHORT_IDS =
  "id: { argument: [get_task, list_tasks], shorten: true }\n      project_id: { argument: [list_tasks, create_task], shorten: true }";
const KEPT = "id: { drop: not here }\n      project_id: { drop: not here }";

const ANNOTATION = (tools: string, fields = SHORT_IDS) => `spec: openapi.json
output: out
resources:
  task:
    schema: Task
    fields:
      ${fields}
      size: { legend: { 1: small, 2: large } }
tools:
${tools}`;

async function build(spec: object, annotation: string) {
  const dir = tempDir("projector-input-schemas-");
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
  writeFileSync(join(dir, "projector.yaml"), annotation);
  const output = await generateFrom(join(dir, "projector.yaml"));
  const codes = output.diagnostics.map((d) => `${d.severity} ${d.code}`);
  const generated = output.problems.length === 0 ? await importGenerated<Generated>(output.files) : undefined;
  return { codes, diagnostics: output.diagnostics, generated };
}

/** An openapi-fetch client that records each request and answers with `data`. */
function recordingClient(data: unknown) {
  const requests: { method: string; path: string; init: any }[] = [];
  const answer = (method: string) => async (path: string, init: unknown) => {
    requests.push({ method, path, init });
    return { data, response: { ok: true, status: 200 } };
  };
  return { requests, client: { GET: answer("GET"), POST: answer("POST"), PUT: answer("PUT") } };
}

const schemaOf = (generated: Generated | undefined, tool: string) => generated!.toolDefinitions.find((t) => t.name === tool)!.inputSchema;

describe("input schemas from the spec", () => {
  it("takes OpenAPI 3.1 boolean subschemas, keeps array items, and writes 3.0's exclusive bounds as 2020-12's (15, 21, 11)", async () => {
    const body = {
      type: "object",
      properties: { meta: true, never: false, tags: { type: "array", items: true }, codes: { type: "array" } },
    };
    const { codes, generated } = await build(
      specWith(
        {
          "/tasks": {
            get: {
              operationId: "listTasks",
              parameters: [{ name: "limit", in: "query", schema: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 9 } }],
              responses: MANY,
            },
            post: {
              operationId: "createTask",
              requestBody: { required: true, content: { "application/json": { schema: body } } },
              responses: ONE,
            },
          },
        },
        "3.1.0",
      ),
      ANNOTATION("  list_tasks: { operation: listTasks }\n  create_task: { operation: createTask }\n", KEPT),
    );
    expect(codes.filter((c) => c.startsWith("error"))).toEqual([]);
    const create = schemaOf(generated, "create_task");
    expect(create.properties["body"].properties).toEqual({
      codes: { type: "array", items: {} },
      meta: {},
      tags: { type: "array", items: {} },
    });
    const list = schemaOf(generated, "list_tasks");
    expect(list.properties["limit"]).toEqual({ type: "integer", exclusiveMinimum: 0, maximum: 9 });
    const ajv = new Ajv2020({ strict: false });
    for (const definition of generated!.toolDefinitions) expect(ajv.validateSchema(definition.inputSchema), ajv.errorsText()).toBe(true);
    const { requests, client } = recordingClient([]);
    const outcome = await generated!.createTools({ client }).list_tasks!({ limit: 0 });
    expect(outcome.error).toMatch(/limit/);
    expect(requests).toEqual([]);
  });

  it("leaves out, with a warning, a pattern the u flag cannot compile (11)", async () => {
    const { diagnostics, generated } = await build(
      specWith({
        "/tasks": {
          get: {
            operationId: "listTasks",
            parameters: [{ name: "sort", in: "query", schema: { type: "string", pattern: "^[\\w-.]+$" } }],
            responses: MANY,
          },
        },
      }),
      ANNOTATION("  list_tasks: { operation: listTasks }\n", KEPT),
    );
    expect(diagnostics.map((d) => [d.severity, d.code, d.location.line])).toEqual([["warning", "PRJ085", 11]]);
    expect(schemaOf(generated, "list_tasks").properties["sort"]).toEqual({ type: "string" });
  });

  it("merges an allOf body and leaves out readOnly properties, also from required (14)", async () => {
    const { generated } = await build(
      specWith({
        "/tasks": {
          post: {
            operationId: "createTask",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    allOf: [
                      { $ref: "#/components/schemas/Task" },
                      {
                        type: "object",
                        required: ["title"],
                        properties: { title: { type: "string" }, made: { type: "string", readOnly: true } },
                      },
                    ],
                  },
                },
              },
            },
            responses: ONE,
          },
        },
      }),
      ANNOTATION("  create_task: { operation: createTask }\n", KEPT),
    );
    const body = schemaOf(generated, "create_task").properties["body"];
    expect(Object.keys(body.properties)).toEqual(["id", "project_id", "size", "title"]);
    expect(body.required).toEqual(["id", "title"]);
    // readOnly on the record's own id: a PUT body does not ask the model to invent it.
    const { generated: put } = await build(
      {
        ...specWith({
          "/tasks/{id}": {
            put: {
              operationId: "putTask",
              parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
              requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Task" } } } },
              responses: ONE,
            },
          },
        }),
        components: {
          schemas: {
            ...specWith({}).components.schemas,
            Task: { ...RECORD, properties: { ...RECORD.properties, id: { type: "string", readOnly: true } } },
          },
        },
      },
      ANNOTATION("  put_task: { operation: putTask }\n", KEPT),
    );
    const putBody = schemaOf(put, "put_task").properties["body"];
    expect(putBody.required).toEqual([]);
    expect(Object.keys(putBody.properties)).toEqual(["project_id", "size"]);
  });
});

describe("requests send what the model passed", () => {
  const listing = specWith({
    "/tasks": {
      get: {
        operationId: "listTasks",
        parameters: [
          { name: "filter[project_id]", in: "query", schema: { type: "string" } },
          { name: "owner", in: "query", schema: { type: "string", nullable: true } },
          { name: "sizes", in: "query", schema: { type: "array", items: { type: "integer", enum: [1, 2] } } },
          { name: "size", in: "query", schema: { $ref: "#/components/schemas/Size" } },
          { name: "X-Trace", in: "header", required: true, schema: { type: "string" } },
        ],
        responses: MANY,
      },
    },
    "/tasks/{key}": {
      post: {
        operationId: "createTask",
        parameters: [{ name: "key", in: "path", required: true, schema: { type: "string" } }],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  project_id: { type: "string" },
                  size: { $ref: "#/components/schemas/Size" },
                  ["__proto__"]: { $ref: "#/components/schemas/Size" },
                },
              },
            },
          },
        },
        responses: ONE,
      },
      get: {
        operationId: "getTask",
        parameters: [{ name: "key", in: "path", required: true, schema: { type: "string" } }],
        responses: ONE,
      },
    },
  });
  const TASK = "tsk_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
  const PROJECT = "prj_0b7c52de-91a4-4f0e-8d3b-6e2a0c9f4417";
  const tools = `  list_tasks:
    operation: listTasks
    inputs:
      sizes: { legend: { 1: small, 2: large } }
      X-Trace: { fixed: projector }
  get_task: { operation: getTask }
  create_task: { operation: createTask }
`;

  it("takes short ids in query parameters and body properties named like the field and in the only path parameter, and sends them in full (3)", async () => {
    const { codes, generated } = await build(listing, ANNOTATION(tools));
    expect(codes).toEqual([]);
    const { requests, client } = recordingClient([{ id: TASK, project_id: PROJECT, size: 1 }]);
    const created = generated!.createTools({ client });
    const listed = (await created.list_tasks!({})) as { result: { tasks: { id: string; project_id: string }[] } };
    const shown = listed.result.tasks[0]!;
    expect(shown.id).toBe("tsk_9f3a71c4");
    await created.list_tasks!({ filter_project_id: shown.project_id });
    expect(requests.at(-1)!.init.params.query).toEqual({ "filter[project_id]": PROJECT });
    await created.get_task!({ key: shown.id });
    expect(requests.at(-1)!.init.params.path).toEqual({ key: TASK });
    // The project id goes in the body; the one path parameter, a task's key, is not taken for it.
    await created.create_task!({ key: shown.project_id, body: { project_id: shown.project_id } });
    expect(requests.at(-1)!.init.body).toEqual({ project_id: PROJECT });
    expect(requests.at(-1)!.init.params.path).toEqual({ key: shown.project_id });
  });

  it("takes no null in a URL parameter, sends lists of codes for lists of words and codes for body words, and uses the words results show (6, 13, 14, 18)", async () => {
    const { generated } = await build(listing, ANNOTATION(tools));
    const schema = schemaOf(generated, "list_tasks");
    expect(schema.properties["owner"]).toEqual({ type: "string" });
    expect(schema.properties["sizes"]).toEqual({ type: "array", items: { type: "string", enum: ["small", "large"] } });
    // The field's legend says "small", the spec's x-enum-varnames "SIZE_SMALL": the tool takes what results show.
    expect(schema.properties["size"]).toEqual({ type: "string", enum: ["small", "large"] });
    const { requests, client } = recordingClient([]);
    const created = generated!.createTools({ client });
    expect((await created.list_tasks!({ owner: null })).error).toMatch(/owner/);
    expect(requests).toEqual([]);
    await created.list_tasks!({ sizes: ["large", "small"], size: "large" });
    expect(requests.at(-1)!.init.params.query).toEqual({ sizes: [2, 1], size: 2 });
    // A body property of a schema with a legend takes the words too (14).
    expect(schemaOf(generated, "create_task").properties["body"].properties["size"]).toEqual({ type: "string", enum: ["small", "large"] });
    await created.create_task!({ key: "k", body: JSON.parse('{ "size": "small", "__proto__": "large" }') });
    const sent = requests.at(-1)!.init.body;
    expect(sent.size).toBe(1);
    // A property named __proto__ is a property like any other, in the schema and in the request.
    expect(Object.getOwnPropertyDescriptor(sent, "__proto__")?.value).toBe(2);
    const bodySchema = schemaOf(generated, "create_task").properties["body"];
    expect(Object.getOwnPropertyDescriptor(bodySchema.properties, "__proto__")?.value).toEqual({
      type: "string",
      enum: ["small", "large"],
    });
  });

  it("sends a header given a fixed value (26)", async () => {
    const { generated } = await build(listing, ANNOTATION(tools));
    const { requests, client } = recordingClient([]);
    await generated!.createTools({ client }).list_tasks!({});
    expect(requests.at(-1)!.init.params.header).toEqual({ "X-Trace": "projector" });
  });
});

describe("operations a tool cannot call as the spec says", () => {
  const pathItem = (path: string, operation: object) => specWith({ [path]: operation });
  const getTask = (parameters: object[], extra: object = {}) => ({ get: { operationId: "getTask", parameters, responses: ONE, ...extra } });
  const cases: { why: string; spec: object; tools?: string; expected: string[] }[] = [
    {
      why: "a path {name} the operation does not declare would be sent as written (7)",
      spec: pathItem(
        "/projects/{project_id}/tasks/{id}",
        getTask([{ name: "project_id", in: "path", required: true, schema: { type: "string" } }]),
      ),
      expected: ["error PRJ080"],
    },
    {
      why: "a declared path parameter missing from the path is left out (7)",
      spec: pathItem(
        "/tasks/{id}",
        getTask([
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "ghost", in: "path", required: true, schema: { type: "string" } },
        ]),
      ),
      expected: ["warning PRJ081"],
    },
    {
      why: "a required header the tool does not send (8)",
      spec: pathItem(
        "/tasks/{id}",
        getTask([
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "X-Tenant", in: "header", required: true, schema: { type: "string" } },
          // OpenAPI says to ignore these three: the client sets them.
          { name: "Authorization", in: "header", required: true, schema: { type: "string" } },
        ]),
      ),
      expected: ["warning PRJ082"],
    },
    {
      why: "a required multipart body (8)",
      spec: pathItem("/tasks/{id}", {
        post: {
          operationId: "getTask",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object" } } } },
          responses: ONE,
        },
      }),
      expected: ["error PRJ083"],
    },
    {
      why: "a tool name the function-calling APIs refuse (20)",
      spec: pathItem("/tasks/{id}", getTask([{ name: "id", in: "path", required: true, schema: { type: "string" } }])),
      tools: '  "get task": { operation: getTask }\n',
      // The resource's `argument: [get_task]` is a space away from the tool's name.
      expected: ["warning PRJ092", "warning PRJ084"],
    },
    {
      why: "a header named in inputs without a fixed value (26)",
      spec: pathItem(
        "/tasks/{id}",
        getTask([
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "X-Trace", in: "header", schema: { type: "string" } },
        ]),
      ),
      tools: "  get_task:\n    operation: getTask\n    inputs:\n      X-Trace: { as: trace }\n",
      expected: ["error PRJ071"],
    },
    {
      why: "a short-id field names the tool, but no parameter takes the id (3)",
      spec: pathItem("/tasks", {
        get: { operationId: "getTask", parameters: [{ name: "q", in: "query", schema: { type: "string" } }], responses: ONE },
      }),
      expected: ["warning PRJ086"],
    },
  ];
  it.each(cases)("$why", async ({ spec, tools, expected }) => {
    const { codes, diagnostics } = await build(
      spec,
      ANNOTATION(
        tools ?? "  get_task: { operation: getTask }\n",
        "id: { argument: [get_task], shorten: true }\n      project_id: { drop: not here }",
      ),
    );
    expect(codes).toEqual(expected);
    for (const d of diagnostics) {
      expect(d.location.line, d.message).toBeGreaterThan(0);
      expect(d.help).not.toBe("");
    }
  });
});
