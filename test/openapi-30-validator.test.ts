import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../src/openapi/load.js";
import { compileOpenApi30, openApi30Source } from "../src/openapi/openapi-30-schema.js";
import { REAL_SPECS, ROOT } from "./helpers/pipeline.js";

const source = await openApi30Source();

/** The standalone code run as the build's module would be, its requires resolved from the repository. */
function standalone(): ValidateFunction {
  const module = { exports: {} as unknown };
  new Function("module", "exports", "require", source)(module, module.exports, createRequire(join(ROOT, "package.json")));
  return module.exports as ValidateFunction;
}

const errorsOf = (validate: ValidateFunction, document: unknown) => (validate(document) ? [] : validate.errors);

describe("the OpenAPI 3.0 validator compiled at build time", () => {
  it("is the module the build wrote", () => {
    const built = join(ROOT, "dist/openapi/openapi-30-validator.cjs");
    expect(existsSync(built)).toBe(true);
    expect(readFileSync(built, "utf8")).toBe(source);
  });

  it("finds what ajv's compiled schema finds, error for error", async () => {
    const [compiled, built] = [await compileOpenApi30(), standalone()];
    const support = (await loadSpec(join(ROOT, "specs/support-tickets.openapi.yaml"), "support.yaml")).document;
    const broken = {
      openapi: "3.0.3",
      info: { title: 7 },
      paths: {
        "/a": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "strange" } } } } } } },
      },
      components: { schemas: { A: { enum: [{ a: 1 }, { a: 1 }], uniqueItems: "no" } } },
    };
    const documents: unknown[] = [support, broken, { openapi: "3.0.0" }, []];
    for (const name of ["pagerduty_rest_openapiv3.json", "box_openapi.json"]) {
      const path = join(REAL_SPECS, name);
      if (existsSync(path)) documents.push((await loadSpec(path, name)).document);
    }
    for (const document of documents) expect(errorsOf(built, document)).toEqual(errorsOf(compiled, document));
    expect(errorsOf(built, broken)!.length).toBeGreaterThan(2);
  });

  it("needs nothing but ajv-draft-04's ajv", () => {
    expect([...source.matchAll(/require(?:\.resolve)?\("([^"]+)"\)/g)].map(([, module]) => module)).toEqual([
      "node:module",
      "ajv-draft-04",
    ]);
    expect(source).toContain('require("node:module").createRequire(require.resolve("ajv-draft-04"))("ajv/dist/runtime/equal")');
  });
});
