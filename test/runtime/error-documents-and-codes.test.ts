// A success answer that is an error document is an error, never a result or a label; a value of
// another type than a legend's codes is unusable, never an unknown code.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { legend, legendLookup, member } from "../../templates/runtime/legends.js";
import { context } from "../../templates/runtime/context.js";
import { type LocalApi, startLocalApi } from "../helpers/local-api.js";
import { generateFrom, importGenerated, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Desk, version: "1" }
paths:
  /tickets:
    get:
      operationId: listTickets
      parameters:
        - { name: priority, in: query, schema: { type: integer, enum: [1, 2] } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/Ticket" } }
  /tickets/{ticket_id}:
    get:
      operationId: getTicket
      parameters:
        - { name: ticket_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "#/components/schemas/Ticket" } } }
  /users/{user_id}:
    get:
      operationId: getUser
      parameters:
        - { name: user_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "#/components/schemas/User" } } }
  /users:
    get:
      operationId: listUsers
      parameters:
        - { name: ids, in: query, schema: { type: array, items: { type: string } } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/User" } }
  /teams:
    get:
      operationId: listTeams
      parameters:
        - { name: ids, in: query, schema: { type: array, items: { type: string } } }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/User" } }
                  error: { type: string }
components:
  schemas:
    Ticket:
      type: object
      required: [id]
      properties:
        id: { type: string }
        assignee_id: { type: string }
        reporter_id: { type: string }
        team_id: { type: string }
        priority: { type: integer, enum: [1, 2] }
        kind: { type: string, enum: [bug, task] }
    User:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
`;

const ANNOTATION = `spec: spec.yaml
output: gen
resolvers:
  users: { operation: getUser, label: name }
  people: { operation: listUsers, ids: ids, label: name }
  teams: { operation: listTeams, ids: ids, label: name }
resources:
  ticket:
    schema: Ticket
    fields:
      id: { argument: [get_ticket] }
      assignee_id: { as: assignee, join: users }
      reporter_id: { as: reporter, join: people }
      team_id: { as: team, join: teams }
      priority: { legend: { 1: low, 2: high } }
      kind: { legend: { bug: defect, task: chore } }
tools:
  list_tickets:
    operation: listTickets
    list: items
    inputs:
      priority: { legend: { 1: low, 2: high } }
  get_ticket: { operation: getTicket }
`;

type Outcome = { result?: Record<string, unknown>; error?: string };
interface Generated {
  createTools: (options: object) => Record<string, (args: unknown) => Promise<Outcome>>;
  createResolvers: (client: unknown) => Record<string, unknown>;
}

/** What the local API answers for one request: a status, a Content-Type and a JSON body. */
type Answer = { status?: number; type?: string; body: unknown };
type Route = (path: string, query: URLSearchParams) => Answer;

let generated: Generated;
let api: LocalApi;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "spec.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  generated = await importGenerated<Generated>(output.files);
  api = await startLocalApi();
});

afterAll(() => api?.close());

const TICKET = { id: "t1", assignee_id: "u1", reporter_id: "u2", team_id: "g1", priority: 1, kind: "bug" };
const USERS: Record<string, Answer> = {
  u1: { body: { id: "u1", name: "Ann" } },
};

/** Every tool over the local API, its resolvers those the spec backs; the issues reported, and the ticket list answered. */
function tools(
  tickets: Answer = { body: { items: [TICKET] } },
  users = USERS,
  team: Answer = { body: { items: [{ id: "g1", name: "Core" }] } },
) {
  const route: Route = (path, query) => {
    if (path === "/tickets") return tickets;
    if (path.startsWith("/tickets/")) return tickets;
    if (path.startsWith("/users/")) return users[path.slice("/users/".length)] ?? { status: 404, body: {} };
    if (path === "/users") return { body: { items: query.getAll("ids").map((id) => ({ id, name: `Person ${id}` })) } };
    if (path === "/teams") return team;
    return { status: 404, body: {} };
  };
  api.answer = ({ path, query }) => {
    const { status, type, body } = route(path, query);
    return { status, type, text: JSON.stringify(body) };
  };
  const client = createClient({ baseUrl: api.baseUrl });
  const issues: ProjectionIssue[] = [];
  const made = generated.createTools({
    client,
    resolvers: generated.createResolvers(client),
    onIssue: (issue: ProjectionIssue) => issues.push(issue),
  });
  return { tools: made, issues };
}

const messages = (issues: readonly ProjectionIssue[]) => issues.map((issue) => issue.message);

describe("a get-by-id resolver's answer holding an error its schema does not declare", () => {
  it("labels no id: the id stays unresolved, with an issue quoting the API's words escaped", async () => {
    const { tools: made, issues } = tools(undefined, {
      u1: { body: { id: "u1", name: "Ann", error: "not found\u001b[2J" } },
    });
    const outcome = await made["list_tickets"]!({});
    expect(outcome.result?.["items"]).toEqual([expect.objectContaining({ assignee: { unresolved: "u1" }, reporter: "Person u2" })]);
    expect(messages(issues)).toEqual([
      'ticket.assignee_id: u1: resolver "users" failed for it: GET /users/{user_id} answered an error: not found\\u001b[2J; its labels are not used',
    ]);
  });

  it.each([
    ["empty", ""],
    ["a count of none", 0],
    ["false", false],
    ["a count of none, written as text", "0"],
    ["false, written as text", "false"],
    ["none, written as text", " None "],
  ])("still labels an id whose answer holds an error that says none (%s)", async (_, error) => {
    const { tools: made, issues } = tools(undefined, { u1: { body: { id: "u1", name: "Ann", error } } });
    const outcome = await made["list_tickets"]!({});
    expect(outcome.result?.["items"]).toEqual([expect.objectContaining({ assignee: "Ann" })]);
    expect(issues).toEqual([]);
  });
});

describe("a list resolver's answer holding an error beside its records", () => {
  it("labels none of the ids it asked for, unless the answer's schema declares the error as data", async () => {
    const erring = { body: { items: [{ id: "g1", name: "Core" }], error: "quota exceeded" } };
    const { tools: declared, issues: none } = tools(undefined, USERS, erring);
    expect((await declared["list_tickets"]!({})).result?.["items"]).toEqual([expect.objectContaining({ team: "Core" })]);
    expect(none).toEqual([]);

    const { tools: made, issues } = tools();
    const inner = api.answer;
    api.answer = (request) =>
      request.path === "/users"
        ? { text: JSON.stringify({ items: [{ id: "u2", name: "Bob" }], errors: [{ message: "partial failure" }] }) }
        : inner(request);
    const outcome = await made["list_tickets"]!({});
    expect(outcome.result?.["items"]).toEqual([expect.objectContaining({ reporter: { unresolved: "u2" } })]);
    expect(messages(issues)).toEqual([
      'ticket.reporter_id: u2: resolver "people" failed for it: GET /users answered an error: partial failure; its labels are not used',
    ]);
  });
});

describe("a success answer whose Content-Type is application/problem+json", () => {
  const problem = {
    status: 200,
    type: "application/problem+json; charset=utf-8",
    body: { type: "about:blank", title: "Out of credit", detail: "Your balance\u202e is 30", items: [TICKET] },
  };

  it("is a tool's error with the problem's words, escaped, whatever records its body holds", async () => {
    const { tools: made } = tools(problem);
    expect(await made["list_tickets"]!({})).toEqual({
      error: "list_tickets: the API answered 200 with a problem document: Your balance\\u202e is 30, so there is no result to show",
    });
    expect(await made["get_ticket"]!({ ticket_id: "t1" })).toEqual({
      error: "get_ticket: the API answered 200 with a problem document: Your balance\\u202e is 30, so there is no result to show",
    });
  });

  it("labels no id of a resolver", async () => {
    const { tools: made, issues } = tools(undefined, {
      u1: { ...problem, body: { title: "Gone", id: "u1", name: "Ann" } },
    });
    const outcome = await made["list_tickets"]!({});
    expect(outcome.result?.["items"]).toEqual([expect.objectContaining({ assignee: { unresolved: "u1" } })]);
    expect(messages(issues)).toEqual([
      'ticket.assignee_id: u1: resolver "users" failed for it: GET /users/{user_id} answered a problem document: Gone; its labels are not used',
    ]);
  });
});

describe("a JSON:API body holding data and a singular error", () => {
  const JSONAPI_SPEC = `openapi: 3.0.3
info: { title: Desk, version: "1" }
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
components:
  schemas:
    Ticket:
      type: object
      properties:
        type: { type: string, enum: [ticket] }
        id: { type: string }
        attributes: { type: object, properties: { subject: { type: string } } }
`;
  const JSONAPI_ANNOTATION = `spec: spec.yaml
output: gen
resources:
  ticket:
    fields:
      id: { drop: "no tool here takes it" }
      subject: keep
tools:
  list_tickets: { operation: listTickets }
`;

  it("is refused as an error document, as data beside errors is", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "spec.yaml"), JSONAPI_SPEC);
    writeFileSync(join(dir, "projector.yaml"), JSONAPI_ANNOTATION);
    const output = await generateFrom(join(dir, "projector.yaml"));
    expect(output.problems).toEqual([]);
    const { createTools } = await importGenerated<Generated>(output.files);
    const answering = (body: unknown) => ({ GET: async () => ({ data: body, response: { status: 200, ok: true } }) });
    const listed = (body: unknown) => createTools({ client: answering(body), resolvers: {} })["list_tickets"]!({});
    const record = { type: "ticket", id: "t1", attributes: { subject: "Printer" } };
    expect(await listed({ data: [record], error: "index unavailable" })).toEqual({
      error: "list_tickets: the API answered 200 but its body is an error document: index unavailable, so there is no result to show",
    });
    expect((await listed({ data: [record], error: null })).result).toEqual({ tickets: [{ subject: "Printer" }] });
  });
});

describe("a value of another type than a legend's codes", () => {
  const issues: ProjectionIssue[] = [];
  const ctx = context("ticket", { onIssue: (issue) => issues.push(issue) });
  const at = { field: "priority", required: false, ctx };
  const INTEGER_CODES = new Map<unknown, string>([
    [1, "low"],
    [2, "high"],
  ]);
  const TEXT_CODES = new Map<unknown, string>([
    ["bug", "defect"],
    ["task", "chore"],
  ]);

  it.each([
    [true, "expected an integer code, got boolean"],
    [false, "expected an integer code, got boolean"],
    ["1", "expected an integer code, got string"],
    [[1], "expected an integer code, got array"],
  ])("is unusable where the codes are integers: %j", (value, marker) => {
    expect(legend(value, { ...at, words: INTEGER_CODES })).toEqual({ unusable: marker });
    expect(member(value, { ...at, allowed: new Set(INTEGER_CODES.keys()) })).toEqual({ unusable: marker });
  });

  it.each([
    [true, "expected a string code, got boolean"],
    [{ code: "bug" }, "expected a string code, got object"],
    [["bug"], "expected a string code, got array"],
    [7, "expected a string code, got number"],
  ])("is unusable where the codes are text: %j", (value, marker) => {
    expect(legend(value, { ...at, words: TEXT_CODES })).toEqual({ unusable: marker });
  });

  it("keeps a code of the codes' type the legend has no word for as an unknown code", () => {
    expect(legend(9, { ...at, words: INTEGER_CODES })).toEqual({ unknown_code: 9 });
    expect(legend("epic", { ...at, words: TEXT_CODES })).toEqual({ unknown_code: "epic" });
  });

  it("is unusable where a resolver gives the words, since a resolver looks up text or numbers", () => {
    const labels = new Map<string, string>([["1", "low"]]);
    expect(legendLookup(true, { ...at, labels, resolver: "priorities", key: "priority" })).toEqual({
      unusable: "expected a code, got boolean",
    });
  });

  it("reaches the model as unusable from a generated tool, for an integer code and a text one", async () => {
    const { tools: made } = tools({ body: { items: [{ ...TICKET, priority: true, kind: false }] } });
    const outcome = await made["list_tickets"]!({});
    expect(outcome.result?.["items"]).toEqual([
      expect.objectContaining({
        priority: { unusable: "expected an integer code, got boolean" },
        kind: { unusable: "expected a string code, got boolean" },
      }),
    ]);
  });

  it("is refused in a legend parameter's argument before any request", async () => {
    const { tools: made } = tools();
    const outcome = await made["list_tickets"]!({ priority: true });
    expect(outcome.error).toBe("list_tickets: bad arguments: priority must be string, not true");
  });
});
