// A spec spread over files, as DigitalOcean's is: the bundler inlines a model where it first meets it and
// points every later use at that place, inside `paths` and through a percent-encoded `{id}`; it leaves
// discriminator mappings naming other files as written; and a `properties` map may itself be a `$ref`.
// The generated folder must still see the records' fields and compile under the strict flags.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateFrom, tempDir, typecheckFiles } from "./helpers/pipeline.js";

function write(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

describe("a spec joined by relative $refs", () => {
  it("generates the records' fields from refs into templated paths, and the folder compiles", async () => {
    const dir = tempDir();
    write(dir, {
      "spec.yaml": [
        "openapi: 3.0.3",
        "info: { title: t, version: '1' }",
        "paths:",
        "  /things/{thing_id}:",
        "    get:",
        "      operationId: get_thing",
        "      parameters: [{ name: thing_id, in: path, required: true, schema: { type: integer } }]",
        "      responses:",
        "        '200': { description: ok, content: { application/json: { schema: { properties: { thing: { $ref: 'models/thing.yml' } } } } } }",
        "  /things:",
        "    get:",
        "      operationId: list_things",
        "      responses:",
        "        '200': { description: ok, content: { application/json: { schema: { properties: { things: { type: array, items: { $ref: 'models/thing.yml' } } } } } } }",
        "    post:",
        "      operationId: create_thing",
        "      requestBody:",
        "        content:",
        "          application/json:",
        "            schema:",
        "              oneOf: [{ $ref: 'models/small.yml' }, { $ref: 'models/large.yml' }]",
        "              discriminator: { propertyName: kind, mapping: { small: 'models/small.yml', large: 'models/large.yml' } }",
        "      responses:",
        "        '201': { description: created }",
      ].join("\n"),
      "models/thing.yml": "type: object\nproperties:\n  id: { type: integer }\n  name: { type: string }\n  parent: { $ref: 'thing.yml' }\n",
      "models/small.yml": "type: object\nproperties:\n  $ref: 'shared.yml#/properties'\n",
      "models/large.yml": "type: object\nproperties:\n  kind: { type: string }\n  size: { type: integer }\n",
      "models/shared.yml": "properties:\n  kind: { type: string }\n  name: { type: string }\n",
      "projector.yaml": [
        "spec: spec.yaml",
        "output: out",
        "resources:",
        "  thing:",
        "    fields:",
        "      id: { argument: [get_thing] }",
        "      name: keep",
        "      parent.id: { as: parent_id, argument: [get_thing] }",
        "      parent.name: { as: parent }",
        '      parent.parent: { drop: "one level is enough" }',
        "tools:",
        "  list_things:",
        "    operation: list_things",
        "    resource: thing",
        "    list: things",
        "  get_thing:",
        "    operation: get_thing",
        "    resource: thing",
      ].join("\n"),
    });
    const generated = await generateFrom(join(dir, "projector.yaml"));
    expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
    expect(generated.model!.tools.map((t) => [t.name, t.resource.fields.map((f) => f.out)])).toEqual([
      ["list_things", ["id", "name", "parent_id", "parent"]],
      ["get_thing", ["id", "name", "parent_id", "parent"]],
    ]);
    expect(typecheckFiles(generated.files)).toEqual([]);
  }, 120_000);
});
