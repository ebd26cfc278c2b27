// openapi-typescript lints and bundles a document with redocly before typing it. generate types the
// document it has already bundled without those two passes wherever it can prove they would report
// nothing and change nothing (src/emit/without-redocly.ts). These tests hold that proof to redocly
// itself: on every document the check accepts, redocly's lint and bundle, run as openapi-typescript
// runs them, find no error and leave the document as it was; and the types come out byte for byte
// as openapi-typescript's own.
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forSourceTypes } from "../src/emit/source-types.js";
import { leftAloneByRedocly, typedWithoutRedocly, type Redocly } from "../src/emit/without-redocly.js";
import { loadSpec } from "../src/openapi/load.js";
import type { JsonObject } from "../src/openapi/schema.js";
import { ROOT } from "./helpers/pipeline.js";

const require = createRequire(import.meta.url);
const otEntry = require.resolve("openapi-typescript");
const ot = require(otEntry) as typeof import("openapi-typescript");
/** The redocly openapi-typescript loads, and what of it these tests run besides what the check reads. */
const redocly = createRequire(otEntry)("@redocly/openapi-core") as Redocly & {
  Source: new (path: string, body: string, mime: string) => object;
  BaseResolver: new (config: unknown) => object;
  lintDocument(options: object): Promise<{ severity: string; message: string }[]>;
  bundle(options: object): Promise<{ bundle: { parsed: unknown }; problems: { severity: string; message: string }[] }>;
};
const config = await redocly.createConfig({ rules: { "operation-operationId-unique": { severity: "error" } } }, { extends: ["minimal"] });

/** What redocly's lint and bundle make of a copy of the document, run as openapi-typescript runs them. */
async function byRedocly(document: JsonObject): Promise<{ errors: string[]; unchanged: boolean }> {
  const parsed = structuredClone(document);
  const doc = { source: new redocly.Source("/spec.json", JSON.stringify(parsed), "application/json"), parsed };
  const { styleguide, resolve } = config as unknown as { styleguide: unknown; resolve: unknown };
  try {
    const lint = await redocly.lintDocument({ document: doc, config: styleguide, externalRefResolver: new redocly.BaseResolver(resolve) });
    const bundled = await redocly.bundle({ config, dereference: false, doc });
    const expected = structuredClone(document);
    if (!expected["components"]) expected["components"] = {};
    return {
      errors: [...lint, ...bundled.problems].filter(({ severity }) => severity === "error").map(({ message }) => message),
      unchanged: JSON.stringify(bundled.bundle.parsed) === JSON.stringify(expected),
    };
  } catch (error) {
    return { errors: [`threw: ${(error as Error).message}`], unchanged: false };
  }
}

const base = (): JsonObject => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pet: { type: "object", discriminator: { propertyName: "kind" }, properties: { kind: { type: "string" } } },
      Dog: { allOf: [{ $ref: "#/components/schemas/Pet" }] },
      Alias: { $ref: "#/components/schemas/Dog" },
    },
    requestBodies: { NewPet: { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } },
  },
});
type Edit = (document: any) => void;

