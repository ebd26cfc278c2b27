// A success response declared as a union of the record and an error (`oneOf: [Thing, Problem]`): the
// error's members are never drafted as the record's, and a body that is the error is refused as one,
// with the API's words, never projected as a record of nulls.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers/pipeline.js";
import { generatedFolder, projectedBy, type Projections } from "./helpers/projected.js";

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
  /health:
    get:
      operationId: getHealth
      responses:
        "200":
          description: the service's health, or an error that shares its members
          content:
            application/json:
              schema:
                oneOf: [{ $ref: "#/components/schemas/Health" }, { $ref: "#/components/schemas/ErrorResponse" }]
  /reports/{report_id}:
    get:
      operationId: getReport
      parameters: [{ name: report_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the report, or word that it is still being made; both records
          content:
            application/json:
              schema:
                oneOf: [{ $ref: "#/components/schemas/Report" }, { $ref: "#/components/schemas/ReportPending" }]
  /pets/{pet_id}:
    get:
      operationId: getPet
      parameters: [{ name: pet_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: a cat or a dog, or an error named in capitals and holding an id
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: "#/components/schemas/Cat"
                  - $ref: "#/components/schemas/Dog"
                  - $ref: "#/components/schemas/APIError"
  /tokens/{token_id}:
    get:
      operationId: getToken
      parameters: [{ name: token_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: a token, or OAuth's error written inline
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: "#/components/schemas/Thing"
                  - type: object
                    properties:
                      error: { type: string }
                      error_description: { type: string }
                      error_uri: { type: string }
  /pages:
    get:
      operationId: listPages
      responses:
        "200":
          description: a page of things, or a problem declaring a list of errors
          content:
            application/json:
              schema:
                oneOf: [{ $ref: "#/components/schemas/ThingPage" }, { $ref: "#/components/schemas/ValidationProblem" }]
  /mixed:
    get:
      operationId: listMixed
      responses:
        "200":
          description: a list whose items are things, or errors in their place
          content:
            application/json:
              schema:
                type: object
                properties:
                  data: { type: array, items: { anyOf: [{ $ref: "#/components/schemas/Thing" }, { $ref: "#/components/schemas/APIError" }] } }
  /wrapped/{thing_id}:
    get:
      operationId: getWrappedThing
      parameters: [{ name: thing_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the thing, or a problem, under data
          content:
            application/json:
              schema:
                type: object
                properties:
                  data: { oneOf: [{ $ref: "#/components/schemas/Thing" }, { $ref: "#/components/schemas/Problem" }] }
  /animals/{animal_id}:
    get:
      operationId: getAnimal
      parameters: [{ name: animal_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: a cat or a dog, or a problem, under data
          content:
            application/json:
              schema:
                type: object
                properties:
                  data:
                    oneOf:
                      - $ref: "#/components/schemas/Cat"
                      - $ref: "#/components/schemas/Dog"
                      - $ref: "#/components/schemas/Problem"
  /labelled/{thing_id}:
    get:
      operationId: getLabelled
      parameters: [{ name: thing_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the thing, or an error holding every member the thing requires
          content:
            application/json:
              schema:
                oneOf: [{ $ref: "#/components/schemas/Thing" }, { $ref: "#/components/schemas/LabelError" }]
components:
  schemas:
    LabelError:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
        message: { type: string }
    ThingPage:
      type: object
      properties:
        items: { type: array, items: { $ref: "#/components/schemas/Thing" } }
    ValidationProblem:
      type: object
      properties:
        code: { type: integer }
        errors: { type: array, items: { type: object, properties: { detail: { type: string } } } }
    Health:
      type: object
      properties:
        status: { type: string }
        code: { type: integer }
    ErrorResponse:
      type: object
      properties:
        status: { type: string }
        code: { type: integer }
        message: { type: string }
    Report:
      type: object
      properties:
        id: { type: string }
        title: { type: string }
    ReportPending:
      type: object
      properties:
        status: { type: string }
        message: { type: string }
    Cat:
      type: object
      properties:
        id: { type: string }
        meows: { type: boolean }
    Dog:
      type: object
      properties:
        id: { type: string }
        barks: { type: boolean }
    APIError:
      type: object
      properties:
        id: { type: string, description: a short word for the kind of error, such as not_found }
        errorCode: { type: integer }
        errorMessage: { type: string }
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
  health:
    schema: Health
    fields:
      status: keep
      code: keep
  pet:
    fields:
      id: { argument: [get_pet] }
      meows: keep
      barks: keep
  animal:
    fields:
      id: { argument: [get_animal] }
      meows: keep
      barks: keep
tools:
  get_thing: { operation: getThing }
  list_things: { operation: listThings }
  get_health: { operation: getHealth }
  get_pet: { operation: getPet, resource: pet }
  get_token: { operation: getToken }
  list_pages: { operation: listPages }
  list_mixed: { operation: listMixed }
  get_wrapped_thing: { operation: getWrappedThing }
  get_animal: { operation: getAnimal, resource: animal }
  get_labelled: { operation: getLabelled }
`;

let generated: Awaited<ReturnType<typeof generatedFolder>>["generated"];
let module: Projections;

beforeAll(async () => {
  ({ generated, module } = await generatedFolder("things.yaml", SPEC, ANNOTATION));
}, 60_000);

const projected = (tool: string, body: unknown) => projectedBy(module, tool, body);

describe("init", () => {
  it("drafts the record's members alone, named for the record's schema, and reads an error-tracker's events as records", async () => {
    const draftDir = tempDir();
    writeFileSync(join(draftDir, "things.yaml"), SPEC);
    expect((await cli(["init", "things.yaml"], draftDir)).code).toBe(0);
    const draft = readFileSync(join(draftDir, "projector.yaml"), "utf8");
    expect(draft).toContain("  thing:\n    schema: Thing\n    fields:\n");
    const thing = /^ {2}thing:\n(?: {4}.*\n)+/m.exec(draft)![0];
    expect(thing).not.toMatch(/^\s+(code|message|error|error_description|error_uri): /m);
    expect(draft).not.toMatch(/^\s+(errorCode|errorMessage): /m);
    // Nothing of an error is said to stand beside a list of records.
    expect(draft).not.toMatch(/beside it, not in the result: (code|error)/);
    // Two records, one of them named for errors: its members stay the merged record's.
    expect(draft).toMatch(/^ {6}message: keep/m);
    // A report, or word that it is pending: both records, the pending one's members drafted too.
    expect(draft).toMatch(/^ {2}get_report_record:\n(?: {4}.*\n)*? {6}status: keep/m);
    // A cat, a dog or an error: a tool of its own, the two records' members merged, none of the error's.
    expect(draft).toMatch(/^ {2}get_pet:\n {4}operation: getPet\n/m);
    expect(draft).toMatch(/^ {6}meows: keep/m);
    // Two records or an error under a plain `data`: the records, merged under the tool's name.
    expect(draft).toMatch(/^ {2}get_animal_record:\n {4}fields:\n(?: {6}.*\n)*? {6}barks: keep/m);
    // The record or the error under a plain `data`: the record, no join of a `data` to resolve.
    expect(draft).toMatch(/^ {2}get_wrapped_thing:\n {4}operation: getWrappedThing\n {4}inputs:/m);
    expect(draft).not.toMatch(/join: datas|^ {6}data: /m);
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
      get_health: [["code", "status"], ["message"]],
      get_pet: [
        ["barks", "meows"],
        ["errorCode", "errorMessage"],
      ],
      get_token: [
        ["id", "name", "status"],
        ["error", "error_description", "error_uri"],
      ],
      list_pages: [
        ["id", "name", "status"],
        ["code", "errors"],
      ],
      list_mixed: [
        ["id", "name", "status"],
        ["errorCode", "errorMessage"],
      ],
      get_wrapped_thing: [
        ["id", "name"],
        ["code", "message"],
      ],
      get_animal: [
        ["barks", "id", "meows"],
        ["code", "message", "status"],
      ],
      // The members the thing requires, though the error has them too: the error is told by its `message`.
      get_labelled: [["id", "name", "status"], ["message"]],
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

  it("refuses an error beside the records, where only the union's error declares it", async () => {
    expect((await projected("projectListPages", { items: [], errors: [{ detail: "rate limited" }] })).error).toBe(
      "list_pages: the response body is an error document: rate limited",
    );
    expect((await projected("projectGetToken", { id: "t1", name: "x", error: "invalid_token" })).error).toBe(
      "get_token: the response body is an error document: invalid_token",
    );
  });

  it("refuses an error that shares every member of the record but its words", async () => {
    expect((await projected("projectGetHealth", { status: "ok", code: 200 })).result).toEqual({ status: "ok", code: 200 });
    expect((await projected("projectGetHealth", { status: "UNAVAILABLE", code: 503, message: "database is down" })).error).toBe(
      "get_health: the response body is an error document: database is down",
    );
  });

  it("tells an error named in capitals, holding an id, from the records beside it, with its words", async () => {
    expect((await projected("projectGetPet", { id: "p1", meows: true })).result).toEqual({ id: "p1", meows: true, barks: null });
    expect((await projected("projectGetPet", { id: "not_found", errorCode: 404, errorMessage: "no such pet" })).error).toBe(
      "get_pet: the response body is an error document: no such pet",
    );
  });

  it("refuses a page one of whose items is the error the items' union allows", async () => {
    expect(await projected("projectListMixed", { data: [{ id: "t1", name: "Lamp" }] })).toEqual({
      result: { things: [{ id: "t1", name: "Lamp", status: null }] },
      issues: [],
    });
    expect(
      (
        await projected("projectListMixed", {
          data: [
            { id: "t1", name: "Lamp" },
            { errorCode: 429, errorMessage: "rate limited" },
          ],
        })
      ).error,
    ).toBe("list_mixed: the response body is not a list of thing records at data (item 1 is an error: rate limited)");
  });

  it("refuses the error the union allows where the record is wrapped, and projects the record", async () => {
    expect((await projected("projectGetWrappedThing", { data: { id: "t1", name: "Lamp" } })).result).toEqual({
      id: "t1",
      name: "Lamp",
      status: null,
    });
    const { error, issues } = await projected("projectGetWrappedThing", { data: { code: 404, message: "no such thing" } });
    expect(error).toBe("get_wrapped_thing: the response body is not one thing record at data (data is an error: no such thing)");
    expect(issues.map((issue) => issue.kind)).toEqual(["unusable"]);
  });

  it("refuses the error where several records or it may be wrapped, and projects each record", async () => {
    expect((await projected("projectGetAnimal", { data: { id: "d1", barks: true } })).result).toEqual({
      id: "d1",
      meows: null,
      barks: true,
    });
    expect((await projected("projectGetAnimal", { data: { code: 404, message: "no such animal" } })).error).toBe(
      "get_animal: the response body is not one animal record at data (data is an error: no such animal)",
    );
  });

  it("projects a record holding only what it requires, though the error may hold it too, and refuses the error by its own member", async () => {
    expect((await projected("projectGetLabelled", { id: "t1", name: "Lamp" })).result).toEqual({ id: "t1", name: "Lamp", status: null });
    expect((await projected("projectGetLabelled", { id: "t1", name: "Lamp", message: "gone" })).error).toBe(
      "get_labelled: the response body is an error document: gone",
    );
  });
});
