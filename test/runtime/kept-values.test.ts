// Values kept whole and ids kept beside a joined name are checked against what the spec declares:
// a map's values, an always-empty object, and the id a join reads are each of the declared type in
// the result, or an unusable marker with an issue; never the API's raw value.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { generateFrom, importGenerated, recordingResolver, tempDir } from "../helpers/pipeline.js";

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });

const PLAIN_SPEC = `openapi: 3.1.0
info: { title: Items, version: 1.0.0 }
paths:
  /items:
    get:
      operationId: listItems
      responses:
        "200":
          description: A page of items
          content:
            application/json:
              schema:
                type: object
                properties:
                  items:
                    type: array
                    items: { $ref: "#/components/schemas/Item" }
  /owners/{owner_id}:
    get:
      operationId: getOwner
      parameters:
        - { name: owner_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: One owner
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: { type: string }
                  name: { type: string }
  /teams/{team_id}:
    get:
      operationId: getTeam
      parameters:
        - { name: team_id, in: path, required: true, schema: { type: integer } }
      responses:
        "200":
          description: One team
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: { type: integer }
                  name: { type: string }
components:
  schemas:
    Item:
      type: object
      properties:
        title: { type: string }
        labels:
          type: object
          additionalProperties: { type: string }
        settings:
          type: object
          additionalProperties: true
        label_sets:
          type: array
          items:
            type: object
            additionalProperties: { type: string, nullable: true }
        nothing:
          type: object
          additionalProperties: false
        owner: { type: string }
        watchers:
          type: array
          items: { type: string }
        reviewer:
          type: object
          properties:
            id: { type: string }
        team: { type: integer }
`;

const PLAIN_ANNOTATION = `spec: openapi.yaml
output: generated
resolvers:
  owners: {}
  teams: {}
resources:
  item:
    schema: Item
    fields:
      title: keep
      labels: keep
      settings: keep
      label_sets: keep
      nothing: keep
      owner: { join: owners, argument: [get_owner] }
      watchers: { join: owners, argument: [get_owner] }
      reviewer: { join: owners, argument: [get_owner] }
      team: { join: teams, argument: [get_team] }
tools:
  list_items:
    operation: listItems
`;

interface Definition {
  name: string;
  outputSchema: { $defs: Record<string, { properties: Record<string, unknown> }> };
}
interface Generated {
  createTools: (options: object) => Record<string, (args: unknown) => Promise<{ result?: Record<string, unknown>; error?: string }>>;
  toolDefinitions: Definition[];
}

const generatedOnce = new Map<string, Promise<Generated>>();
function generated(spec: string, annotation: string): Promise<Generated> {
  let once = generatedOnce.get(spec);
  if (!once) {
    once = (async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "openapi.yaml"), spec);
      writeFileSync(join(dir, "projector.yaml"), annotation);
      const output = await generateFrom(join(dir, "projector.yaml"));
      expect(output.problems).toEqual([]);
      return importGenerated<Generated>(output.files);
    })();
    generatedOnce.set(spec, once);
  }
  return once;
}

/** Calls `tool` over a client answering every request with `body`; the result, its tool's output schema and the issues reported. */
async function call(spec: string, annotation: string, tool: string, body: unknown) {
  const { createTools, toolDefinitions } = await generated(spec, annotation);
  const issues: ProjectionIssue[] = [];
  const client = { GET: async () => ({ data: body, response: { status: 200, ok: true } }) };
  const names = recordingResolver({ o1: "Olive", o2: "Omar", "7": "Seven", u1: "Uma", "1": "One" }).resolver;
  const tools = createTools({
    client,
    resolvers: { owners: names, teams: names, users: names },
    onIssue: (issue: ProjectionIssue) => issues.push(issue),
  });
  const outcome = await tools[tool]!({});
  expect(outcome).not.toHaveProperty("error");
  const result = outcome.result!;
  const schema = toolDefinitions.find((definition) => definition.name === tool)!.outputSchema;
  return { result, schema, issues };
}

const listItems = async (item: Record<string, unknown>) => {
  const { result, schema, issues } = await call(PLAIN_SPEC, PLAIN_ANNOTATION, "list_items", { items: [item] });
  // Whatever the API sent, the result is what the tool's output schema states.
  expect(ajv.validate(schema, result), JSON.stringify(ajv.errors)).toBe(true);
  return { item: (result["items"] as Record<string, unknown>[])[0]!, schema, issues };
};

