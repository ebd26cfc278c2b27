// Tools on a plain-REST spec: tokens and eval on a tool with no join.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers/pipeline.js";

const NOTES_SPEC = `openapi: 3.0.3
info: { title: Notes, version: "1" }
paths:
  /notes/{note_id}:
    get:
      operationId: retrieveNote
      parameters: [{ name: note_id, in: path, required: true, schema: { type: integer } }]
      responses:
        "200":
          description: one note
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Note" }
              example: { id: 17, body: "Customer called back", created_at: 1663597223 }
components:
  schemas:
    Note:
      type: object
      required: [id, body]
      properties:
        id: { type: integer }
        body: { type: string }
        created_at: { type: integer, description: Unix seconds }
`;

function notesProject(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "notes.yaml"), NOTES_SPEC);
  writeFileSync(
    join(dir, "projector.yaml"),
    [
      "spec: notes.yaml",
      "output: generated/notes",
      "resources:",
      "  note:",
      "    schema: Note",
      "    fields:",
      '      id: { drop: "the model already has it" }',
      "      body: keep",
      "      created_at: { format: datetime }",
      "tools:",
      "  retrieve_note:",
      "    operation: retrieveNote",
    ].join("\n"),
  );
  return dir;
}

describe("tokens and eval on a tool without joins", () => {
  it("tokens counts the spec's example of a tool with no join", async () => {
    const result = await cli(["tokens", "--tool", "retrieve_note", "--json"], notesProject());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ tool: "retrieve_note", raw: { records: 1 }, projected: { records: 1 }, followUpsAvoided: 0, followUpsByResolver: {} });
  });

  it("eval answers from a tool with no join", async () => {
    const dir = notesProject();
    writeFileSync(join(dir, "questions.yaml"), "questions:\n  - ask: When was the note written?\n    tool: retrieve_note\n    needs: [created_at, id]\n");
    const result = await cli(["eval", "questions.yaml"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("created_at: kept as created_at");
    expect(result.stdout).toContain("id: dropped by the annotation: the model already has it");
  });
});
