// Plain-REST specs: which record a tool projects, init's guesses and messages, tokens and eval on a tool with no join.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cli, generateFrom, importGenerated, tempDir } from "./helpers/pipeline.js";

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
    expect(report).toMatchObject({
      tool: "retrieve_note",
      raw: { records: 1 },
      projected: { records: 1 },
      followUpsAvoided: 0,
      followUpsByResolver: {},
    });
  });

  it("eval answers from a tool with no join", async () => {
    const dir = notesProject();
    writeFileSync(
      join(dir, "questions.yaml"),
      "questions:\n  - ask: When was the note written?\n    tool: retrieve_note\n    needs: [created_at, id]\n",
    );
    const result = await cli(["eval", "questions.yaml"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("created_at: kept as created_at");
    expect(result.stdout).toContain("id: dropped by the annotation: the model already has it");
  });
});

const DESK_SPEC = `openapi: 3.0.3
info: { title: Desk, version: "1" }
paths:
  /conversations:
    get:
      operationId: listConversations
      responses:
        "200":
          description: a page
          content:
            application/json:
              schema:
                type: object
                properties:
                  conversations: { type: array, items: { $ref: "#/components/schemas/ConversationItem" } }
                  total_count: { type: integer }
  /conversations/{id}:
    get:
      operationId: retrieveConversation
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: one conversation
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Conversation" }
  /ticket_types:
    get:
      operationId: listTicketTypes
      responses:
        "200":
          description: every type
          content:
            application/json:
              schema: { type: object, properties: { data: { type: array, items: { $ref: "#/components/schemas/TicketType" } } } }
  /tickets/{ticket_id}:
    get:
      operationId: getTicket
      parameters: [{ name: ticket_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: one ticket
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Ticket" }
  /admins/{admin_id}:
    get:
      operationId: retrieveAdmin
      parameters: [{ name: admin_id, in: path, required: true, schema: { type: integer } }]
      responses:
        "200":
          description: one admin, wrapped
          content:
            application/json:
              schema:
                type: object
                properties:
                  admin: { $ref: "#/components/schemas/Admin" }
                  links: { type: object, properties: { self: { type: string } } }
  /projects/{project_gid}:
    get:
      operationId: getProject
      parameters: [{ name: project_gid, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: one project
          content:
            application/json:
              schema: { type: object, properties: { data: { $ref: "#/components/schemas/Project" } } }
  /notes:
    post:
      operationId: createNote
      responses: { "201": { description: created } }
components:
  schemas:
    ConversationItem:
      type: object
      properties:
        id: { type: string }
        title: { type: string }
        created_at: { type: integer, description: When it was opened, in unix seconds }
        waiting_since: { type: integer, description: Unix timestamp of the last customer message }
        snoozed_until: { type: integer }
        updated_on: { type: integer }
    Conversation:
      type: object
      properties:
        id: { type: string }
        title: { type: string }
        ticket_id: { type: string }
    Ticket:
      type: object
      properties:
        id: { type: string }
        subject: { type: string }
        ticket_type: { $ref: "#/components/schemas/TicketType" }
    TicketType:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
    Admin:
      type: object
      properties:
        id: { type: integer }
        name: { type: string }
        team_ids: { type: array, items: { type: integer } }
        processing_time: { type: integer, description: How long the last reply took, in seconds }
    Project:
      type: object
      properties:
        gid: { type: string }
        name: { type: string }
        owner: { type: object, properties: { gid: { type: string }, name: { type: string } } }
        workspace_gid: { type: string }
`;

function deskProject(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "desk.yaml"), DESK_SPEC);
  return dir;
}

const drafted = (dir: string) => parse(readFileSync(join(dir, "projector.yaml"), "utf8"));

