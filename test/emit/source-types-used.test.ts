// openapi.ts types the part of the spec the generated code names (the tools' and resolvers'
// operations, the resources' schemas) and what that reaches by `$ref`; the rest of the spec is
// never typed, and an annotation edit that names nothing new reuses the types.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../../src/annotation/parse.js";
import { sourceTypes, usedDocument, usedParts } from "../../src/emit/source-types.js";
import { generate, type GenerateInput } from "../../src/generate.js";
import { createGenerateCache } from "../../src/generate-cache.js";
import { buildModel } from "../../src/model/build.js";
import { loadSpec } from "../../src/openapi/load.js";
import { fragmentPointer, SchemaReader, type JsonObject } from "../../src/openapi/schema.js";
import { readRuntimeTemplate } from "../../src/emit/runtime-template.js";
import { generateFrom, REAL_SPECS, ROOT, tempDir, typecheckFiles } from "../helpers/pipeline.js";

const json = { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } };
const SPEC = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "1" },
  paths: {
    "/pets/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: { operationId: "getPet", responses: { "200": { description: "a pet", content: json } } },
      delete: { operationId: "deletePet", responses: { "204": { description: "gone" } } },
    },
    "/owners": {
      get: {
        operationId: "listOwners",
        parameters: [{ $ref: "#/components/parameters/Unreached" }],
        responses: {
          "200": {
            description: "owners",
            content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Owner" } } } },
          },
        },
      },
      post: {
        operationId: "addOwner",
        responses: {
          "201": {
            description: "added",
            content: { "application/json": { schema: { type: "object", properties: { tag: { type: "string" } } } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: "object",
        required: ["id"],
        properties: {
          id: { type: "string" },
          name: { type: "string" },
          // Into the path item of an operation no tool calls, as a bundler writes a shared schema.
          tag: { $ref: "#/paths/~1owners/post/responses/201/content/application~1json/schema/properties/tag" },
          kind: {
            // Cat is reached through the mapping's bare name alone.
            oneOf: [{ $ref: "#/components/schemas/Dog" }],
            discriminator: { propertyName: "type", mapping: { cat: "Cat", dog: "#/components/schemas/Dog" } },
          },
        },
      },
      Cat: { type: "object", properties: { type: { type: "string" }, purrs: { type: "boolean" } } },
      Dog: { type: "object", properties: { type: { type: "string" }, barks: { type: "boolean" } } },
      Owner: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
      Unused: { type: "object", properties: { never: { type: "string" } } },
    },
    parameters: { Unreached: { name: "q", in: "query", schema: { type: "string" } } },
    securitySchemes: { token: { type: "http", scheme: "bearer" } },
  },
};

const ANNOTATION = `spec: pets.json
output: generated/pets
resources:
  pet:
    schema: Pet
    fields:
      id: { argument: [get_pet] }
      name: keep
      tag: keep
      kind: { drop: "not needed" }
tools:
  get_pet:
    operation: getPet
`;

function petsProject(annotation = ANNOTATION, spec: object = SPEC): string {
  const dir = tempDir();
  writeFileSync(join(dir, "pets.json"), JSON.stringify(spec));
  writeFileSync(join(dir, "projector.yaml"), annotation);
  return join(dir, "projector.yaml");
}

describe("openapi.ts", () => {
  it("names exactly the operations and schemas the tools use and what they reach, and the folder type-checks", async () => {
    const output = await generateFrom(petsProject());
    expect(output.problems).toEqual([]);
    const types = output.files.get("openapi.ts")!;
    for (const used of ['"/pets/{id}": {', "get: operations", "Pet: {", "Cat: {", "Dog: {"]) expect(types).toContain(used);
    // The bundled schema under `/owners` post keeps that operation, and only it.
    expect(types).toContain('"/owners": {');
    expect(types).toContain("post: operations");
    expect(types).not.toMatch(/\n\s+get: operations\["listOwners"\]/);
    for (const unused of [/deletePet/, /listOwners/, /\sOwner: /, /Unused/, /Unreached/, /never\?: string/])
      expect(types).not.toMatch(unused);
    // A client made with the whole spec's types, as openapi-typescript writes them, fits createTools.
    const consumer = [
      `import createClient from "openapi-fetch";`,
      `import { createTools } from "./index.js";`,
      `import type { paths } from "./whole.js";`,
      `export const tools = createTools({ client: createClient<paths>({ baseUrl: "https://pets.example" }) });`,
    ].join("\n");
    const whole = await sourceTypes(SPEC as JsonObject, "pets.json");
    expect(whole).toContain("deletePet");
    expect(typecheckFiles(output.files, { "whole.ts": whole, "consumer.ts": consumer })).toEqual([]);
  });

  it("leaves out what openapi-typescript cannot type when no tool reaches it", async () => {
    const untypable = {
      ...SPEC,
      paths: { ...SPEC.paths, "/broken": { get: { operationId: "broken", responses: { "200": null } } } },
      components: {
        ...SPEC.components,
        schemas: { ...SPEC.components.schemas, Loop: { $ref: "#/components/schemas/Loop2" }, Loop2: { $ref: "#/components/schemas/Loop" } },
      },
    };
    const output = await generateFrom(petsProject(ANNOTATION, untypable));
    expect(output.problems).toEqual([]);
    expect(output.files.get("openapi.ts")).toContain("getPet");
  });

  it("is typed again for an annotation edit that adds an operation, and reused for one that changes a field rule", async () => {
    const runtimeTemplate = await readRuntimeTemplate();
    const dir = tempDir();
    writeFileSync(join(dir, "pets.json"), JSON.stringify(SPEC));
    const spec = await loadSpec(join(dir, "pets.json"), "pets.json");
    const cache = createGenerateCache();
    const input = (text: string): GenerateInput => ({
      annotation: parseAnnotation(text, "projector.yaml"),
      spec,
      runtimeTemplate,
      prettierOptions: null,
      format: false,
      names: { spec: "pets.json", annotation: "projector.yaml" },
      cache,
    });
    const typesNow = () => cache.bySpec.get(spec.document)?.sourceTypes?.types;
    await generate(input(ANNOTATION));
    const first = typesNow();
    expect(first).toBeDefined();

    const renamed = await generate(input(ANNOTATION.replace("name: keep", "name: { as: called }")));
    expect(renamed.files.get("resources/pet.ts")).toContain("called");
    expect(typesNow()).toBe(first);

    const owner = `${ANNOTATION.replace("resources:\n", "resources:\n  owner:\n    schema: Owner\n    fields:\n      id: { drop: no tool takes it }\n      name: keep\n")}  list_owners:\n    operation: listOwners\n    list: owners\n`;
    const widened = await generate(input(owner));
    expect(widened.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(typesNow()).not.toBe(first);
    expect(widened.files.get("openapi.ts")).toContain("listOwners");
    expect(widened.files.get("openapi.ts")).toContain("Owner: {");
  });
});

/** The typical annotations of test/bench/typical/, by the real spec each is for. */
const TYPICAL: [annotation: string, spec: string][] = [
  ["box", "box_openapi.json"],
  ["datadog", "datadog_v2_openapi.yaml"],
  ["digitalocean", "digitalocean/specification/DigitalOcean-public.v2.yaml"],
  ["pagerduty", "pagerduty_rest_openapiv3.json"],
  ["sentry", "sentry_openapi_derefed.json"],
  ["tidal", "tidal_api_oas.json"],
];

/** Every `$ref` a value holds, with a discriminator mapping's targets. */
function refsIn(value: unknown, refs: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, refs);
  else if (typeof value === "object" && value !== null) {
    const object = value as JsonObject;
    if (typeof object["$ref"] === "string") refs.push(object["$ref"]);
    const mapping = (object["discriminator"] as JsonObject | undefined)?.["mapping"];
    if (typeof mapping === "object" && mapping !== null)
      for (const target of Object.values(mapping))
        if (typeof target === "string") refs.push(target.startsWith("#") ? target : `#/components/schemas/${target}`);
    for (const inner of Object.values(object)) refsIn(inner, refs);
  }
  return refs;
}

describe.skipIf(!existsSync(REAL_SPECS))("the used part of a real spec, for its typical annotation", () => {
  it.each(TYPICAL)("%s: every $ref resolves inside it, and every operation and schema the code names is in it", async (name, entry) => {
    const specPath = join(REAL_SPECS, entry);
    const text = readFileSync(join(ROOT, `test/bench/typical/${name}.yaml`), "utf8").replace(
      /^spec: .*$/m,
      `spec: ${JSON.stringify(specPath)}`,
    );
    const spec = await loadSpec(specPath, entry);
    const { model } = buildModel(parseAnnotation(text, `${name}.yaml`), spec);
    const used = usedParts(model!);
    const document = usedDocument(spec.document, used);
    const resolves = (within: JsonObject) => (ref: string) =>
      ref.startsWith("#") && new SchemaReader(within).pointer(fragmentPointer(ref)) !== undefined;
    const unresolved = refsIn(document).filter((ref) => resolves(spec.document)(ref) && !resolves(document)(ref));
    expect(unresolved).toEqual([]);
    const paths = document["paths"] as Record<string, JsonObject>;
    for (const operation of used.operations) {
      const [method, path] = [operation.slice(0, operation.indexOf(" ")), operation.slice(operation.indexOf(" ") + 1)];
      expect(paths[path]?.[method] ?? paths[path]?.["$ref"], operation).toBeDefined();
    }
    const schemas = (document["components"] as { schemas: JsonObject }).schemas;
    for (const schema of used.schemas) expect(schemas[schema], schema).toBeDefined();
    expect(Object.keys(paths).length).toBeLessThan(Object.keys(spec.document["paths"] as JsonObject).length);
  });
});
