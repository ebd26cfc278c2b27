// A tool knows where its records sit in the response and what may stand there: a body that holds no
// record where one belongs, or no list where a list belongs, is refused with a typed error and an
// issue, never projected as a record of nulls or an empty page; a null the spec allows is no record.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, typecheckFiles } from "./helpers/pipeline.js";
import { generatedFolder, projectedBy, type Projections } from "./helpers/projected.js";

const SPEC = `openapi: 3.1.0
info: { title: Notes, version: "1" }
paths:
  /notes:
    get:
      operationId: listNotes
      responses:
        "200":
          description: every note, as a bare list
          content:
            application/json:
              schema: { type: array, items: { $ref: "#/components/schemas/Note" } }
  /notes/{note_id}:
    get:
      operationId: getNote
      parameters: [{ name: note_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: one note, at the top of the body
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Note" }
  /notes/{note_id}/parent:
    get:
      operationId: getParent
      parameters: [{ name: note_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the note this one answers, or null
          content:
            application/json:
              schema: { oneOf: [{ $ref: "#/components/schemas/Note" }, { type: "null" }] }
  /folders/{folder_id}/notes:
    get:
      operationId: folderNotes
      parameters: [{ name: folder_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: a folder's notes; null when the folder holds none
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: [array, "null"], items: { $ref: "#/components/schemas/Note" } }
                  total: { type: integer }
  /tickets/{ticket_id}/duplicate:
    get:
      operationId: getDuplicate
      parameters: [{ name: ticket_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the ticket this one duplicates, as JSON:API; data is null when none
          content:
            application/vnd.api+json:
              schema:
                type: object
                properties:
                  data: { oneOf: [{ $ref: "#/components/schemas/Ticket" }, { type: "null" }] }
components:
  schemas:
    Note:
      type: object
      required: [id, body]
      properties:
        id: { type: string }
        body: { type: string }
    Ticket:
      type: object
      properties:
        type: { type: string, enum: [ticket] }
        id: { type: string }
        attributes: { type: object, properties: { subject: { type: string } } }
`;

const ANNOTATION = `spec: notes.yaml
output: generated/notes
resources:
  note:
    schema: Note
    fields:
      id: { argument: [get_note, get_parent] }
      body: keep
  ticket:
    fields:
      id: { argument: [get_duplicate] }
      subject: keep
tools:
  list_notes: { operation: listNotes }
  get_note: { operation: getNote }
  get_parent: { operation: getParent }
  folder_notes: { operation: folderNotes, page: { total: total } }
  get_duplicate: { operation: getDuplicate }
`;

let dir: string;
let generated: Awaited<ReturnType<typeof generatedFolder>>["generated"];
let module: Projections;

beforeAll(async () => {
  ({ dir, generated, module } = await generatedFolder("notes.yaml", SPEC, ANNOTATION));
}, 60_000);

const projected = (tool: string, body: unknown) => projectedBy(module, tool, body);

describe("the model: where each tool's records sit, and whether the spec lets them be null", () => {
  it("records the path, the nullability and the record's declared keys", () => {
    const tools = Object.fromEntries(generated.model!.tools.map((t) => [t.name, [t.rowsPath, t.rowsNullable, t.recordKeys]]));
    expect(tools).toEqual({
      list_notes: [[], false, ["body", "id"]],
      get_note: [[], false, ["body", "id"]],
      get_parent: [[], true, ["body", "id"]],
      folder_notes: [["items"], true, ["body", "id"]],
      get_duplicate: [["data"], true, ["id"]],
    });
  });
});

