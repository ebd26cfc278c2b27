// What `init` drafts under a tool's `inputs:`: argument names a model can use, collisions avoided, legends named.
import { describe, expect, it } from "vitest";
import { draftInputs } from "../src/init/inputs.js";
import { listOperations } from "../src/model/operations.js";
import { SchemaReader } from "../src/openapi/schema.js";

function inputsOf(parameters: unknown[], extra: Record<string, unknown> = {}, pathParameters: unknown[] = []) {
  const document = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/things/{thing_id}": {
        parameters: pathParameters,
        get: { operationId: "listThings", parameters, responses: { "200": { description: "ok" } }, ...extra },
      },
    },
    components: {
      schemas: { Status: { type: "integer", enum: [1, 2], "x-enum-varnames": ["OPEN", "CLOSED"] } },
      parameters: { Size: { name: "page[size]", in: "query", schema: { type: "integer" } } },
    },
  };
  const reader = new SchemaReader(document);
  return draftInputs(reader, listOperations(reader)[0]!);
}

const query = (name: string, schema: unknown = { type: "string" }) => ({ name, in: "query", schema });

describe("init's inputs draft", () => {
  it("renames wire names that are no argument names, keeps the others, drops nothing", () => {
    expect(
      inputsOf(
        [
          query("q"),
          query("filter[status]"),
          query("filter[created_at][gte]"),
          query("page[number]"),
          { $ref: "#/components/parameters/Size" },
          query("ids[]"),
          query("per-page"),
          query("fields[ticket]"),
          query("$top"),
        ],
        {},
        [{ name: "thing_id", in: "path", required: true, schema: { type: "string" } }],
      ),
    ).toEqual([
      { name: "thing_id" },
      { name: "q" },
      { name: "filter[status]", as: "status" },
      { name: "filter[created_at][gte]", as: "created_at_gte" },
      { name: "page[number]", as: "page" },
      { name: "page[size]", as: "page_size" },
      { name: "ids[]", as: "ids" },
      { name: "per-page", as: "per_page" },
      { name: "fields[ticket]", as: "fields_ticket" },
      { name: "$top", as: "top" },
    ]);
  });

  it("never proposes a name another argument of the tool has", () => {
    expect(
      inputsOf(
        [
          query("status"),
          query("filter[status]"),
          query("filter_status"),
          query("page"),
          query("page[number]"),
          query("x[y]"),
          query("x.y"),
        ],
        {
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        },
      ).map((i) => i.as ?? i.name),
    ).toEqual(["status", "filter_status_2", "filter_status", "page", "page_number", "x_y", "x_y_2"]);
    expect(inputsOf([query("filter[body]")], { requestBody: { content: { "application/json": { schema: {} } } } })).toEqual([
      { name: "filter[body]", as: "filter_body" },
    ]);
  });

  it("names the words a parameter of codes takes, leaves out headers and cookies", () => {
    expect(
      inputsOf([
        query("filter[status]", { $ref: "#/components/schemas/Status" }),
        { name: "X-Trace", in: "header", schema: { type: "string" } },
        { name: "session", in: "cookie", schema: { type: "string" } },
        query("twice", { type: "integer", enum: [1, 2], "x-enum-varnames": ["SAME", "SAME"] }),
      ]),
    ).toEqual([{ name: "filter[status]", as: "status", words: ["open", "closed"] }, { name: "twice" }]);
  });
});
