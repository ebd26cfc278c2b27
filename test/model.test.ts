// Unit cases for reading a spec and an annotation into the model, without touching the disk.
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../src/annotation/parse.js";
import { buildModel } from "../src/model/build.js";
import type { LoadedSpec } from "../src/openapi/load.js";
import type { JsonObject } from "../src/openapi/schema.js";

const spec = (
  schemas: JsonObject,
  response: JsonObject = { $ref: "#/components/schemas/Page" },
  mediaType = "application/vnd.api+json",
): LoadedSpec => ({
  file: "spec.yaml",
  document: {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/things": {
        get: { operationId: "listThings", responses: { "200": { description: "ok", content: { [mediaType]: { schema: response } } } } },
      },
    },
    components: { schemas },
  },
  locate: (pointer) => ({ file: "spec.yaml", pointer }),
});

const page = { type: "object", properties: { data: { type: "array", items: { $ref: "#/components/schemas/Thing" } } } };

function build(document: LoadedSpec, annotation: string) {
  const { model, diagnostics } = buildModel(parseAnnotation(annotation, "projector.yaml"), document);
  return { model, errors: diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`), diagnostics };
}

const thingAnnotation = (extra = "", fields = "      id: { argument: [get_thing] }\n      name: keep\n") =>
  `spec: spec.yaml\noutput: out\nresources:\n  thing:\n    fields:\n${fields}tools:\n  list_things:\n    operation: listThings\n${extra}`;

describe("finding a tool's records", () => {
  it.each([
    ["an enum", { type: "string", enum: ["thing"] }],
    ["a const", { type: "string", const: "thing" }],
    ["a default", { type: "string", default: "thing" }],
  ])("names a JSON:API resource from its type's %s", (_, type) => {
    const document = spec({
      Page: page,
      Thing: {
        type: "object",
        properties: { type, id: { type: "string" }, attributes: { type: "object", properties: { name: { type: "string" } } } },
      },
    });
    const { model, errors } = build(document, thingAnnotation());
    expect(errors).toEqual([]);
    expect(model!.tools[0]).toMatchObject({ name: "list_things", many: true, rowsPath: ["data"], jsonapi: true, list: "things" });
  });

  it("asks for `resource:` when the type does not say its kind (an example is not trusted), and takes it", () => {
    const document = spec({
      Page: page,
      Thing: {
        type: "object",
        properties: {
          type: { type: "string", example: "tracks" },
          id: { type: "string" },
          attributes: { type: "object", properties: { name: { type: "string" } } },
        },
      },
    });
    const missing = build(document, thingAnnotation());
    expect(missing.errors).toEqual(["PRJ012 tool list_things: cannot tell which resource its records are"]);
    expect(build(document, thingAnnotation("    resource: thing\n")).errors).toEqual([]);
  });

  it("merges allOf compositions and accepts an explicit drop of the envelope", () => {
    const document = spec({
      Page: page,
      Identifier: {
        type: "object",
        required: ["id", "type"],
        properties: { id: { type: "string" }, type: { type: "string", enum: ["thing"] } },
      },
      Thing: {
        allOf: [
          { $ref: "#/components/schemas/Identifier" },
          {
            type: "object",
            properties: { attributes: { type: "object", properties: { name: { type: "string" } } }, links: { type: "object" } },
          },
        ],
      },
    });
    const { model, errors } = build(
      document,
      thingAnnotation("", '      id: { argument: [get_thing] }\n      name: keep\n      links: { drop: "envelope" }\n'),
    );
    expect(errors).toEqual([]);
    expect(model!.resources[0]!.fields.map((f) => f.out)).toEqual(["id", "name"]);
  });

  it("reads plain-REST rows from the one array property, with page fields", () => {
    const document = spec(
      { Thing: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } },
      {
        type: "object",
        properties: {
          things: { type: "array", items: { $ref: "#/components/schemas/Thing" } },
          total: { type: "integer" },
          more: { type: "boolean" },
        },
      },
      "application/json",
    );
    const annotation = thingAnnotation("    page: { total: total, more: more }\n").replace("  thing:\n", "  thing:\n    schema: Thing\n");
    const { model, errors } = build(document, annotation);
    expect(errors).toEqual([]);
    expect(model!.tools[0]).toMatchObject({ jsonapi: false, rowsPath: ["things"], many: true });
    // In the annotation's order: the author of the page map decides what the model reads first.
    expect(model!.tools[0]!.page).toEqual([
      { key: "total", path: ["total"], mode: "value", shape: { type: "integer" } },
      { key: "more", path: ["more"], mode: "value", shape: { type: "boolean" } },
    ]);
  });

  it("treats a 3.0 `nullable` to-one relationship as to-one and a data array as to-many", () => {
    const relationship = (data: JsonObject) => ({ type: "object", properties: { data } });
    const identifier = { type: "object", properties: { id: { type: "string" }, type: { type: "string" } } };
    const document = spec({
      Page: page,
      Thing: {
        type: "object",
        properties: {
          type: { type: "string", enum: ["thing"] },
          id: { type: "string" },
          relationships: {
            type: "object",
            properties: {
              owner: relationship({ allOf: [identifier], nullable: true }),
              tags: relationship({ type: "array", items: identifier }),
            },
          },
        },
      },
    });
    const annotation = `spec: spec.yaml\noutput: out\nresolvers:\n  people: {}\n  tags: {}\nresources:\n  thing:\n    fields:\n      id: { argument: [get_thing] }\n      owner: { join: people }\n      tags: { join: tags }\ntools:\n  list_things:\n    operation: listThings\n`;
    const { model, errors } = build(document, annotation);
    expect(errors).toEqual([]);
    expect(model!.resources[0]!.fields.map((f) => [f.out, f.kind === "join" && f.many])).toEqual([
      ["id", false],
      ["owner", false],
      ["tags", true],
    ]);
  });

  it("refuses a tool whose data mixes resource types", () => {
    const variant = (kind: string) => ({
      type: "object",
      properties: { type: { type: "string", enum: [kind] }, id: { type: "string" }, attributes: { type: "object" } },
    });
    const document = spec({
      Page: { type: "object", properties: { data: { type: "array", items: { oneOf: [variant("a"), variant("b")] } } } },
    });
    expect(build(document, thingAnnotation()).errors).toEqual(["PRJ012 tool list_things: its data mixes several resource types (a, b)"]);
  });
});

describe("classifying fields", () => {
  const order = {
    type: "object",
    properties: {
      id: { type: "string" },
      amount: { type: "number" },
      placed: { type: "integer", description: "unix seconds" },
      stage: { type: "string", enum: ["IN_PROGRESS", "DONE"], "x-enum-varnames": ["IN_PROGRESS", "DONE"] },
      sales_rep: { type: "object", properties: { id: { type: "string" }, type: { type: "string" }, summary: { type: "string" } } },
      contact: { type: "object", properties: { email: { type: "string" }, phone: { type: "string" } } },
    },
  };
  const document = spec({ Order: order }, { type: "array", items: { $ref: "#/components/schemas/Order" } }, "application/json");
  const annotate = (fields: Record<string, string>) =>
    `spec: spec.yaml\noutput: out\nresolvers:\n  reps: {}\nresources:\n  order:\n    schema: Order\n    fields:\n${Object.entries({
      id: "{ argument: [get_order] }",
      amount: "keep",
      placed: "{ format: date }",
      stage: "{ legend: spec }",
      sales_rep: "{ join: reps }",
      "contact.email": "keep",
      "contact.phone": '{ drop: "never needed" }',
      ...fields,
    })
      .map(([k, v]) => `      ${k}: ${v}\n`)
      .join("")}tools:\n  list_orders:\n    operation: listThings\n`;

  it("accepts the reference annotation, reads constant names as words and lists nested drops", () => {
    const { model, errors } = build(document, annotate({}));
    expect(errors).toEqual([]);
    const fields = model!.resources[0]!.fields;
    const stage = fields.find((f) => f.out === "stage")!;
    expect(stage.kind === "value" && stage.legend).toEqual({
      kind: "static",
      entries: [
        ["IN_PROGRESS", "in progress"],
        ["DONE", "done"],
      ],
    });
    expect(model!.resources[0]!.dropped).toEqual([{ name: "contact.phone", reason: "never needed" }]);
    expect(fields.find((f) => f.out === "placed")!.description).toBe("Date, YYYY-MM-DD, in UTC.");
  });

  it.each([
    [
      "a date format on a float",
      { amount: "{ format: date }" },
      "PRJ029 order.amount: format date applies to date-time strings or integer epoch timestamps, not number",
    ],
    [
      "an object with an id kept whole",
      { sales_rep: "keep" },
      "PRJ022 order.sales_rep: kept whole, this object would carry `sales_rep.id`, an opaque id",
    ],
    ["an object kept whole and by its parts", { contact: "keep" }, "PRJ030 order.contact is classified both whole and by its parts"],
    [
      "a fact that is also joined",
      { sales_rep: '{ join: reps, fact: "quoted" }' },
      "PRJ029 order.sales_rep: a fact is kept as it is; `join` says otherwise",
    ],
    ["an id kept as a plain value", { id: "keep" }, "PRJ022 order.id: an id is kept only as an argument to a tool or as a join key"],
  ])("refuses %s", (_, fields, expected) => {
    expect(build(document, annotate(fields)).errors).toEqual([expected]);
  });

  it("keeps a number named like an id as a fact when the annotation says why", () => {
    const { model, errors } = build(document, annotate({ id: '{ as: order_number, fact: "people quote order numbers" }' }));
    expect(errors).toEqual([]);
    expect(model!.resources[0]!.fields.find((f) => f.name === "id")).toMatchObject({
      kind: "value",
      out: "order_number",
      shape: { type: "string" },
    });
  });

  it("reads embedded records through the resolver's id and label keys", () => {
    const text = annotate({}).replace("reps: {}", "reps: { label: summary, id: key }");
    const { model, errors } = build(document, text);
    expect(errors).toEqual([]);
    expect(model!.resources[0]!.fields.find((f) => f.name === "sales_rep")).toMatchObject({
      kind: "join",
      via: "property",
      keys: { id: "key", label: "summary" },
    });
    expect(model!.resolvers).toEqual([{ name: "reps", label: "summary", id: "key" }]);
  });

  it("lets `{ as }` rename an object whose parts are classified", () => {
    const { model, errors } = build(document, annotate({ contact: "{ as: reach }" }));
    expect(errors).toEqual([]);
    expect(model!.resources[0]!.fields.find((f) => f.name === "contact")!.out).toBe("reach");
  });
});

describe("page keys", () => {
  const restPage = {
    type: "object",
    properties: {
      data: { type: "array", items: { $ref: "#/components/schemas/Thing" } },
      next_page: { type: "object", nullable: true, properties: { offset: { type: "string" }, uri: { type: "string" } } },
      has_more: { type: "boolean" },
      cursor: { type: "string", nullable: true },
      links: { type: "object", properties: { next: { type: "string" } } },
      count: { type: "integer" },
    },
  };
  const document = spec(
    { Page: restPage, Thing: { type: "object", properties: { name: { type: "string" } } } },
    { $ref: "#/components/schemas/Page" },
    "application/json",
  );
  const annotate = (page: string) =>
    `spec: spec.yaml\noutput: out\nresources:\n  thing:\n    schema: Thing\n    fields:\n      name: keep\ntools:\n  list_things:\n    operation: listThings\n    rows: data\n    page: ${page}\n`;

  it.each([
    ["`more` on an object", "{ more: next_page }", "presence", { type: "boolean" }],
    ["`more` on a boolean", "{ more: has_more }", "value", { type: "boolean" }],
    ["`{ present: PATH }` under any key", "{ following: { present: cursor } }", "presence", { type: "boolean" }],
    ["a path under links", "{ following: links.next }", "presence", { type: "boolean" }],
    ["any other key", "{ total: count }", "value", { type: "integer" }],
    ["any other key on an object", "{ following: next_page }", "value", { type: "object" }],
  ])("%s", (_, page, mode, shape) => {
    const { model, errors } = build(document, annotate(page));
    expect(errors).toEqual([]);
    expect(model!.tools[0]!.page[0]).toMatchObject({ mode, shape });
  });

  it("refuses a page object that is not `{ present: PATH }`", () => {
    expect(() => parseAnnotation(annotate("{ more: { there: cursor } }"), "projector.yaml")).toThrow(/unknown key "there" in page.more/);
  });
});

describe("where a tool's response is typed", () => {
  const withStatus = (status: string): LoadedSpec => {
    const thing = {
      type: "object",
      properties: {
        id: { type: "string" },
        type: { type: "string", enum: ["thing"] },
        attributes: { type: "object", properties: { name: { type: "string" } } },
      },
    };
    const document = spec({ Page: page, Thing: thing });
    const paths = document.document["paths"] as JsonObject;
    const get = (paths["/things"] as JsonObject)["get"] as JsonObject;
    const responses = get["responses"] as JsonObject;
    get["responses"] = { [status]: responses["200"] };
    return document;
  };

  it.each([
    ["201", 201],
    ["2XX", "2XX"],
  ])("holds status %s as data, a code as a number", (status, held) => {
    const { model, errors } = build(withStatus(status), thingAnnotation());
    expect(errors).toEqual([]);
    expect(model!.tools[0]!.response).toEqual({ path: "/things", method: "get", status: held, mediaType: "application/vnd.api+json" });
  });
});
