// `argument: [tools]` with `shorten`: an id the model passes back to tools.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fieldSchema } from "../../src/emit/json-schema.js";
import { ARGUMENT, relatedRead } from "../../src/rules/argument.js";
import type { RelatedIdField, ValueField } from "../../src/rules/field.js";
import { fieldProblems } from "./field-problems.js";
import { generateFrom, tempDir, typecheckFiles } from "../helpers/pipeline.js";
import { checkProblems, facts, valueField, valueScope } from "./rule-checks.js";

const scope = { runtime: (name: string) => name, literal: (value: unknown) => JSON.stringify(value) };
const common = { out: "owner", name: "owner_id", source: { base: "record" as const, path: ["owner_id"] } };

describe("the argument rule", () => {
  it("takes one tool or a list, and shorten as true or false, each problem at its key", () => {
    expect(ARGUMENT.parse!({ argument: "get_user", shorten: true }, () => undefined)).toEqual({ argument: ["get_user"], shorten: true });
    expect(fieldProblems("      a: { argument: [1], shorten: yes }\n").map((d) => [d.message, d.location.column])).toEqual([
      ["`argument` must list the tools that take this id", 22],
      ["`shorten` must be true or false", 36],
    ]);
  });

  it("shortens only string ids kept as arguments", () => {
    expect(checkProblems(ARGUMENT, { shorten: true }, facts({ kind: "integer" }))).toEqual([
      ["PRJ029", "`shorten` applies to argument ids only", "shorten"],
      ["PRJ029", "`shorten` applies to string ids only", "shorten"],
    ]);
    expect(checkProblems(ARGUMENT, { shorten: true }, facts({ role: "relationship" }))).toEqual([
      ["PRJ029", "`shorten` does not apply to a relationship", "shorten"],
    ]);
    const integers = facts({ role: "join key", joinedIdKind: () => "integer" });
    expect(checkProblems(ARGUMENT, { join: "users", argument: ["t"], shorten: true }, integers)).toEqual([
      ["PRJ029", "`shorten` applies to string ids only, and this join key's ids are integers", "shorten"],
    ]);
  });

  it("reads an id by the type the spec declares, and related ids with named options, none that carries nothing", () => {
    const value = (shape: ValueField["shape"], shorten: boolean): ValueField => ({
      kind: "value",
      ...common,
      shape,
      shorten,
      required: true,
    });
    const argumentRead = (field: ValueField) => ARGUMENT.value!.read(field, "v", valueScope);
    expect(argumentRead(value({ type: "integer" }, false)).reader).toBe("integerId");
    expect(argumentRead(value({ type: "string" }, true)).reader).toBe("shortArgumentId");
    expect(argumentRead(value({ type: "unknown" }, false)).reader).toBe("textOrNumberId");
    const related: RelatedIdField = {
      kind: "related-id",
      ...common,
      many: true,
      argumentOf: ["t"],
      shorten: false,
      textIds: true,
      linkageTypes: ["user"],
    };
    const handle = (keys: { id: string } | null): RelatedIdField => ({ ...related, many: false, property: { keys, integer: false } });
    expect(relatedRead(scope, handle({ id: "gid" }), "v").options).toEqual([
      ["idKey", '"gid"'],
      ["ids", "TEXT_IDS"],
      ["shorten", "false"],
    ]);
    expect(relatedRead(scope, handle(null), "v")).toEqual({
      reader: "refIdOne",
      value: "v",
      options: [
        ["ids", "TEXT_IDS"],
        ["shorten", "false"],
      ],
    });
    expect(relatedRead(scope, related, "v")).toEqual({
      reader: "relatedMany",
      value: 'relationshipIds(v, { ids: TEXT_IDS, types: ["user"] })',
      options: [],
    });
  });
});

const SERVERS = `openapi: 3.0.0
info: { title: Servers, version: 1.0.0 }
paths:
  /servers:
    get:
      operationId: ListServers
      responses:
        "200":
          description: Servers
          content:
            application/json:
              schema: { type: array, items: { $ref: "#/components/schemas/Server" } }
components:
  schemas:
    Server:
      type: object
      required: [name, region, rack, slot]
      properties:
        name: { type: string }
        region: { type: string, enum: [eu-west, us-east] }
        rack: { type: number }
        slot: { type: integer }
`;

/** What generate makes of a list_servers tool whose server resource has these fields. */
function generatedServers(fields: string) {
  const dir = tempDir();
  writeFileSync(join(dir, "openapi.yaml"), SERVERS);
  writeFileSync(
    join(dir, "projector.yaml"),
    `spec: openapi.yaml\noutput: out\nresources:\n  server:\n    schema: Server\n    fields:\n${fields}tools:\n  list_servers:\n    operation: ListServers\n`,
  );
  return generateFrom(join(dir, "projector.yaml"));
}

describe("an argument id in the result", () => {
  it("is typed and described as its reader gives it, text or an integer, whatever the spec's enum or number", async () => {
    const { problems, files } = await generatedServers(`      name: keep
      region: { argument: [list_servers] }
      rack: { argument: [list_servers] }
      slot: { argument: [list_servers] }
`);
    expect(problems).toEqual([]);
    const server = files.get("resources/server.ts")!;
    expect(server).toContain("region: string | null | Unusable;");
    expect(server).toContain("rack: string | null | Unusable;");
    expect(server).toContain("slot: number | null | Unusable;");
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("has the result schema of text or an integer, with no unknown code", () => {
    const schema = (shape: ValueField["shape"]) => fieldSchema(valueField({ shape, argumentOf: ["list_servers"] }));
    const pass = { description: "Pass to list_servers." };
    expect(schema({ type: "literal", values: ["eu-west", "us-east"] })).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }, { $ref: "#/$defs/unusable" }],
      ...pass,
    });
    expect(schema({ type: "number" })).toEqual({ anyOf: [{ type: "string" }, { type: "null" }, { $ref: "#/$defs/unusable" }], ...pass });
    expect(schema({ type: "integer" })).toEqual({ anyOf: [{ type: "integer" }, { type: "null" }, { $ref: "#/$defs/unusable" }], ...pass });
  });
});

describe("an argument naming no tool of the annotation", () => {
  it("is a warning where a tool of the annotation is a letter or two from it or written another way, and passes unsaid where none is", async () => {
    const { problems, diagnostics } = await generatedServers(`      name: { argument: [list_severs, restart_server, listServers] }
      region: keep
      rack: keep
      slot: keep
`);
    expect(problems).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.severity, d.message, d.location.line, d.location.column])).toEqual([
      [
        "PRJ092",
        "warning",
        'server.name: `argument:` names list_severs, which is no tool of this annotation (did you mean "list_servers"?)',
        7,
        26,
      ],
      [
        "PRJ092",
        "warning",
        'server.name: `argument:` names listServers, which is no tool of this annotation (did you mean "list_servers"?)',
        7,
        55,
      ],
    ]);
  });
});
