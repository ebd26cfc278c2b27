// The consumer path on the versions and settings users have besides ours: another TypeScript 5 and
// prettier 3 minor (the peer dependencies' ranges), `moduleResolution: bundler`, and a CommonJS
// consumer. The generated folder must compile under each, and must pass the consumer's own
// `prettier --check`, since generate formats with the consumer's prettier and config.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { consumerProject, consumerTsc, installedVersion, run } from "../helpers/consumer.js";
import { BUNDLED_FILES } from "../helpers/pipeline.js";

const consumers = [
  {
    name: "TypeScript 5.4 and prettier 3.3, moduleResolution bundler",
    packages: ["typescript@5.4.5", "prettier@3.3.3"],
    type: "module",
    compilerOptions: { module: "ESNext", moduleResolution: "Bundler" },
  },
  {
    name: "TypeScript 5.0, the oldest the peer range allows",
    packages: ["typescript@5.0.4"],
    type: "module",
    compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" },
  },
  {
    name: "a CommonJS consumer (module commonjs)",
    packages: [],
    type: "commonjs",
    compilerOptions: { module: "CommonJS", moduleResolution: "Node10" },
  },
] as const;

describe.each(consumers)("a consumer with $name", ({ packages, type, compilerOptions }) => {
  it("generates with its prettier, passes its prettier --check, and compiles with its TypeScript", () => {
    const consumer = consumerProject({ type, compilerOptions, packages: [...packages] });
    for (const pinned of packages) {
      const [name, version] = pinned.split("@") as [string, string];
      expect(installedVersion(consumer, name), `${name} as the consumer pinned it`).toBe(version);
    }
    expect(run("npm", ["run", "generate", "--silent"], consumer)).toContain(`generated/support: ${BUNDLED_FILES} file(s) written`);
    // openapi.ts is openapi-typescript's output as its own CLI prints it; the README has consumers ignore it.
    writeFileSync(join(consumer, ".prettierignore"), "generated/**/openapi.ts\n");
    run("node", ["node_modules/prettier/bin/prettier.cjs", "--check", "generated"], consumer);
    consumerTsc(consumer);
  }, 300_000);
});
