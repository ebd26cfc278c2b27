// An object inside a record (a part kept by its parts, or each item of a list of them) holding none
// of the keys the spec declares for it (an error object, `{}`) is unusable with an issue, never a
// row of nulls that reads as the API's own; one holding a declared key, even null, is projected.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Items, version: "1" }
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: one item
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Item" }
components:
  schemas:
    Item:
      type: object
      required: [id]
      properties:
        id: { type: string }
        owner: { type: object, properties: { name: { type: string }, email: { type: string } } }
        parts:
          type: array
          items: { type: object, properties: { p: { type: string }, d: { type: string } } }
`;

const ANNOTATION = `spec: items.yaml
output: generated
resources:
  item:
    schema: Item
    fields:
      id: { argument: [get_item] }
      owner.name: keep
      owner.email: { drop: "not needed" }
      parts.p: keep
      parts.d: { format: date }
tools:
  get_item:
    operation: getItem
`;

type Project = (record: unknown, lookups: object, options: object) => Record<string, unknown>;
let projectItem: Project;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "items.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  ({ projectItem } = await importGenerated<{ projectItem: Project }>(output.files));
});

function projected(record: unknown) {
  const issues: ProjectionIssue[] = [];
  const result = projectItem(record, {}, { onIssue: (issue: ProjectionIssue) => issues.push(issue) });
  return { result, issues: issues.map((issue) => [issue.field, issue.message]) };
}

const NONE_OF_ITS_KEYS = "expected an object holding one of the keys the spec declares for it, got one holding none of them";

describe("an object inside a record holding none of the keys the spec declares for it", () => {
  it.each([
    ["an error object", { error: "rate limited" }],
    ["an empty object", {}],
  ])("is unusable, with an issue, as an item of a list of objects: %s", (_, item) => {
    const { result, issues } = projected({ id: "itm_1", parts: [{ p: "a" }, item] });
    expect(result["parts"]).toEqual([{ p: "a", d: null }, { unusable: NONE_OF_ITS_KEYS }]);
    expect(issues).toEqual([["parts[1]", expect.stringContaining(NONE_OF_ITS_KEYS)]]);
  });

  it("is unusable, with an issue, as a part kept by its parts", () => {
    const { result, issues } = projected({ id: "itm_1", owner: { error: "denied" } });
    expect(result["owner"]).toEqual({ unusable: NONE_OF_ITS_KEYS });
    expect(issues).toEqual([["owner", expect.stringContaining(NONE_OF_ITS_KEYS)]]);
  });

  it("is projected when it holds a declared key, even one the annotation drops or one that is null", () => {
    const { result, issues } = projected({ id: "itm_1", owner: { email: "a@b.c" }, parts: [{ p: null }] });
    expect(result).toEqual({ id: "itm_1", owner: { name: null }, parts: [{ p: null, d: null }] });
    expect(issues).toEqual([]);
  });
});
