// A CommonJS file loaded through V8's code cache is the module `require` would give, and a cache
// that does not match the file, or is damaged, is never used.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { codeCacheBeside, requireWithCodeCache } from "../src/code-cache.js";

function fixture(source: string) {
  const dir = mkdtempSync(join(tmpdir(), "projector-code-cache-"));
  const file = join(dir, "lib.cjs");
  writeFileSync(file, source);
  writeFileSync(join(dir, "helper.cjs"), "exports.twice = (n) => n * 2;\n");
  return { dir, file, cacheDir: join(dir, "cache") };
}

/**
 * Loads the file in a process of its own, as each generate does: within one process, V8 compiles
 * a source it has compiled before from its own memory, without looking at the cache.
 */
function loadedElsewhere(file: string, cacheDir: string): { fromCache: boolean; answer: number } {
  const script = `const { requireWithCodeCache } = await import(${JSON.stringify(CODE_CACHE)});
const loaded = requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
loaded.save();
console.log(JSON.stringify({ fromCache: loaded.fromCache, answer: loaded.exports.answer }));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
}
const CODE_CACHE = resolve("dist/code-cache.js");

const LIB = `const { twice } = require("./helper.cjs");
exports.answer = twice(21);
exports.where = [__filename, __dirname, typeof module.exports];
`;

describe("requireWithCodeCache", () => {
  it("gives the module require gives, registered so that a later require gets the same one", () => {
    const { dir, file, cacheDir } = fixture(LIB);
    const loaded = requireWithCodeCache(file, cacheDir);
    expect(loaded.exports).toEqual({ answer: 42, where: [file, dir, "object"] });
    expect(createRequire(file)(file)).toBe(loaded.exports);
    expect(loaded.fromCache).toBe(false);
  });

  it("compiles from the cache once one is saved, and from the source when the file changed", () => {
    const { file, cacheDir } = fixture(LIB);
    expect(loadedElsewhere(file, cacheDir)).toEqual({ fromCache: false, answer: 42 });
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(loadedElsewhere(file, cacheDir)).toEqual({ fromCache: true, answer: 42 });
    // Same length, other content: V8 alone would take the cache for it.
    writeFileSync(file, LIB.replace("twice(21)", "twice(22)"));
    expect(loadedElsewhere(file, cacheDir)).toEqual({ fromCache: false, answer: 44 });
  });

  it.each([
    ["a file that is not V8's", () => Buffer.from("not V8's code")],
    // V8 checks only the header: changed bytes past it made it abort the process.
    [
      "bytes changed past the header",
      (saved: Buffer) => {
        const changed = Buffer.from(saved);
        for (let at = 200; at < changed.length; at += 997) changed[at]! ^= 0x5a;
        return changed;
      },
    ],
  ])("compiles from the source when the cache is damaged (%s), and saves a good one", (_name, damage) => {
    const { file, cacheDir } = fixture(LIB);
    loadedElsewhere(file, cacheDir);
    const [name] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, name!), damage(readFileSync(join(cacheDir, name!))));
    expect(loadedElsewhere(file, cacheDir)).toEqual({ fromCache: false, answer: 42 });
    expect(loadedElsewhere(file, cacheDir)).toEqual({ fromCache: true, answer: 42 });
  });

  it("keeps only the cache of the file as it is now", () => {
    const { file, cacheDir } = fixture(LIB);
    loadedElsewhere(file, cacheDir);
    writeFileSync(file, LIB.replace("twice(21)", "twice(22)"));
    loadedElsewhere(file, cacheDir);
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(loadedElsewhere(file, cacheDir)).toEqual({ fromCache: true, answer: 44 });
  });

  it("keeps TypeScript's cache in the node_modules TypeScript is installed in, not in the project's", () => {
    expect(
      codeCacheBeside(
        join("/work", "app", "node_modules", ".pnpm", "typescript@5.9.3", "node_modules", "typescript", "lib", "typescript.js"),
      ),
    ).toBe(join("/work", "app", "node_modules", ".pnpm", "typescript@5.9.3", "node_modules", ".cache", "projector", "code"));
    expect(codeCacheBeside(join("/opt", "typescript", "lib", "typescript.js"))).toBeUndefined();
  });

  it("loads without a cache where none can be written", () => {
    const { file, dir } = fixture(LIB);
    // A file where the cache's folder would be: it cannot be made.
    writeFileSync(join(dir, "blocked"), "");
    const loaded = requireWithCodeCache(file, join(dir, "blocked", "cache"));
    expect(() => loaded.save()).not.toThrow();
    expect((loaded.exports as { answer: number }).answer).toBe(42);
  });
});