describe("a plain-REST list returned as the body itself", () => {
  it("projects a list", async () => {
    expect(await projected("projectListNotes", [{ id: "n1", body: "Hello" }])).toEqual({
      result: { notes: [{ id: "n1", body: "Hello" }] },
      issues: [],
    });
  });

  it.each([
    [{}, "the body is an object", "object"],
    [42, "the body is a number", 42],
    ["hello", "the body is a string", "hello"],
    [null, "the body is null", null],
  ])("refuses %j, which holds no list, and tells onIssue", async (body, got, value) => {
    const { error, issues } = await projected("projectListNotes", body);
    const message = `list_notes: the response body is not a list of note records (${got})`;
    expect(error).toBe(message);
    expect(issues).toEqual([{ kind: "unusable", resource: "list_notes", field: "", value, message }]);
  });

  it("refuses an errors document with the API's own words", async () => {
    const { error } = await projected("projectListNotes", { errors: [{ message: "quota exceeded" }] });
    expect(error).toBe("list_notes: the response body is an error document: quota exceeded");
  });
});

describe("a plain-REST record that is the body itself", () => {
  it("projects a record", async () => {
    expect((await projected("projectGetNote", { id: "n1", body: "Hello" })).result).toEqual({ id: "n1", body: "Hello" });
  });

  it.each([
    [{}, "the body is an object with none of the keys a note has"],
    [{ message: "rate limited" }, "the body is an object with none of the keys a note has"],
    [[{ id: "n1", body: "Hello" }], "the body is a list"],
    [42, "the body is a number"],
    [null, "the body is null"],
  ])("refuses %j, which is no note, and tells onIssue", async (body, got) => {
    const { error, issues } = await projected("projectGetNote", body);
    expect(error).toBe(`get_note: the response body is not one note record (${got})`);
    expect(issues.map((issue) => [issue.kind, issue.resource, issue.message])).toEqual([["unusable", "get_note", error]]);
  });
});

describe("a null the spec allows is no record, not an error and not an empty body", () => {
  it("gives null under the resource's name for a record the spec declares nullable, and still refuses what is no record", async () => {
    expect(await projected("projectGetParent", null)).toEqual({ result: { note: null }, issues: [] });
    expect((await projected("projectGetParent", { id: "n0", body: "Question" })).result).toEqual({ note: { id: "n0", body: "Question" } });
    expect((await projected("projectGetParent", "none")).error).toBe(
      "get_parent: the response body is not one note record (the body is a string)",
    );
  });

  it("gives null under the resource's name for a JSON:API data the spec declares nullable; absent data is still refused", async () => {
    expect(await projected("projectGetDuplicate", { data: null })).toEqual({ result: { ticket: null }, issues: [] });
    expect(
      (await projected("projectGetDuplicate", { data: { type: "ticket", id: "t1", attributes: { subject: "Login" } } })).result,
    ).toEqual({ ticket: { id: "t1", subject: "Login" } });
    expect((await projected("projectGetDuplicate", {})).error).toBe(
      "get_duplicate: the response body is not one ticket record at data (data is missing)",
    );
  });

  it("gives an empty list for a list the spec declares nullable; a list that is something else is refused", async () => {
    expect(await projected("projectFolderNotes", { items: null, total: 0 })).toEqual({ result: { notes: [], total: 0 }, issues: [] });
    expect((await projected("projectFolderNotes", { items: { id: "n1" }, total: 1 })).error).toBe(
      "folder_notes: the response body is not a list of note records at items (items is an object)",
    );
  });

  it("types a nullable record's result as an object holding the record or null, and the code compiles", () => {
    expect(generated.files.get("tools/get-parent.ts")).toContain("export type GetParentResult = { note: NoteResult | null };");
    expect(generated.files.get("tools/get-note.ts")).toContain("export type GetNoteResult = NoteResult;");
    expect(typecheckFiles(generated.files)).toEqual([]);
  }, 60_000);
});

describe("tokens on a payload that holds no record", () => {
  it("says what the payload is, as a problem with the input, not an internal error", async () => {
    writeFileSync(join(dir, "rate-limited.json"), JSON.stringify({ message: "rate limited" }));
    const result = await cli(["tokens", "--tool", "get_note", "rate-limited.json"], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "PRJ040 rate-limited.json: get_note: the response body is not one note record (the body is an object with none of the keys a note has)",
    );
    expect(result.stderr).not.toContain("internal error");
  });
});
