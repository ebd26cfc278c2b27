// A request body takes only the members its schema names, unless the spec says otherwise; and every
// result a tool answers over MCP is structured content its outputSchema describes, a missing record too.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalApi, startLocalApi } from "../helpers/local-api.js";
import { generateFrom, importGenerated, REAL_SPECS, ROOT, tempDir } from "../helpers/pipeline.js";

type Outcome = { result?: unknown; text?: string; error?: string };
type Tool = (args: unknown) => Promise<Outcome>;
type Definition = { name: string; inputSchema: any; outputSchema: any };
type Generated = {
  toolDefinitions: Definition[];
  createTools: (options: { client: unknown }) => Record<string, Tool>;
  registerTools: (server: object, tools: Record<string, Tool>, schemas: object) => void;
  getUserOutputSchema: object;
};

const SPEC = `openapi: 3.0.3
info: { title: Desk, version: "1" }
paths:
  /comments:
    post:
      operationId: createComment
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: "#/components/schemas/NewComment" } } }
      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Comment" } } } } }
  /comments/{comment_id}:
    put:
      operationId: replaceComment
      parameters: [{ name: comment_id, in: path, required: true, schema: { type: string } }]
      requestBody:
        content:
          application/json:
            schema:
              allOf:
                - $ref: "#/components/schemas/NewComment"
                - { type: object, properties: { pinned: { type: boolean } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Comment" } } } } }
    patch:
      operationId: tagComment
      parameters: [{ name: comment_id, in: path, required: true, schema: { type: string } }]
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { subject: { type: string } }, additionalProperties: true }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Comment" } } } } }
  /comments/{comment_id}/reactions:
    post:
      operationId: reactToComment
      parameters: [{ name: comment_id, in: path, required: true, schema: { type: string } }]
      requestBody:
        content:
          application/json:
            schema:
              oneOf:
                - { type: object, properties: { emoji: { type: string } } }
                - { type: object, properties: { text: { type: string } } }
      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Comment" } } } } }
  /comments/{comment_id}/author:
    get:
      operationId: getCommentAuthor
      parameters: [{ name: comment_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the author, or null where the comment has none
          content: { application/json: { schema: { nullable: true, allOf: [{ $ref: "#/components/schemas/User" }] } } }
components:
  schemas:
    NewComment:
      type: object
      required: [subject]
      properties:
        subject: { type: string }
        author: { type: object, properties: { name: { type: string } } }
        labels: { type: array, items: { type: object, properties: { key: { type: string } } } }
        extras: { type: object }
        parent: { $ref: "#/components/schemas/CommentReference" }
    CommentReference:
      allOf:
        - { type: object, properties: { id: { type: string, readOnly: true }, url: { type: string, readOnly: true } } }
        - { type: object, required: [id], properties: { type: { type: string } } }
    Comment: { type: object, properties: { id: { type: string }, subject: { type: string } } }
    User: { type: object, properties: { id: { type: string }, name: { type: string } } }
`;

const ANNOTATION = `spec: openapi.yaml
output: out
resources:
  comment: { schema: Comment, fields: { id: { argument: [replace_comment, tag_comment, react_to_comment] }, subject: keep } }
  user: { schema: User, fields: { id: { drop: not shown }, name: keep } }
tools:
  create_comment: { operation: createComment }
  replace_comment: { operation: replaceComment }
  tag_comment: { operation: tagComment }
  react_to_comment: { operation: reactToComment }
  get_user: { operation: getCommentAuthor }
`;

let generated: Generated;
let api: LocalApi;
let tools: Record<string, Tool>;