describe("init on a plain-REST spec", () => {
  it("gives each single-record tool the operation's own record, whatever other resources the file holds", async () => {
    const dir = deskProject();
    expect((await cli(["init", "desk.yaml", "--accept-guesses"], dir)).code).toBe(0);
    const annotation = drafted(dir);
    expect(annotation.resources.ticket.schema).toBe("Ticket");
    expect(annotation.resources.ticket_type.schema).toBe("TicketType");
    // ticket_type is listed first: a record chosen by matching resource names would be a ticket type.
    expect(Object.keys(annotation.resources).indexOf("ticket_type")).toBeLessThan(Object.keys(annotation.resources).indexOf("ticket"));
    const generated = await generateFrom(join(dir, "projector.yaml"));
    expect(generated.problems).toEqual([]);
    const tool = (name: string) => generated.model!.tools.find((t) => t.name === name)!;
    expect([tool("get_ticket").resource.name, tool("get_ticket").many, tool("get_ticket").rowsPath]).toEqual(["ticket", false, []]);
    // An admin has an id of its own: its one array is a field, not a list of team ids.
    expect([tool("retrieve_admin").resource.name, tool("retrieve_admin").many, tool("retrieve_admin").rowsPath]).toEqual([
      "admin",
      false,
      ["admin"],
    ]);
    expect([tool("get_project").resource.name, tool("get_project").rowsPath]).toEqual(["project", ["data"]]);
    expect(tool("list_conversations").many).toBe(true);
  });

  it("keeps an id as an argument of every tool that takes an id of its kind, gid included", async () => {
    const dir = deskProject();
    await cli(["init", "desk.yaml", "--accept-guesses"], dir);
    const { resources } = drafted(dir);
    expect(resources.conversation_item.fields.id).toEqual({ argument: ["retrieve_conversation"] });
    expect(resources.conversation.fields.id).toEqual({ argument: ["retrieve_conversation"] });
    expect(resources.conversation.fields.ticket_id).toEqual({ argument: ["get_ticket"] });
    expect(resources.project.fields.gid).toEqual({ argument: ["get_project"] });
    expect(resources.project.fields.owner).toEqual({ join: "owners" });
    // No tool takes a workspace's gid and no resolver names one: dropped, the todo saying how to join it.
    expect(resources.project.fields.workspace_gid).toEqual({ drop: "no tool takes this id" });
    expect(resources.ticket_type.fields.id).toEqual({ drop: "no tool takes this id" });
  });

  it("suggests a format for every timestamp, integer epochs included, and leaves durations alone", async () => {
    const dir = deskProject();
    await cli(["init", "desk.yaml", "--accept-guesses"], dir);
    const { resources } = drafted(dir);
    expect(resources.conversation_item.fields.created_at).toEqual({ format: "datetime" });
    expect(resources.conversation_item.fields.waiting_since).toEqual({ format: "datetime" });
    expect(resources.conversation_item.fields.updated_on).toEqual({ format: "date" });
    expect(resources.conversation_item.fields.snoozed_until).toBe("keep");
    expect(resources.admin.fields.processing_time).toBe("keep");
    const unsure = await cli(["init", "desk.yaml", "-o", "unsure.yaml"], dir);
    expect(unsure.code).toBe(0);
    expect(readFileSync(join(dir, "unsure.yaml"), "utf8")).toMatch(
      /updated_on: \{ todo: "an integer timestamp \(unix seconds or milliseconds\), by its name: a date in UTC", format: date \}/,
    );
  });

  it("refuses --operations names that are not GET operations of the spec, saying which", async () => {
    const dir = deskProject();
    const typo = await cli(["init", "desk.yaml", "--operations", "getTicket,retrieveConversations"], dir);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--operations: the spec has no operation "retrieveConversations" (did you mean "retrieveConversation"?)');
    const post = await cli(["init", "desk.yaml", "--operations", "createNote"], dir);
    expect(post.code).toBe(2);
    expect(post.stderr).toContain('--operations: "createNote" is POST /notes; init drafts tools for GET operations only');
    expect(existsSync(join(dir, "projector.yaml"))).toBe(false);
    expect((await cli(["init", "desk.yaml", "--operations", "GET /tickets/{ticket_id}"], dir)).code).toBe(0);
    expect(Object.keys(drafted(dir).tools)).toEqual(["get_ticket"]);
  });

  it("refuses a --tag no GET operation of the spec has, rather than drafting nothing", async () => {
    const dir = deskProject();
    const untagged = await cli(["init", "desk.yaml", "--tag", "Tickets"], dir);
    expect(untagged.code).toBe(2);
    expect(untagged.stderr).toContain('--tag: no GET operation of the spec has the tag "Tickets"; the spec tags none');
    writeFileSync(
      join(dir, "tagged.yaml"),
      DESK_SPEC.replace("      operationId: listConversations", "      operationId: listConversations\n      tags: [Conversations]"),
    );
    const wrongCase = await cli(["init", "tagged.yaml", "--tag", "conversations"], dir);
    expect(wrongCase.code).toBe(2);
    expect(wrongCase.stderr).toContain('--tag: no GET operation of the spec has the tag "conversations" (did you mean "Conversations"?)');
    expect(existsSync(join(dir, "projector.yaml"))).toBe(false);
    expect((await cli(["init", "tagged.yaml", "--tag", "Conversations"], dir)).code).toBe(0);
    expect(Object.keys(drafted(dir).tools)).toEqual(["list_conversations"]);
  });

  it("says there is nothing to generate where every operation it was given is skipped", async () => {
    const dir = tempDir();
    const binary = { description: "bytes", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } };
    const getFile = { operationId: "getFile", tags: ["Files"], responses: { "200": binary } };
    writeFileSync(
      join(dir, "files.json"),
      JSON.stringify({ openapi: "3.0.3", info: { title: "Files", version: "1" }, paths: { "/file": { get: getFile } } }),
    );
    const run = await cli(["init", "files.json", "-o", "none.yaml", "--tag", "Files"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/none\.yaml: drafted with 0 tool\(s\)/);
    expect(run.stdout).toContain("  skipped getFile: no JSON success response");
    expect(run.stdout).toContain(
      "Next: there is no tool to generate: name other operations with --operations or --tag, or write a tool by hand.",
    );
  });

  it("writes reasons quoted, and a re-run on a hand-written file adds only what the spec gained", async () => {
    const dir = deskProject();
    await cli(["init", "desk.yaml", "--accept-guesses"], dir);
    expect(readFileSync(join(dir, "projector.yaml"), "utf8")).toContain('id: { drop: "no tool takes this id" }');
    const handWritten = [
      "spec: desk.yaml",
      "output: generated/desk",
      "resources:",
      "  ticket:",
      "    schema: Ticket",
      "    fields:",
      "      id: { argument: [ticket_by_id] }",
      "      subject: keep",
      '      ticket_type: { drop: "not asked, never shown" }',
      "tools:",
      "  ticket_by_id:",
      '    operation: "GET /tickets/{ticket_id}"',
      "",
    ].join("\n");
    writeFileSync(join(dir, "hand.yaml"), handWritten);
    const rerun = await cli(
      ["init", "desk.yaml", "-o", "hand.yaml", "--operations", "getTicket,retrieveConversation", "--accept-guesses"],
      dir,
    );
    expect(rerun.stdout).toContain("hand.yaml: extended with 1 tool(s)");
    const after = parse(readFileSync(join(dir, "hand.yaml"), "utf8"));
    expect(Object.keys(after.tools)).toEqual(["ticket_by_id", "retrieve_conversation"]);
    expect(Object.keys(after.resources)).toEqual(["ticket", "conversation"]);
    expect(after.resources.conversation.fields.ticket_id).toEqual({ argument: ["ticket_by_id"] });
    expect(readFileSync(join(dir, "hand.yaml"), "utf8").startsWith(handWritten.replace(/tools:\n[\s\S]*$/, ""))).toBe(true);
  });
});

