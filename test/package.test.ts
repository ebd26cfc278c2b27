// The path users take: pack the package, install the tarball into a fresh consumer project, run
// `projector generate` from an npm script there, and type-check the consumer.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "./helpers/pipeline.js";

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_loglevel: "error" } });

describe("npm pack, install into a consumer, generate from an npm script", () => {
  it("generates and type-checks in a consumer project", () => {
    const packDir = tempDir("projector-pack-");
    run("npm", ["pack", "--pack-destination", packDir, "--ignore-scripts"], ROOT);
    const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
    expect(tarball).toBeDefined();

    const consumer = tempDir("projector-consumer-");
    mkdirSync(join(consumer, "specs"));
    mkdirSync(join(consumer, "src"));
    cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(consumer, "specs/support-tickets.openapi.yaml"));
    cpSync(join(ROOT, "projector.yaml"), join(consumer, "projector.yaml"));
    writeFileSync(
      join(consumer, "src/tool.ts"),
      readFileSync(join(ROOT, "test/fixtures/consumer.ts"), "utf8").replace("../../generated/support/index.js", "../generated/support/index.js"),
    );
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module", scripts: { generate: "projector generate" } }, null, 2),
    );
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", noEmit: true, skipLibCheck: true, types: [] },
        include: ["src", "generated"],
      }),
    );
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(packDir, tarball!)], consumer);
    const output = run("npm", ["run", "generate", "--silent"], consumer);
    expect(output).toContain("generated/support: 12 file(s) written");
    expect(existsSync(join(consumer, "generated/support/index.ts"))).toBe(true);
    expect(readFileSync(join(consumer, "generated/support/index.ts"), "utf8")).toBe(readFileSync(join(ROOT, "generated/support/index.ts"), "utf8"));
    run("node", [join(consumer, "node_modules/typescript/bin/tsc"), "-p", "."], consumer);
  }, 240_000);
});
