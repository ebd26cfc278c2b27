// Generate asks prettier for the consumer's config only where a file it could read one from exists:
// otherwise prettier is not loaded at all. Either way the answer is prettier's own.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { consumerPrettierConfig } from "../src/prettier-config.js";
import { tempDir } from "./helpers/pipeline.js";

describe("consumerPrettierConfig", () => {
  it("is null where no folder up the tree holds a prettier config", async () => {
    const dir = tempDir();
    expect(await consumerPrettierConfig(join(dir, "generated/api"))(["index.ts"])).toBeNull();
  });

  it.each([
    [".prettierrc", JSON.stringify({ printWidth: 100 })],
    [".prettierrc.json", JSON.stringify({ printWidth: 100 })],
    ["package.json", JSON.stringify({ name: "consumer", prettier: { printWidth: 100 } })],
  ])("reads %s in a folder above the output", async (file, text) => {
    const dir = tempDir();
    writeFileSync(join(dir, file), text);
    mkdirSync(join(dir, "generated"));
    expect(await consumerPrettierConfig(join(dir, "generated/api"))(["index.ts"])).toEqual({ "index.ts": { printWidth: 100 } });
  });

  it("goes past a package.json that only depends on prettier", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), JSON.stringify({ devDependencies: { prettier: "3.10.1" } }));
    expect(await consumerPrettierConfig(join(dir, "generated/api"))(["index.ts"])).toBeNull();
  });
});