describe("record: on a tool", () => {
  const spec = `openapi: 3.0.3
info: { title: Tasks, version: "1" }
paths:
  /tasks/{task_gid}:
    get:
      operationId: getTask
      parameters: [{ name: task_gid, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the compact task the spec declares; opt_fields sends the full one
          content:
            application/json:
              schema: { type: object, properties: { data: { $ref: "#/components/schemas/TaskCompact" } } }
              example: { data: { gid: "1", name: "Ship it", notes: "before Friday" } }
components:
  schemas:
    TaskCompact:
      type: object
      properties:
        gid: { type: string }
        name: { type: string }
    TaskResponse:
      type: object
      properties:
        gid: { type: string }
        name: { type: string }
        notes: { type: string }
`;
  it("reads the records as the schema the API really sends, in the same place of the response", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tasks.yaml"), spec);
    writeFileSync(
      join(dir, "projector.yaml"),
      [
        "spec: tasks.yaml",
        "output: generated/tasks",
        "resources:",
        "  task:",
        "    schema: TaskResponse",
        "    fields:",
        "      gid: { argument: [get_task] }",
        "      name: keep",
        "      notes: keep",
        "tools:",
        "  get_task:",
        "    operation: getTask",
        "    record: TaskResponse",
      ].join("\n"),
    );
    const generated = await generateFrom(join(dir, "projector.yaml"));
    expect(generated.problems).toEqual([]);
    const module = await importGenerated<{ projectGetTask: (r: unknown, res: unknown) => Promise<unknown> }>(generated.files);
    expect(await module.projectGetTask({ data: { gid: "1", name: "Ship it", notes: "before Friday" } }, {})).toEqual({
      gid: "1",
      name: "Ship it",
      notes: "before Friday",
    });
  });
});
