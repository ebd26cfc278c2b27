// The path users take: pack the package, install the tarball into a fresh consumer project, run
// `projector generate` from an npm script, and type-check the consumer. Other TypeScript and prettier
// minors and other module settings run in test/slow/consumers.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { consumerProject, consumerTsc, run } from "./helpers/consumer.js";
import { BUNDLED_FILES, ROOT } from "./helpers/pipeline.js";

describe("npm pack, install into a consumer, generate from an npm script", () => {
  it("ships the built code, the runtime template, the schema and the docs a user reads: no tests, fixtures or source maps", () => {
    const [pack] = JSON.parse(run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], ROOT)) as [{ files: { path: string }[] }];
    const paths = pack.files.map((file) => file.path);
    expect([...new Set(paths.map((path) => path.split("/")[0]))].sort()).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "dist",
      "docs",
      "package.json",
      "schema",
      "templates",
    ]);
    expect(paths.filter((path) => /\.map$|(^|\/)test|fixture|\.test\./.test(path))).toEqual([]);
    expect(paths).toContain("dist/cli.js");
    // The OpenAPI 3.0 validator the build compiles once, so that no run compiles the schema.
    expect(paths).toContain("dist/openapi/openapi-30-validator.cjs");
    expect(paths).toContain("templates/runtime/index.ts");
    // The README's links to the reference resolve inside the installed package.
    expect(paths).toContain("docs/security.md");
  });

  it("generates and type-checks in a consumer project", () => {
    const consumer = consumerProject({ type: "module", compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } });
    const output = run("npm", ["run", "generate", "--silent"], consumer);
    expect(output).toContain(`generated/support: ${BUNDLED_FILES} file(s) written`);
    expect(existsSync(join(consumer, "generated/support/index.ts"))).toBe(true);
    expect(readFileSync(join(consumer, "generated/support/index.ts"), "utf8")).toBe(
      readFileSync(join(ROOT, "generated/support/index.ts"), "utf8"),
    );
    consumerTsc(consumer);
    expect(run("node", [join(consumer, "node_modules/openapi-projector/dist/cli.js"), "--version"], consumer).trim()).toBe(
      (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version,
    );
  }, 240_000);
});
