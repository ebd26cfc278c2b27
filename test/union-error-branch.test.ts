// A success response declared as a union of the record and an error (`oneOf: [Thing, Problem]`): the
// error's members are never drafted as the record's, and a body that is the error is refused as one,
// with the API's words, never projected as a record of nulls.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProjectionIssue } from "../templates/runtime/context.js";
import { cli, generateFrom, importGenerated, tempDir } from "./helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Things, version: "1" }
paths:
  /things/{thing_id}:
    get:
      operationId: getThing
      parameters: [{ name: thing_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the thing, or a problem
          content:
            application/json:
              schema:
                oneOf: [{ $ref: "#/components/schemas/Thing" }, { $ref: "#/components/schemas/Problem" }]
  /things:
    get:
      operationId: listThings
      responses:
        "200":
          description: a page of things, or an error written inline
          content:
            application/json:
              schema:
                anyOf:
                  - type: object
                    properties:
                      items: { type: array, items: { $ref: "#/components/schemas/Thing" } }
                  - type: object
                    properties:
                      error: { type: string }
                      error_description: { type: string }
  /faults/{fault_id}:
    get:
      operationId: getFault
      parameters: [{ name: fault_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: a fault an error tracker recorded, or a thing; both records
          content:
            application/json:
              schema:
                oneOf: [{ $ref: "#/components/schemas/Thing" }, { $ref: "#/components/schemas/ErrorEvent" }]
components:
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties:
        id: { type: string }
        name: { type: string }
        status: { type: string }
    Problem:
      type: object
      required: [code, message]
      properties:
        code: { type: integer }
        message: { type: string }
        status: { type: integer }
    ErrorEvent:
      type: object
      properties:
        id: { type: string }
        message: { type: string }
`;

const ANNOTATION = `spec: things.yaml
output: generated/things
resources:
  thing:
    schema: Thing
    fields:
      id: { argument: [get_thing] }
      name: keep
      status: keep
tools:
  get_thing: { operation: getThing }
  list_things: { operation: listThings }
`;

type Project = (response: unknown, resolvers?: unknown, options?: { onIssue?: (issue: ProjectionIssue) => void }) => Promise<unknown>;
type Generated = Record<string, Project> & { ResponseShapeError: new (...args: never[]) => Error };

let dir: string;
let generated: Awaited<ReturnType<typeof generateFrom>>;
let module: Generated;

beforeAll(async () => {
  dir = tempDir();
  writeFileSync(join(dir, "things.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  generated = await generateFrom(join(dir, "projector.yaml"));
  expect(generated.problems).toEqual([]);
  module = await importGenerated<Generated>(generated.files);
}, 60_000);

async function projected(tool: string, body: unknown) {
  const issues: ProjectionIssue[] = [];
  try {
    return { result: await module[tool]!(body, {}, { onIssue: (issue) => issues.push(issue) }), issues };
  } catch (error) {
    expect(error).toBeInstanceOf(module.ResponseShapeError);
    return { error: (error as Error).message, issues };
  }
}

describe("init", () => {
  it("drafts the record's members alone, named for the record's schema, and reads an error-tracker's events as records", async () => {
    const draftDir = tempDir();
    writeFileSync(join(draftDir, "things.yaml"), SPEC);
    expect((await cli(["init", "things.yaml"], draftDir)).code).toBe(0);
    const draft = readFileSync(join(draftDir, "projector.yaml"), "utf8");
    expect(draft).toContain("  thing:\n    schema: Thing\n    fields:\n");
    expect(draft).not.toMatch(/^\s+(code|error|error_description): /m);
    // Two records, one of them named for errors: its members stay the merged record's.
    expect(draft).toMatch(/^ {6}message: keep/m);
  });
});

describe("generate", () => {
  it("keys the record by the members an error does not share, and tells the error by the members the record lacks", () => {
    const tools = Object.fromEntries(generated.model!.tools.map((t) => [t.name, [t.recordKeys, t.errorKeys]]));
    expect(tools).toEqual({
      get_thing: [
        ["id", "name"],
        ["code", "message"],
      ],
      list_things: [
        ["id", "name", "status"],
        ["error", "error_description"],
      ],
    });
  });
});

describe("the run time", () => {
  it("projects the record", async () => {
    expect(await projected("projectGetThing", { id: "t1", name: "Lamp", status: "lit" })).toEqual({
      result: { id: "t1", name: "Lamp", status: "lit" },
      issues: [],
    });
  });

  it("refuses the error the union allows, with its words, and tells onIssue", async () => {
    const { error, issues } = await projected("projectGetThing", { code: 404, message: "no such thing", status: 404 });
    expect(error).toBe("get_thing: the response body is an error document: no such thing");
    expect(issues.map((issue) => [issue.kind, issue.message])).toEqual([["unusable", error]]);
  });

  it("refuses an error written inline beside a list, and a body that is neither as no list", async () => {
    expect((await projected("projectListThings", { error: "invalid_token", error_description: "expired" })).error).toBe(
      "list_things: the response body is an error document: expired",
    );
    expect((await projected("projectListThings", { status: "ok" })).error).toMatch(
      /^list_things: the response body is not a list of thing records/,
    );
  });

  it("still refuses a body with none of the record's keys and nothing of the error's as no record", async () => {
    expect((await projected("projectGetThing", { status: "lit" })).error).toBe(
      "get_thing: the response body is not one thing record (the body is an object with none of the keys a thing has)",
    );
  });
});