describe("leftAloneByRedocly", () => {
  it.each<[string, Edit, { accepted: boolean; byRedocly: { errors: string[]; unchanged: boolean } }]>([
    ["a bundled document", () => {}, { accepted: true, byRedocly: { errors: [], unchanged: true } }],
    [
      "a document without components, which the bundler adds",
      (d) => {
        delete d.components;
        d.paths["/pets"].get.responses["200"].content["application/json"].schema = { type: "string" };
      },
      { accepted: true, byRedocly: { errors: [], unchanged: true } },
    ],
    [
      "a discriminator mapping to a component's canonical $ref",
      (d) => void (d.components.schemas.Pet.discriminator.mapping = { dog: "#/components/schemas/Dog" }),
      { accepted: true, byRedocly: { errors: [], unchanged: true } },
    ],
    [
      "a mapping by bare name, which redocly cannot resolve",
      (d) => void (d.components.schemas.Pet.discriminator.mapping = { dog: "Dog" }),
      { accepted: false, byRedocly: { errors: ["Can't resolve $ref"], unchanged: true } },
    ],
    [
      "a mapping to a schema that is itself a $ref, which the bundler rewrites",
      (d) => void (d.components.schemas.Pet.discriminator.mapping = { dog: "#/components/schemas/Alias" }),
      { accepted: false, byRedocly: { errors: [], unchanged: false } },
    ],
    [
      "a $ref inside an extension, which the bundler inlines",
      (d) => void (d.components.schemas.Pet["x-extra"] = { nested: { $ref: "#/components/schemas/Dog" } }),
      { accepted: false, byRedocly: { errors: [], unchanged: false } },
    ],
    [
      "a $ref as a schema's example, which the bundler inlines",
      (d) => void (d.components.schemas.Pet.example = { $ref: "#/components/schemas/Dog" }),
      { accepted: false, byRedocly: { errors: [], unchanged: false } },
    ],
    [
      "an operationId used twice, which the lint reports",
      (d) => void (d.paths["/dogs"] = { get: { operationId: "listPets", responses: {} } }),
      { accepted: false, byRedocly: { errors: ["Every operation must have a unique `operationId`."], unchanged: true } },
    ],
    [
      "a $ref to nothing",
      (d) => void (d.components.schemas.Pet.properties.owner = { $ref: "#/components/schemas/Owner" }),
      { accepted: false, byRedocly: { errors: ["Can't resolve $ref"], unchanged: true } },
    ],
    [
      "a response $ref to a request body, walked as a response",
      (d) => void (d.paths["/pets"].get.responses["201"] = { $ref: "#/components/requestBodies/NewPet" }),
      { accepted: true, byRedocly: { errors: [], unchanged: true } },
    ],
    [
      "a $ref with siblings the walker reads",
      (d) =>
        void (d.components.schemas.Pet.properties.best = {
          $ref: "#/components/schemas/Dog",
          properties: { name: { type: "string" } },
          example: { name: "Rex" },
        }),
      { accepted: true, byRedocly: { errors: [], unchanged: true } },
    ],
    [
      "an example's externalValue, which the bundler reads from a file",
      (d) =>
        void (d.paths["/pets"].get.responses["200"].content["application/json"].examples = {
          one: { externalValue: "one.json" },
        }),
      { accepted: false, byRedocly: { errors: ["Can't resolve $ref: ENOENT: no such file or directory '/one.json'"], unchanged: true } },
    ],
    [
      "a mapping that is not a map",
      (d) => void (d.components.schemas.Pet.discriminator.mapping = "Dog"),
      { accepted: false, byRedocly: { errors: ["Can't resolve $ref"], unchanged: true } },
    ],
    [
      "a key an object inherits, outside the properties the copy renames",
      (d) => void (d.components.schemas.Pet.discriminator.hasOwnProperty = "kind"),
      { accepted: false, byRedocly: { errors: ["threw: Cannot convert undefined or null to object"], unchanged: false } },
    ],
    [
      "a cycle of $refs where no type is known, which the resolver follows",
      (d) => void (d["x-loop"] = { $ref: "#/x-loop" }),
      { accepted: false, byRedocly: { errors: ["threw: Self-referencing circular pointer"], unchanged: false } },
    ],
    [
      "a $ref's sibling the target holds too, which the resolver reads",
      (d) => {
        d.components.schemas.Pet.properties.best = { $ref: "#/components/schemas/Pet", discriminator: { mapping: { a: 1 } } };
      },
      { accepted: false, byRedocly: { errors: ["threw: mapping.startsWith is not a function"], unchanged: false } },
    ],
    [
      "an empty key, which gives two nodes one pointer",
      (d) => {
        d.paths = {};
        d.components = { schemas: { "": { items: {} }, items: { items: { $ref: "#/components/schemas/C" } }, C: {} } };
      },
      { accepted: false, byRedocly: { errors: ["Can't resolve $ref"], unchanged: true } },
    ],
    [
      "a root that is a $ref",
      (d) => {
        d.$ref = "#/x-root";
        d["x-root"] = {};
      },
      { accepted: false, byRedocly: { errors: [], unchanged: false } },
    ],
    [
      "an OpenAPI 2 document",
      (d) => {
        delete d.openapi;
        d.swagger = "2.0";
      },
      { accepted: false, byRedocly: { errors: [], unchanged: true } },
    ],
  ])("%s", async (_name, edit, expected) => {
    const document = base();
    edit(document);
    const result = await byRedocly(document);
    expect({ accepted: leftAloneByRedocly(structuredClone(document), redocly), byRedocly: result }).toEqual(expected);
  });

  /** Objects of the document with their paths, and the `$ref`s a random edit may write. */
  const places = (document: JsonObject): JsonObject[] => {
    const found: JsonObject[] = [];
    const visit = (node: unknown) => {
      if (typeof node !== "object" || node === null) return;
      if (!Array.isArray(node)) found.push(node as JsonObject);
      for (const value of Object.values(node)) visit(value);
    };
    visit(document);
    return found;
  };
  const REFS = [
    "#/components/schemas/Pet",
    "#/components/schemas/Dog",
    "#/components/schemas/Alias",
    "#/components/schemas/Pet/properties/kind",
    "#/components/requestBodies/NewPet",
    "#/components/schemas/Missing",
    "#/paths/~1pets/get",
    "#/paths/~1pets/get/responses/200",
    "#/components/schemas/P%65t",
    "#/components/schemas/%E0%A4%A",
    "other.yaml#/Pet",
  ];
  const KEYS = [
    "",
    "schema",
    "items",
    "example",
    "default",
    "x-extra",
    "description",
    "properties",
    "allOf",
    "mapping",
    "content",
    "kind",
    "200",
    "get",
  ];
  const value = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(...REFS).map(($ref) => ({ $ref })),
      fc.constantFrom("Dog", "#/components/schemas/Dog", "#/components/schemas/Alias", "listPets", 7),
      fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 2 }),
      fc.array(tie("value"), { maxLength: 2 }),
    ),
  })).value;
  const edits = fc.array(fc.tuple(fc.nat(), fc.constantFrom(...KEYS, "operationId", "discriminator"), value), {
    minLength: 1,
    maxLength: 3,
  });

  it("accepts only documents redocly's lint and bundle leave alone, on random edits", async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(edits, async (changes) => {
        const document = base();
        for (const [at, key, written] of changes) {
          const targets = places(document);
          targets[at % targets.length]![key] = structuredClone(written) as never;
        }
        if (!leftAloneByRedocly(structuredClone(document), redocly)) return;
        accepted++;
        expect(await byRedocly(document)).toEqual({ errors: [], unchanged: true });
      }),
      { numRuns: 400 },
    );
    // Not a test that passes by refusing everything.
    expect(accepted).toBeGreaterThan(40);
  });
});

describe("typedWithoutRedocly", () => {
  const specs = [
    join(ROOT, "specs/support-tickets.openapi.yaml"),
    ...readdirSync(join(ROOT, "specs/scenarios"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map(({ name }) => join(ROOT, "specs/scenarios", name, "openapi.yaml")),
  ];
  it.each(specs.map((path) => [path.slice(ROOT.length + 1), path]))("types %s as openapiTS does", async (_name, path) => {
    const spec = await loadSpec(path!, "openapi.yaml");
    const text = JSON.stringify(forSourceTypes(spec.document).document);
    const nodes = await typedWithoutRedocly(JSON.parse(text));
    expect(nodes).toBeDefined();
    expect(ot.astToString(nodes!)).toBe(ot.astToString(await ot.default(text, { silent: true, alphabetize: true })));
  });
});
