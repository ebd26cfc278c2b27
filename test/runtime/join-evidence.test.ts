// A related record is named only on evidence that it is the record the field reads: JSON:API's type
// and id together, the id type the spec declares, and a label that names something.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  projectGetTicket,
  projectSearchTickets,
  ResponseShapeError,
  type GetTicketResponse,
  type ProjectionIssue,
  type Resolvers,
  type SearchTicketsResponse,
} from "../../generated/support/index.js";
import createClient from "openapi-fetch";
import { relationshipIds, TEXT_IDS } from "../../templates/runtime/ids.js";
import { specResolver } from "../../templates/runtime/spec-resolvers.js";
import { generateFrom, importGenerated, recordingResolver, ROOT, tempDir } from "../helpers/pipeline.js";

const page = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8")) as SearchTicketsResponse;

/** Resolvers that record every id they are asked for and name each `<resolver> <id>`. */
function askedResolvers() {
  const asked: Record<string, string[]> = { users: [], orgs: [] };
  const named = (name: string) => async (ids: readonly string[]) => {
    asked[name]!.push(...ids);
    return new Map(ids.map((id) => [id, `${name} ${id}`]));
  };
  return { asked, resolvers: { users: named("users"), orgs: named("orgs") } as Resolvers };
}

describe("JSON:API linkage type", () => {
  it("refuses a linkage of a type the spec does not declare, even when `included` labels its id under another type", async () => {
    const { asked, resolvers } = askedResolvers();
    const issues: ProjectionIssue[] = [];
    const ticket = {
      data: {
        ...page.data[0]!,
        relationships: {
          assignee: { data: { type: "team", id: "5" } },
          organization: { data: { type: "user", id: "5" } },
        },
      },
      included: [
        { type: "user", id: "5", attributes: { display_name: "User Five" } },
        { type: "team", id: "5", attributes: { name: "Team Five" } },
      ],
    } as unknown as GetTicketResponse;
    const result = await projectGetTicket(ticket, resolvers, { onIssue: (issue) => issues.push(issue) });
    expect(result.assignee).toEqual({ unusable: 'expected a resource identifier of type "user", got one of another type' });
    expect(result.org).toEqual({ unusable: 'expected a resource identifier of type "organization", got one of another type' });
    expect(asked).toEqual({ users: [], orgs: [] });
    expect(issues.filter((i) => i.kind === "unusable").map((i) => i.field)).toEqual(["assignee", "organization"]);
  });

  it("still names a linkage of the declared type from `included`", async () => {
    const { resolvers } = askedResolvers();
    const ticket = {
      data: { ...page.data[0]!, relationships: { assignee: { data: { type: "user", id: "5" } } } },
      included: [
        { type: "team", id: "5", attributes: { display_name: "Team Five" } },
        { type: "user", id: "5", attributes: { display_name: "User Five" } },
      ],
    } as unknown as GetTicketResponse;
    expect((await projectGetTicket(ticket, resolvers)).assignee).toBe("User Five");
  });

  it("refuses a linkage whose type is missing or not text", () => {
    expect(relationshipIds({ data: { id: "5" } }, { ids: TEXT_IDS })).toMatchObject({
      reason: "expected a resource identifier with a text type, got none",
    });
    expect(
      relationshipIds(
        {
          data: [
            { type: 7, id: "5" },
            { type: "user", id: "6" },
          ],
        },
        { ids: TEXT_IDS, types: ["user"] },
      ),
    ).toMatchObject([{ reason: "expected a resource identifier with a text type, got a type that is number" }, "6"]);
  });
});

const PEOPLE_SPEC = `openapi: 3.1.0
info: { title: Projects, version: 1.0.0 }
paths:
  /projects:
    get:
      operationId: listProjects
      responses:
        "200":
          description: A page of projects
          content:
            application/json:
              schema:
                type: object
                properties:
                  projects:
                    type: array
                    items: { $ref: "#/components/schemas/Project" }
components:
  schemas:
    Project:
      type: object
      properties:
        name: { type: string }
        owner: { type: string }
        manager:
          type: object
          properties:
            pid: { type: string }
            name: { type: string }
`;

const PEOPLE_ANNOTATION = `spec: openapi.yaml
output: generated
resolvers:
  people: { id: pid, label: name }
resources:
  project:
    schema: Project
    fields:
      name: {}
      owner: { join: people }
      manager: { join: people }
tools:
  list_projects:
    operation: listProjects
`;

type ListProjects = (response: unknown, resolvers: unknown, options: unknown) => Promise<{ projects: Record<string, unknown>[] }>;

let generated: Promise<ListProjects> | undefined;
function listProjects(): Promise<ListProjects> {
  generated ??= (async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "openapi.yaml"), PEOPLE_SPEC);
    writeFileSync(join(dir, "projector.yaml"), PEOPLE_ANNOTATION);
    const output = await generateFrom(join(dir, "projector.yaml"));
    expect(output.problems).toEqual([]);
    return (await importGenerated<{ projectListProjects: ListProjects }>(output.files)).projectListProjects;
  })();
  return generated;
}

async function projectProjects(projects: Record<string, unknown>[]) {
  const { resolver, calls } = recordingResolver({ p1: "Pia", zz: "Asked" });
  const issues: ProjectionIssue[] = [];
  const result = await (
    await listProjects()
  )({ projects }, { people: resolver }, { onIssue: (issue: ProjectionIssue) => issues.push(issue) });
  return { projects: result.projects, asked: calls.flat(), issues };
}