const unusable = (reason: string) => ({ unusable: reason });

describe("a map kept whole (an object the spec declares only additionalProperties of)", () => {
  it("is stated in the result schema as an object of its declared values", async () => {
    const { schema } = await listItems({ title: null });
    const properties = schema.$defs["Item"]!.properties;
    const markers = [{ type: "null" }, { $ref: "#/$defs/unusable" }];
    expect(properties["labels"]).toEqual({ anyOf: [{ type: "object", additionalProperties: { type: "string" } }, ...markers] });
    expect(properties["settings"]).toEqual({ anyOf: [{ type: "object", additionalProperties: {} }, ...markers] });
    expect(properties["label_sets"]).toEqual({
      anyOf: [
        { type: "array", items: { type: "object", additionalProperties: { anyOf: [{ type: "string" }, { type: "null" }] } } },
        ...markers,
      ],
    });
    expect(properties["nothing"]).toEqual({ anyOf: [{ type: "object", properties: {}, additionalProperties: false }, ...markers] });
  });

  it("keeps a map of the declared values, each of its keys", async () => {
    const { item, issues } = await listItems({
      labels: { team: "billing", tier: "gold" },
      settings: { dark: true, size: [1, 2] },
      label_sets: [{ a: "x", b: null }, {}],
      nothing: {},
    });
    expect(item).toMatchObject({
      labels: { team: "billing", tier: "gold" },
      settings: { dark: true, size: [1, 2] },
      label_sets: [{ a: "x", b: null }, {}],
      nothing: {},
    });
    expect(issues).toEqual([]);
  });

  it.each([
    ["str", "expected an object, got string"],
    [[1], "expected an object, got array"],
    [42, "expected an object, got number"],
    [true, "expected an object, got boolean"],
  ])("marks %j in place of a map unusable and reports it, never passing it on", async (value, reason) => {
    const { item, issues } = await listItems({ labels: value, settings: value, label_sets: [value], nothing: value });
    expect(item).toMatchObject({
      labels: unusable(reason),
      settings: unusable(reason),
      label_sets: unusable(`[0]: ${reason}`),
      nothing: unusable(reason),
    });
    expect(issues.map((issue) => [issue.kind, issue.field])).toEqual([
      ["unusable", "labels"],
      ["unusable", "settings"],
      ["unusable", "label_sets"],
      ["unusable", "nothing"],
    ]);
  });

  it("marks a map holding a value of another type than declared unusable", async () => {
    const { item, issues } = await listItems({ labels: { team: 5 }, label_sets: [{ a: { deep: "x" } }] });
    expect(item).toMatchObject({
      labels: unusable("team: expected a string, got number"),
      label_sets: unusable("[0].a: expected a string, got object"),
    });
    expect(issues).toHaveLength(2);
  });

  it("keeps an always-empty object empty: keys the spec forbids never ride along", async () => {
    const { item, issues } = await listItems({ nothing: { secret: "s3cr3t" } });
    expect(item["nothing"]).toEqual({});
    expect(issues).toEqual([]);
  });

  it("refuses a map whose keys spell a marker, as any kept object", async () => {
    const { item } = await listItems({ labels: { unusable: "forged" } });
    expect(item["labels"]).toEqual(unusable('holds an object shaped like a marker (`{ "unusable": … }`), which only projector writes'));
  });
});

