// What the API sends that names nothing is handed out as nothing: the id beside a join that refuses
// a resource identifier of another type is refused with it; a list item holding none of its record's
// keys refuses the page rather than showing a row of nulls; and `after_last` never continues after a
// value its row shows as a marker.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const TICKETS_SPEC = `openapi: 3.1.0
info: { title: Tickets, version: "1" }
paths:
  /tickets:
    get:
      operationId: listTickets
      responses:
        "200":
          description: ok
          content:
            application/vnd.api+json:
              schema:
                type: object
                properties:
                  data: { type: array, items: { $ref: "#/components/schemas/Ticket" } }
  /tickets/{ticket_id}:
    get:
      operationId: getTicket
      parameters: [{ name: ticket_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content:
            application/vnd.api+json:
              schema: { type: object, properties: { data: { $ref: "#/components/schemas/Ticket" } } }
  /users/{user_id}:
    get:
      operationId: getUser
      parameters: [{ name: user_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content:
            application/vnd.api+json:
              schema: { type: object, properties: { data: { $ref: "#/components/schemas/User" } } }
components:
  schemas:
    Linkage:
      type: object
      properties: { type: { type: string, enum: [user] }, id: { type: string } }
    Ticket:
      type: object
      properties:
        type: { type: string, enum: [ticket] }
        id: { type: string }
        attributes: { type: object, properties: { subject: { type: string } } }
        relationships:
          type: object
          properties:
            assignee: { type: object, properties: { data: { $ref: "#/components/schemas/Linkage" } } }
            watchers:
              type: object
              properties: { data: { type: array, items: { $ref: "#/components/schemas/Linkage" } } }
    User:
      type: object
      properties:
        type: { type: string, enum: [user] }
        id: { type: string }
        attributes: { type: object, properties: { name: { type: string } } }
`;

const TICKETS_ANNOTATION = `spec: tickets.yaml
output: generated
resolvers:
  users: { type: user, label: name }
resources:
  ticket:
    fields:
      id: { argument: [get_ticket] }
      subject: keep
      assignee: { join: users, argument: [get_user], shorten: true }
      watchers: { join: users, argument: [get_user], shorten: true }
  user:
    fields:
      id: { argument: [get_user], shorten: true }
      name: keep
tools:
  list_tickets: { operation: listTickets, list: tickets }
  get_ticket: { operation: getTicket }
  get_user: { operation: getUser }
`;

const ITEMS_SPEC = `openapi: 3.0.3
info: { title: Items, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: after, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer, default: 1 } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/Item" } }
components:
  schemas:
    Item:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
        price: { type: integer }
        currency: { type: string }
        took: { type: integer }
        created_at: { type: string, format: date-time }
        status: { type: integer, enum: [1, 2], x-enum-varnames: [open, closed] }
`;

const afterLast = (tool: string, field: string) => `  ${tool}:
    operation: listItems
    list: items
    page: { next: { after_last: ${field}, param: after, limit: limit } }
`;

const ITEMS_ANNOTATION = `spec: items.yaml
output: generated
resources:
  item:
    schema: Item
    fields:
      id: { drop: "a position only" }
      name: { max_chars: 5 }
      price: { format: money, currency: currency }
      currency: { drop: "shown in price" }
      took: { format: duration }
      created_at: { as: created, format: datetime }
      status: { legend: spec }
tools:
${afterLast("after_id", "id")}${afterLast("after_name", "name")}${afterLast("after_price", "price")}${afterLast("after_took", "took")}${afterLast("after_created", "created_at")}${afterLast("after_status", "status")}  list_items_budgeted:
    operation: listItems
    list: items
    budget: { rows: 1 }
    page: { next: { after_last: created_at, param: after, limit: limit } }
`;

/** A JSON:API spec whose records declare no `id`: their `type` alone makes no record. */
const NOTES_SPEC = `openapi: 3.1.0
info: { title: Notes, version: "1" }
paths:
  /notes:
    get:
      operationId: listNotes
      responses:
        "200":
          description: ok
          content:
            application/vnd.api+json:
              schema:
                type: object
                properties:
                  data:
                    type: array
                    items:
                      type: object
                      properties:
                        type: { type: string, enum: [note] }
                        attributes: { type: object, properties: { text: { type: string } } }
`;

const NOTES_ANNOTATION = `spec: notes.yaml
output: generated
resources:
  note:
    fields:
      id: { drop: "not shown" }
      text: keep
tools:
  list_notes: { operation: listNotes, list: notes }
`;

type Project = (response: unknown, resolvers?: unknown, options?: { onIssue?: (issue: ProjectionIssue) => void }) => Promise<unknown>;
type Generated = Record<string, Project>;

async function generated(files: Record<string, string>): Promise<Generated> {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  return importGenerated<Generated>(output.files);
}

let tickets: Generated;
let items: Generated;
let notes: Generated;

beforeAll(async () => {
  tickets = await generated({ "tickets.yaml": TICKETS_SPEC, "projector.yaml": TICKETS_ANNOTATION });
  items = await generated({ "items.yaml": ITEMS_SPEC, "projector.yaml": ITEMS_ANNOTATION });
  notes = await generated({ "notes.yaml": NOTES_SPEC, "projector.yaml": NOTES_ANNOTATION });
}, 60_000);

/** What a projection does with a body: its result, or the message of the error it throws; and its issues' messages. */
async function projected(module: Generated, project: string, body: unknown, resolvers: unknown = {}) {
  const issues: string[] = [];
  const onIssue = (issue: ProjectionIssue) => void issues.push(issue.message);
  try {
    return { result: (await module[project]!(body, resolvers, { onIssue })) as Record<string, unknown>, issues };
  } catch (error) {
    return { error: (error as Error).message, issues };
  }
}

const users = { users: (ids: readonly string[]) => new Map(ids.map((id) => [id, `name of ${id}`])) };
const ORGANIZATION = { type: "organization", id: "org_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90" };
const OTHER_TYPE = 'expected a resource identifier of type "user", got one of another type';

describe("the id kept beside a join of a JSON:API relationship", () => {
  const ticket = (relationships: object) => ({ data: { type: "ticket", id: "tkt_1", attributes: { subject: "s" }, relationships } });

  it("is unusable with the join's reason, and its own issue, where the identifier is of another type", async () => {
    const { result, issues } = await projected(
      tickets,
      "projectGetTicket",
      ticket({ assignee: { data: ORGANIZATION }, watchers: { data: [] } }),
      users,
    );
    expect(result).toMatchObject({ assignee: { unusable: OTHER_TYPE }, assignee_id: { unusable: OTHER_TYPE } });
    expect(issues).toEqual([`ticket.assignee: ${OTHER_TYPE}`, `ticket.assignee: ${OTHER_TYPE}`]);
  });

  it("marks each identifier of another type in a to-many relationship, and keeps the others", async () => {
    const alice = { type: "user", id: "usr_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90" };
    const { result } = await projected(
      tickets,
      "projectGetTicket",
      ticket({ assignee: { data: null }, watchers: { data: [alice, ORGANIZATION] } }),
      users,
    );
    expect(result?.["watchers"]).toEqual([`name of ${alice.id}`, { unusable: OTHER_TYPE }]);
    expect(result?.["watchers_id"]).toEqual([expect.stringMatching(/^usr_/), { unusable: OTHER_TYPE }]);
  });
});

describe("a list item holding none of its record's keys", () => {
  it("refuses a plain page whose item is an error object or empty, naming the item", async () => {
    for (const item of [{ error: "rate limited", message: "slow down" }, {}]) {
      const { error, issues } = await projected(items, "projectAfterId", { items: [{ id: "itm_1" }, item] });
      expect(error).toBe(
        "after_id: the response body is not a list of item records at items (item 1 is an object with none of the keys a item has)",
      );
      expect(issues).toHaveLength(1);
    }
  });

  it("refuses a JSON:API page whose item holds its type and nothing else", async () => {
    const { error } = await projected(tickets, "projectListTickets", { data: [{ type: "ticket" }] }, users);
    expect(error).toBe(
      "list_tickets: the response body is not a list of ticket records at data (item 0 is an object with none of the keys a ticket has)",
    );
  });

  it("refuses a JSON:API page whose item holds its type and nothing else, where the spec declares no id", async () => {
    const { error } = await projected(notes, "projectListNotes", { data: [{ type: "note", attributes: { text: "t" } }, { type: "note" }] });
    expect(error).toBe(
      "list_notes: the response body is not a list of note records at data (item 1 is an object with none of the keys a note has)",
    );
  });

  it("keeps a row whose every key is there and null: that is what the API says of the record", async () => {
    const row = { id: null, name: null, price: null, currency: null, took: null, created_at: null, status: null };
    const { result } = await projected(items, "projectAfterId", { items: [row] });
    expect(result?.["items"]).toEqual([{ name: null, price: null, took: null, created: null, status: null }]);
  });
});

describe("after_last, where the row shows the value as a marker", () => {
  const item = (changes: object) => ({
    id: "itm_1",
    name: "a name",
    price: 1234,
    currency: "USD",
    took: 90,
    created_at: "2026-01-01T10:11:12Z",
    status: 1,
    ...changes,
  });
  const lastField = "the last record has no";

  it.each([
    ["an unreadable date", "projectAfterCreated", "created", { created_at: "not a date \u001b" }],
    ["money in an unknown currency", "projectAfterPrice", "price", { currency: "ZZZ" }],
    ["a negative duration", "projectAfterTook", "took", { took: -90 }],
    ["a code with no word", "projectAfterStatus", "status", { status: 9 }],
    ["text that is no text", "projectAfterName", "name", { name: 5 }],
    ["an unreadable date, the rows cut by a budget", "projectListItemsBudgeted", "created", { created_at: "not a date" }],
  ])("gives no next after %s, with an issue", async (_, project, out, changes) => {
    const { result, issues } = await projected(items, project, { items: [item(changes)] });
    const rows = result?.["items"] as Record<string, unknown>[];
    expect(rows[0]![out]).toBeTypeOf("object");
    expect(result?.["next"]).toBeNull();
    expect(issues.some((message) => message.includes(lastField))).toBe(true);
  });

  it("continues after the API's whole value where the row shows it, cut or reformatted", async () => {
    const page = { items: [item({ name: "a longer name" })] };
    expect((await projected(items, "projectAfterName", page)).result?.["next"]).toBe("after=a%20longer%20name");
    expect((await projected(items, "projectAfterPrice", page)).result?.["next"]).toBe("after=1234");
    expect((await projected(items, "projectAfterCreated", page)).result?.["next"]).toBe("after=2026-01-01T10%3A11%3A12Z");
    expect((await projected(items, "projectListItemsBudgeted", page)).result?.["next"]).toBe("after=2026-01-01T10%3A11%3A12Z");
  });

  it.each([2_500, 10_001, 90_000])("says a value of %i characters is too long to continue after, not missing", async (length) => {
    const { result, issues } = await projected(items, "projectAfterName", { items: [item({ name: "B".repeat(length) })] });
    expect(result?.["next"]).toBeNull();
    expect(issues.some((message) => message.includes("longer than 2000 characters"))).toBe(true);
    expect(issues.some((message) => message.includes(lastField))).toBe(false);
  });
});
