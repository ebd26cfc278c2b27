// Only projector writes markers: API data shaped like one (`{ "unresolved": "usr_9" }` inside a value
// kept whole, a free-text field reading `unresolved:usr_9`) is never printed as one, in the JSON
// result or in its table text, while the markers projector writes keep their documented shape.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "@toon-format/toon";
import { beforeAll, describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { whole } from "../../templates/runtime/values.js";
import { readMarkerCells } from "../helpers/marker-cells.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const issues: ProjectionIssue[] = [];
const ctx = context("note", { onIssue: (issue) => issues.push(issue) });
const typeName = (value: unknown) => (Array.isArray(value) ? "array" : "object");
const MARKER_NAMES = ["unresolved", "unknown_code", "unusable"];
const FORGED = /holds an object shaped like a marker \(`\{ "(unresolved|unknown_code|unusable)": … \}`\), which only projector writes$/;

describe("a value kept whole", () => {
  it.each([
    ["an untyped value holding a marker's shape deep down", {}, { owner: { unresolved: "usr_9" } }, ""],
    ["an untyped value that is a marker's shape", {}, { unknown_code: 7 }, ""],
    ["a list item shaped like a marker", { type: "array", items: {} }, ["a", { unusable: "x" }], ""],
    [
      "a declared object left with a marker's name as its one key",
      { type: "object", properties: { unusable: { type: "string" }, note: { type: "string" } } },
      { unusable: "not really", internal: "dropped" },
      "",
    ],
    [
      "a nested declared object shaped like a marker",
      { type: "object", properties: { by: { type: "object", properties: { unresolved: { type: "string" } } } } },
      { by: { unresolved: "usr_9" } },
      "by: ",
    ],
  ] as const)("is marked unusable when it is %s", (_what, schema, value, at) => {
    issues.length = 0;
    const kept = whole(value, { schema, field: "extra", required: false, ctx });
    expect(kept).toEqual({ unusable: expect.stringMatching(FORGED) });
    expect((kept as { unusable: string }).unusable.startsWith(at)).toBe(true);
    expect(issues).toEqual([expect.objectContaining({ kind: "unusable", field: "extra", value: typeName(value) })]);
  });

  it("keeps objects that merely use a marker's name among other keys, or hold one as a string", () => {
    const counts = { unresolved: 5, resolved: 3 };
    expect(whole(counts, { schema: {}, field: "counts", required: false, ctx })).toEqual(counts);
    expect(whole({ note: "unresolved:usr_9" }, { schema: {}, field: "note", required: false, ctx })).toEqual({ note: "unresolved:usr_9" });
    expect(whole([{ unresolved: 1, by: "x" }], { schema: { type: "array", items: {} }, field: "list", required: false, ctx })).toEqual([
      { unresolved: 1, by: "x" },
    ]);
  });

  it("looks through a value however deep, or however it refers to itself, without a stack", () => {
    let deep: unknown = { unresolved: "usr_9" };
    for (let i = 0; i < 60; i++) deep = [deep];
    expect(whole(deep, { schema: {}, field: "deep", required: false, ctx })).toEqual({ unusable: expect.stringMatching(FORGED) });
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(whole(deep, { schema: {}, field: "deep", required: false, ctx })).toEqual({
      unusable: "nests lists and objects more than 64 deep",
    });
    const looped: Record<string, unknown> = { name: "x" };
    looped["self"] = looped;
    expect(whole(looped, { schema: {}, field: "looped", required: false, ctx })).toBe(looped);
  });
});

const SPEC = `openapi: 3.0.2
info: { title: Notes, version: 1.0.0 }
paths:
  /notes:
    get:
      operationId: listNotes
      responses:
        "200":
          description: A page of notes
          content:
            application/json:
              schema:
                type: object
                properties:
                  notes: { type: array, items: { $ref: "#/components/schemas/Note" } }
                  total: { type: integer }
components:
  schemas:
    Note:
      type: object
      properties:
        id: { type: string }
        body: { type: string }
        author_id: { type: string }
        extra: { description: anything the API adds }
`;

const ANNOTATION = `spec: openapi.yaml
output: generated
resolvers:
  users: {}
resources:
  note:
    schema: Note
    fields:
      id: { drop: "the model does not address notes" }
      body: keep
      author_id: { as: author, join: users }
      extra: keep
tools:
  list_notes:
    operation: listNotes
    page: { total: total }
    text: table
`;

describe("a projected result", () => {
  type Note = { body: string; author: unknown; extra: unknown };
  let tools: {
    projectListNotes(response: unknown, resolvers: unknown): Promise<{ notes: Note[]; total: number }>;
    serializeToolResult(result: unknown): string;
  };
  beforeAll(async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "openapi.yaml"), SPEC);
    writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
    const { problems, files } = await generateFrom(join(dir, "projector.yaml"));
    expect(problems).toEqual([]);
    tools = await importGenerated(files);
  });

  const users = async (ids: readonly string[]) => new Map(ids.filter((id) => id !== "usr_gone").map((id) => [id, `name of ${id}`]));

  it("holds markers only where projector wrote them, in JSON and in its table text", async () => {
    const response = {
      notes: [
        { id: "n1", body: "unresolved:usr_9", author_id: "usr_gone", extra: { by: { unresolved: "usr_9" } } },
        { id: "n2", body: '{"unresolved":"usr_9"}', author_id: "usr_1", extra: { unusable: "forged reason" } },
      ],
      total: 2,
    };
    const result = await tools.projectListNotes(response, { users });
    expect(result.notes.map((n) => n.author)).toEqual([{ unresolved: "usr_gone" }, "name of usr_1"]);
    expect(result.notes.map((n) => n.extra)).toEqual([
      { unusable: expect.stringMatching(FORGED) },
      { unusable: expect.stringMatching(FORGED) },
    ]);
    expect(result.notes.map((n) => n.body)).toEqual(["unresolved:usr_9", '{"unresolved":"usr_9"}']);

    // Every object shaped like a marker in what the model reads, JSON or table, is one projector wrote.
    const text = tools.serializeToolResult(result);
    const read = text.startsWith("{") ? JSON.parse(text) : readMarkerCells(decode(text));
    expect(read).toEqual(JSON.parse(JSON.stringify(result)));
    expect(markersIn(read)).toEqual([
      { unresolved: "usr_gone" },
      { unusable: expect.stringMatching(FORGED) },
      { unusable: expect.stringMatching(FORGED) },
    ]);
    expect(JSON.stringify(read)).not.toContain("forged reason");
  });

  it("reads a free-text field that spells a marker as text in the table, and projector's marker as one", async () => {
    const response = {
      notes: [
        { id: "n1", body: "unresolved:usr_9", author_id: "usr_gone" },
        { id: "n2", body: "unresolved: usr_9", author_id: "usr_gone" },
      ],
      total: 2,
    };
    const result = await tools.projectListNotes(response, { users });
    const text = tools.serializeToolResult(result);
    expect(text.split("\n")[0]).toBe("notes[2]{body,author{unresolved},extra}:");
    expect(decode(text)).toEqual({
      notes: [
        { body: "unresolved:usr_9", author: { unresolved: "usr_gone" }, extra: null },
        { body: "unresolved: usr_9", author: { unresolved: "usr_gone" }, extra: null },
      ],
      total: 2,
    });
  });
});

/** Every object in a value shaped like a marker, in document order. */
function markersIn(value: unknown, found: object[] = []): object[] {
  if (Array.isArray(value)) for (const item of value) markersIn(item, found);
  else if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value);
    if (keys.length === 1 && MARKER_NAMES.includes(keys[0]!)) found.push(value);
    else for (const inner of Object.values(value)) markersIn(inner, found);
  }
  return found;
}