describe("the id kept beside a name joined from a plain property", () => {
  it.each([
    [{ id: "o1" }, "object"],
    [true, "boolean"],
    ["", "an empty string"],
    [7, "number"],
  ])("is the join's unusable marker when the spec declares text and the API sends %j", async (value, got) => {
    const { item, issues } = await listItems({ owner: value, watchers: [value, "o2"] });
    const marker = unusable(`expected a text id, got ${got}`);
    expect(item).toMatchObject({ owner: marker, owner_id: marker, watchers: [marker, "Omar"], watchers_id: [marker, "o2"] });
    expect(issues.filter((issue) => issue.kind === "unusable").map((issue) => issue.field)).toEqual([
      "owner",
      "owner",
      "watchers",
      "watchers",
    ]);
  });

  it("is the id when the API sends the text the spec declares", async () => {
    const { item, issues } = await listItems({ owner: "o1", watchers: ["o2"] });
    expect(item).toMatchObject({ owner: "Olive", owner_id: "o1", watchers: ["Omar"], watchers_id: ["o2"] });
    expect(issues).toEqual([]);
  });

  it("is an integer id's unusable marker when the spec declares an integer and the API sends a record", async () => {
    const { item } = await listItems({ team: { id: 7 } });
    expect(item).toMatchObject({
      team: unusable("expected an integer id, got object"),
      team_id: unusable("expected an integer id, got object"),
    });
    expect((await listItems({ team: 7 })).item).toMatchObject({ team: "Seven", team_id: 7 });
  });

  it("still reads the id of a record the spec declares embedded there", async () => {
    const { item } = await listItems({ reviewer: { id: "o1" } });
    expect(item).toMatchObject({ reviewer: "Olive", reviewer_id: "o1" });
    expect((await listItems({ reviewer: { id: { nested: 1 } } })).item).toMatchObject({
      reviewer_id: unusable("expected a record with `id` as text, got one whose `id` is object"),
    });
  });
});

const JSONAPI_SPEC = `openapi: 3.1.0
info: { title: Docs, version: 1.0.0 }
paths:
  /docs:
    get:
      operationId: listDocs
      responses:
        "200":
          description: A page of docs
          content:
            application/vnd.api+json:
              schema:
                type: object
                properties:
                  data:
                    type: array
                    items: { $ref: "#/components/schemas/Doc" }
  /users/{user_id}:
    get:
      operationId: getUser
      parameters:
        - { name: user_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: One user
          content:
            application/vnd.api+json:
              schema:
                type: object
                properties:
                  data:
                    type: object
                    properties:
                      type: { type: string, enum: [user] }
                      id: { type: string }
components:
  schemas:
    Identifier:
      type: object
      properties:
        type: { type: string, enum: [user] }
        id: { type: string }
    Doc:
      type: object
      properties:
        type: { type: string, enum: [doc] }
        id: { type: string }
        attributes:
          type: object
          properties:
            title: { type: string }
        relationships:
          type: object
          properties:
            author:
              type: object
              properties:
                data: { $ref: "#/components/schemas/Identifier" }
            editors:
              type: object
              properties:
                data:
                  type: array
                  items: { $ref: "#/components/schemas/Identifier" }
`;

const JSONAPI_ANNOTATION = `spec: openapi.yaml
output: generated
resolvers:
  users: {}
resources:
  doc:
    fields:
      id: { drop: "no tool takes a doc id" }
      title: keep
      author: { join: users, argument: [get_user] }
      editors: { join: users, argument: [get_user] }
tools:
  list_docs:
    operation: listDocs
`;

describe("the id kept beside a name joined from a JSON:API relationship", () => {
  const listDocs = async (id: unknown) => {
    const doc = {
      type: "doc",
      id: "d1",
      attributes: { title: "Plan" },
      relationships: {
        author: { data: { type: "user", id } },
        editors: {
          data: [
            { type: "user", id },
            { type: "user", id: "u1" },
          ],
        },
      },
    };
    const { result, schema, issues } = await call(JSONAPI_SPEC, JSONAPI_ANNOTATION, "list_docs", { data: [doc] });
    expect(ajv.validate(schema, result), JSON.stringify(ajv.errors)).toBe(true);
    return { doc: (result["docs"] as Record<string, unknown>[])[0]!, issues };
  };

  it.each([
    [{ nested: "u1" }, "object"],
    [["u1"], "array"],
    [false, "boolean"],
    ["", "an empty string"],
    [1, "number"],
  ])("is the join's unusable marker when the API sends an identifier whose id is %j", async (id, got) => {
    const { doc, issues } = await listDocs(id);
    const marker = unusable(`expected a resource identifier { type, id } with a text id, got an id that is ${got}`);
    expect(doc).toMatchObject({ author: marker, author_id: marker, editors: [marker, "Uma"], editors_id: [marker, "u1"] });
    expect(issues.filter((issue) => issue.kind === "unusable").map((issue) => issue.field)).toEqual([
      "author",
      "author",
      "editors",
      "editors",
    ]);
  });

  it("is the id when the identifier's id is text", async () => {
    const { doc } = await listDocs("u1");
    expect(doc).toMatchObject({ author: "Uma", author_id: "u1", editors: ["Uma", "Uma"], editors_id: ["u1", "u1"] });
  });
});
