// A page's records may hold lists of objects: together they can never show more than MAX_ROWS
// objects, so past that each list is marked before its objects are read, however the page's rows
// share them; the projection, its markers and its issues stay bounded by MAX_ROWS, not the body.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { MAX_ROWS } from "../../templates/runtime/records.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Items, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      responses:
        "200":
          description: a page of items
          content:
            application/json:
              schema: { type: object, properties: { items: { type: array, items: { $ref: "#/components/schemas/Item" } } } }
components:
  schemas:
    Item:
      type: object
      required: [id]
      properties:
        id: { type: string }
        parts:
          type: array
          items: { type: object, properties: { p: { type: string } } }
`;

const ANNOTATION = `spec: items.yaml
output: generated
resources:
  item:
    schema: Item
    fields:
      id: { fact: "the item's number, as people quote it" }
      parts.p: keep
tools:
  list_items:
    operation: listItems
    list: items
`;

type Row = { id: string; parts: unknown };
type ProjectPage = (response: unknown, resolvers: object, options: object) => Promise<{ items: Row[] }>;
type ProjectItem = (record: unknown, lookups: object, options: object) => Row;
let projectListItems: ProjectPage;
let projectItem: ProjectItem;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "items.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  ({ projectListItems, projectItem } = await importGenerated<{ projectListItems: ProjectPage; projectItem: ProjectItem }>(output.files));
});

const PER_RECORD = 10_000;
const page = (records: number) => ({
  items: Array.from({ length: records }, (_, i) => ({ id: `i${i}`, parts: Array.from({ length: PER_RECORD }, () => ({ p: "a" })) })),
});
const OVER = `the lists of this result hold more than the ${MAX_ROWS} items a result could show`;

describe("the lists of objects inside a page's records", () => {
  it("are read up to MAX_ROWS objects together; every list past that is unusable, with one issue each", async () => {
    const records = MAX_ROWS / PER_RECORD + 5;
    const issues: ProjectionIssue[] = [];
    const { items } = await projectListItems(page(records), {}, { onIssue: (issue: ProjectionIssue) => issues.push(issue) });
    const shown = items.filter((row) => Array.isArray(row.parts));
    expect(shown.length).toBe(MAX_ROWS / PER_RECORD);
    expect(shown.every((row) => (row.parts as unknown[]).length === PER_RECORD)).toBe(true);
    expect(items.slice(shown.length).map((row) => row.parts)).toEqual(Array.from({ length: 5 }, () => ({ unusable: OVER })));
    expect(issues.map((issue) => issue.message)).toEqual(Array.from({ length: 5 }, () => expect.stringContaining(OVER)));
  });

  it("are bounded per result: a page within the bound, and a record projected on its own, read every object", async () => {
    const { items } = await projectListItems(page(MAX_ROWS / PER_RECORD), {}, {});
    expect(items.every((row) => Array.isArray(row.parts))).toBe(true);
    const again = await projectListItems(page(MAX_ROWS / PER_RECORD), {}, {});
    expect(again.items.every((row) => Array.isArray(row.parts))).toBe(true);
    for (let i = 0; i < 12; i++) expect(Array.isArray(projectItem(page(1).items[0], {}, {}).parts)).toBe(true);
  });
});