beforeAll(async () => {
  const dir = tempDir("projector-body-members-");
  writeFileSync(join(dir, "openapi.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  generated = await importGenerated<Generated>(output.files);
  api = await startLocalApi();
  api.answer = ({ path }) =>
    path.endsWith("/author")
      ? { text: path.includes("c_orphan") ? "null" : JSON.stringify({ id: "u1", name: "Ann" }) }
      : { text: JSON.stringify({ id: "c1", subject: "Hello" }) };
  tools = generated.createTools({ client: createClient({ baseUrl: api.baseUrl }) });
});

afterAll(() => api?.close());

const bodySchema = (tool: string) => generated.toolDefinitions.find((d) => d.name === tool)!.inputSchema.properties["body"];

/** What the tool answers, and whether it sent a request. */
async function call(tool: string, args: object) {
  const before = api.requests.length;
  const outcome = await tools[tool]!(args);
  return { ...outcome, sent: api.requests.length > before };
}

describe("a request body whose schema leaves additionalProperties unsaid", () => {
  it("is closed in the input schema, with the objects nested in it, so the model is told", () => {
    const body = bodySchema("create_comment");
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.author.additionalProperties).toBe(false);
    expect(body.properties.labels.items.additionalProperties).toBe(false);
    // An object naming no properties is a free map, as OpenAPI reads it.
    expect(body.properties.extras).toEqual({ type: "object" });
    const ajv = new Ajv2020({ strict: false });
    for (const definition of generated.toolDefinitions) expect(ajv.validateSchema(definition.inputSchema), ajv.errorsText()).toBe(true);
  });

  it("refuses a member the schema does not name, at the top and nested, and sends nothing", async () => {
    expect(await call("create_comment", { body: { subject: "x", is_admin: true } })).toEqual({
      error: "create_comment: bad arguments: body.is_admin is not an argument here; accepted: author, extras, labels, parent, subject",
      sent: false,
    });
    expect((await call("create_comment", { body: { subject: "x", author: { name: "a", role: "owner" } } })).error).toBe(
      "create_comment: bad arguments: body.author.role is not an argument here; accepted: name",
    );
    expect((await call("create_comment", { body: { subject: "x", labels: [{ key: "k", owner: "u1" }] } })).error).toBe(
      "create_comment: bad arguments: body.labels[0].owner is not an argument here; accepted: key",
    );
  });

  it("still sends the members it names, and any member of a free map", async () => {
    const outcome = await call("create_comment", { body: { subject: "x", author: { name: "a" }, extras: { anything: 1 } } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.sent).toBe(true);
  });

  it("takes the properties of every allOf part together, and refuses any other", async () => {
    expect(bodySchema("replace_comment").additionalProperties).toBe(false);
    const merged = await call("replace_comment", { comment_id: "c1", body: { subject: "x", pinned: true } });
    expect(merged.error).toBeUndefined();
    expect(merged.sent).toBe(true);
    expect((await call("replace_comment", { comment_id: "c1", body: { subject: "x", is_admin: true } })).error).toBe(
      "replace_comment: bad arguments: body.is_admin is not an argument here; accepted: author, extras, labels, parent, pinned, subject",
    );
  });
});

describe("a request body whose spec says what it takes beyond its properties, or is a union", () => {
  it("is left open where a readOnly property was left out, which the spec may yet ask for", async () => {
    expect(bodySchema("create_comment").properties.parent.additionalProperties).toBeUndefined();
    const outcome = await call("create_comment", { body: { subject: "x", parent: { id: "c0", type: "comment" } } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.sent).toBe(true);
  });

  it("is taken at its word where additionalProperties is declared", async () => {
    expect(bodySchema("tag_comment").additionalProperties).toBeUndefined();
    const outcome = await call("tag_comment", { comment_id: "c1", body: { subject: "x", colour: "red" } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.sent).toBe(true);
  });

  it("leaves oneOf branches open, since a body may merge them", async () => {
    const body = bodySchema("react_to_comment");
    expect(body.additionalProperties).toBeUndefined();
    expect(body.anyOf.map((branch: { additionalProperties?: unknown }) => branch.additionalProperties)).toEqual([undefined, undefined]);
    const outcome = await call("react_to_comment", { comment_id: "c1", body: { emoji: "+1", text: "nice" } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.sent).toBe(true);
  });
});

describe("a single-record tool whose record the spec lets be null", () => {
  it("answers an object under the resource's name, record or null, which its outputSchema describes", async () => {
    expect(await tools["get_user"]!({ comment_id: "c_orphan" })).toEqual({ result: { user: null }, text: '{"user":null}' });
    expect((await tools["get_user"]!({ comment_id: "c1" })).result).toEqual({ user: { name: "Ann" } });
    const ajv = new Ajv2020({ strict: false });
    const valid = ajv.compile(generated.getUserOutputSchema);
    expect(valid({ user: null }), ajv.errorsText(valid.errors)).toBe(true);
    expect(valid({ user: { name: "Ann" } }), ajv.errorsText(valid.errors)).toBe(true);
  });

  it("passes the MCP SDK client's structuredContent check, with and without a record", async () => {
    const server = new Server({ name: "desk", version: "1" }, { capabilities: { tools: {} } });
    generated.registerTools(server, tools, { ListToolsRequestSchema, CallToolRequestSchema });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new McpClient({ name: "model", version: "1" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    await client.listTools();
    const none = await client.callTool({ name: "get_user", arguments: { comment_id: "c_orphan" } });
    const some = await client.callTool({ name: "get_user", arguments: { comment_id: "c1" } });
    await client.close();
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent).toEqual({ user: null });
    expect(some.structuredContent).toEqual({ user: { name: "Ann" } });
  });
});

/** Real specs' typical annotations, each with tools that send a request body added. */
const REAL_BODY_TOOLS = [
  { annotation: "box", spec: "box_openapi.json", operations: ["post_folders", "put_files_id", "post_tasks", "post_sign_requests"] },
  {
    annotation: "pagerduty",
    spec: "pagerduty_rest_openapiv3.json",
    operations: ["createMaintenanceWindow", "createWebhookSubscription", "updateRuleset", "postIncidentWorkflow"],
  },
];

describe.skipIf(!existsSync(REAL_SPECS))("request bodies of real specs", () => {
  it.each(REAL_BODY_TOOLS)(
    "$annotation: generate, and every input schema is valid JSON Schema, the bodies closed where unsaid",
    async (real) => {
      const dir = tempDir("projector-real-bodies-");
      const typical = readFileSync(join(ROOT, "test/bench/typical", `${real.annotation}.yaml`), "utf8");
      const tools = real.operations.map((operation) => `  send_${operation.toLowerCase()}:\n    operation: ${operation}\n`).join("");
      writeFileSync(
        join(dir, "projector.yaml"),
        typical.replace(/^spec: .*$/m, `spec: ${JSON.stringify(join(REAL_SPECS, real.spec))}`).replace(/\n?$/, "\n") + tools,
      );
      const output = await generateFrom(join(dir, "projector.yaml"));
      expect(output.problems).toEqual([]);
      const { toolDefinitions } = await importGenerated<Generated>(output.files);
      const ajv = new Ajv2020({ strict: false });
      for (const definition of toolDefinitions) expect(ajv.validateSchema(definition.inputSchema), ajv.errorsText()).toBe(true);
      const bodies = toolDefinitions.flatMap((d) => (d.name.startsWith("send_") ? [d.inputSchema.properties["body"]] : []));
      expect(bodies).toHaveLength(real.operations.length);
      expect(bodies.filter((body) => body?.additionalProperties === false).length).toBeGreaterThan(0);
    },
    120_000,
  );
});