describe("a join key the spec declares a text id", () => {
  it("marks an object sent in its place unusable, never showing the name it carries", async () => {
    const { projects, asked, issues } = await projectProjects([{ owner: { pid: "zz", name: "Embedded" } }, { owner: "p1" }]);
    expect(projects.map((p) => p["owner"])).toEqual([{ unusable: "expected a text id, got object" }, "Pia"]);
    expect(asked).toEqual(["p1"]);
    expect(issues.map((i) => [i.kind, i.field])).toEqual([["unusable", "owner"]]);
  });
});

describe("an embedded record the spec declares with a text id", () => {
  it("shows the name it carries only beside an id of the declared type", async () => {
    const { projects, asked, issues } = await projectProjects([
      { manager: { pid: "", name: "EmptyId" } },
      { manager: { pid: 0, name: "NumId" } },
      { manager: { name: "NoId" } },
      { manager: { pid: "p9", name: "Carried" } },
    ]);
    expect(projects.map((p) => p["manager"])).toEqual([
      { unusable: "expected a record with `pid` as text, got one whose `pid` is an empty string" },
      { unusable: "expected a record with `pid` as text, got one whose `pid` is number" },
      { unusable: "expected a record with `pid`, got an object without it" },
      "Carried",
    ]);
    expect(asked).toEqual([]);
    expect(issues.map((i) => [i.kind, i.field])).toEqual([
      ["unusable", "manager"],
      ["unusable", "manager"],
      ["unusable", "manager"],
    ]);
  });

  it("asks the resolver when the name it carries is empty", async () => {
    const { projects, asked } = await projectProjects([{ manager: { pid: "p1", name: "" } }]);
    expect(projects[0]!["manager"]).toBe("Pia");
    expect(asked).toEqual(["p1"]);
  });
});

describe("a JSON:API body holding both data and errors", () => {
  it("is the error document it also is, with the API's words, never a result", async () => {
    const { resolvers } = askedResolvers();
    const errors = [{ status: "500", detail: "Partial failure\u001b[2J: retry later" }];
    const issues: ProjectionIssue[] = [];
    const onIssue = (issue: ProjectionIssue) => issues.push(issue);
    const one = projectGetTicket({ data: page.data[0]!, errors } as unknown as GetTicketResponse, resolvers, { onIssue });
    await expect(one).rejects.toThrow(ResponseShapeError);
    await expect(one).rejects.toMatchObject({ problem: expect.stringMatching(/^is an error document: Partial failure/) });
    const list = projectSearchTickets({ ...page, errors } as unknown as SearchTicketsResponse, resolvers, { onIssue });
    await expect(list).rejects.toMatchObject({ tool: "search_tickets", problem: expect.stringMatching(/^is an error document: /) });
    expect(issues.map((i) => i.message).join("\n")).not.toContain("\u001b");
  });
});

describe("a list whose items are not all records of the tool's type", () => {
  it("is refused whole, never shown with rows of nulls", async () => {
    const { resolvers } = askedResolvers();
    for (const [item, got] of [
      [null, "item 1 is null, not a record"],
      [5, "item 1 is a number, not a record"],
      ["x", "item 1 is a string, not a record"],
      [[], "item 1 is a list, not a record"],
      [{ id: "t2", attributes: {} }, "item 1 is a record without a text type, not ticket"],
      [{ type: 7, id: "t2" }, "item 1 is a record without a text type, not ticket"],
    ] as const) {
      const body = { ...page, data: [page.data[0]!, item] } as unknown as SearchTicketsResponse;
      await expect(projectSearchTickets(body, resolvers)).rejects.toMatchObject({
        problem: `is not a list of ticket records at data (${got})`,
      });
    }
  });
});

describe("a label that names nothing, or names an id not asked for", () => {
  it("an empty label from `included` or a resolver leaves the id unresolved, with its issue", async () => {
    const asked: string[] = [];
    const resolvers = {
      users: async (ids: readonly string[]) => (asked.push(...ids), new Map(ids.map((id) => [id, ""]))),
      orgs: async () => new Map(),
    } as Resolvers;
    const issues: ProjectionIssue[] = [];
    const ticket = {
      data: { ...page.data[0]!, relationships: { assignee: { data: { type: "user", id: "5" } } } },
      included: [{ type: "user", id: "5", attributes: { display_name: "" } }],
    } as unknown as GetTicketResponse;
    const result = await projectGetTicket(ticket, resolvers, { onIssue: (issue) => issues.push(issue) });
    expect(result.assignee).toEqual({ unresolved: "5" });
    expect(asked).toEqual(["5"]);
    expect(issues.map((i) => [i.kind, i.field])).toEqual([["unresolved", "assignee"]]);
  });

  it("a list resolver keeps from each batch's answer only the ids that batch asked for", async () => {
    const answers: Record<string, { id: string; name: string }[]> = {
      "a,b": [
        { id: "a", name: "Ann" },
        { id: "b", name: "" },
        { id: "c", name: "Not asked here" },
      ],
      c: [],
    };
    const client = createClient({
      baseUrl: "http://api.test",
      fetch: async (request: Request) => {
        const ids = new URL(request.url).searchParams.getAll("ids").join(",");
        return new Response(JSON.stringify(answers[ids] ?? []), { headers: { "content-type": "application/json" } });
      },
    });
    const listUsers = specResolver(client, {
      method: "get",
      path: "/users",
      parameter: { name: "ids", in: "query" },
      max: 2,
      concurrency: 1,
      records: [],
      jsonapi: false,
      id: "id",
      label: ["name"],
    });
    const labels = await listUsers(["a", "b", "c"]);
    expect(labels.get("a")).toBe("Ann");
    expect(labels.has("b")).toBe(false);
    expect(labels.has("c")).toBe(false);
  });
});
