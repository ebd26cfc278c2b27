// generate keeps prettier's output of its last run in node_modules/.cache/openapi-projector/, as
// prettier's and eslint's own caches do: the next generate formats only the files whose text
// changed. The file is never trusted beyond that: --check formats anew, a corrupt or foreign file
// is ignored, and a run with prettier plugins keeps nothing.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { formatCacheFile, MAX_FORMAT_CACHE_BYTES, readFormatCache, writeFormatCache } from "../src/output/format-cache.js";
import { exampleProject } from "./helpers/example-project.js";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";

const OUT = "generated/support";
const CACHE_FOLDER = "node_modules/.cache/openapi-projector";

const cacheFileOf = (dir: string) => {
  const [name, ...others] = readdirSync(join(dir, CACHE_FOLDER)).filter((file) => file.startsWith("formatted-"));
  expect(others).toEqual([]);
  return join(dir, CACHE_FOLDER, name!);
};
const storedEntries = (dir: string) => (JSON.parse(readFileSync(cacheFileOf(dir), "utf8")) as { entries: Record<string, string> }).entries;

/** Rewrites every kept text that formats this file of the output folder as `text`. */
function poison(dir: string, file: string, text: string): void {
  const stored = JSON.parse(readFileSync(cacheFileOf(dir), "utf8")) as { entries: Record<string, string> };
  const formatted = readFileSync(join(dir, OUT, file), "utf8");
  for (const [key, kept] of Object.entries(stored.entries)) if (kept === formatted) stored.entries[key] = text;
  writeFileSync(cacheFileOf(dir), JSON.stringify(stored));
}

/** Removes the last run's digest, the format cache kept: the next generate runs every stage again. */
const forgetLastRun = (dir: string) => {
  for (const file of readdirSync(join(dir, CACHE_FOLDER))) if (file.startsWith("last-run-")) rmSync(join(dir, CACHE_FOLDER, file));
};

describe("the format cache of a generate", () => {
  it("takes each unchanged file's layout from the cache of the last generate", async () => {
    const dir = exampleProject({ nodeModules: true });
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    poison(dir, "index.ts", "// laid out by the last run\n");
    forgetLastRun(dir);
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, OUT, "index.ts"), "utf8")).toBe("// laid out by the last run\n");
  });

  it("is not read by --force, which formats every file anew and keeps a fresh cache", async () => {
    const plain = exampleProject();
    expect((await cli(["generate", "--silent"], plain)).code).toBe(0);
    const dir = exampleProject({ nodeModules: true });
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    poison(dir, "index.ts", "// forged in the cache\n");
    expect((await cli(["generate", "--silent", "--force"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, OUT, "index.ts"), "utf8")).toBe(readFileSync(join(plain, OUT, "index.ts"), "utf8"));
    expect(Object.values(storedEntries(dir))).not.toContain("// forged in the cache\n");
  });

  it("that cannot be written leaves the generate as it is", async () => {
    const dir = exampleProject({ nodeModules: true });
    mkdirSync(join(dir, "node_modules/.cache"), { recursive: true });
    writeFileSync(join(dir, CACHE_FOLDER), "a file where the cache folder belongs\n");
    const run = await cli(["generate", "--silent"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect((await cli(["generate", "--check"], dir)).code).toBe(0);
  });

  it("keeps only the files of the last run, one entry a formatted file", async () => {
    const dir = exampleProject({ nodeModules: true });
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    const first = storedEntries(dir);
    const annotation = readFileSync(join(dir, "projector.yaml"), "utf8");
    writeFileSync(
      join(dir, "projector.yaml"),
      annotation.replace("Words to look for in the ticket's subject.", "Words to look for in the subject."),
    );
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    const second = storedEntries(dir);
    const formattedFiles = readdirSync(join(dir, OUT), { recursive: true }).filter(
      (path) => String(path).endsWith(".ts") && path !== "openapi.ts",
    );
    expect(Object.keys(second)).toHaveLength(formattedFiles.length);
    expect(Object.keys(first).filter((key) => !(key in second)).length).toBeGreaterThan(0);
  });

  it("never lets --check pass a folder only the cache agrees with", async () => {
    const dir = exampleProject({ nodeModules: true });
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    poison(dir, "index.ts", "// stale\n");
    writeFileSync(join(dir, OUT, "index.ts"), "// stale\n");
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/index.ts\n`);
  });

  it("formats anew over a corrupt or foreign cache file, and replaces it", async () => {
    const plain = exampleProject();
    expect((await cli(["generate", "--silent"], plain)).code).toBe(0);
    for (const stored of ["{ not json", JSON.stringify({ cache: "someone else's", entries: {} }), "[]"]) {
      const dir = exampleProject({ nodeModules: true });
      expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
      writeFileSync(cacheFileOf(dir), stored);
      forgetLastRun(dir);
      expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
      expect(readFileSync(join(dir, OUT, "index.ts"), "utf8")).toBe(readFileSync(join(plain, OUT, "index.ts"), "utf8"));
      expect(Object.keys(storedEntries(dir)).length).toBeGreaterThan(0);
    }
  });

  it("keeps nothing for a prettier config that loads plugins, whose code no key covers", async () => {
    const dir = exampleProject({ nodeModules: true });
    const babel = pathToFileURL(join(ROOT, "node_modules/prettier/plugins/babel.mjs")).href;
    writeFileSync(
      join(dir, "my-plugin.mjs"),
      `import { parsers as babel } from ${JSON.stringify(babel)};\nexport const parsers = { "babel-ts": babel["babel-ts"] };\n`,
    );
    writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ plugins: ["./my-plugin.mjs"] }));
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect(readdirSync(join(dir, CACHE_FOLDER)).filter((file) => file.startsWith("formatted-"))).toEqual([]);
  });
});

describe("the format cache file", () => {
  it("lives in the nearest node_modules up from the annotation's folder, and nowhere without one", () => {
    const project = tempDir();
    mkdirSync(join(project, "node_modules"));
    mkdirSync(join(project, "tools/support"), { recursive: true });
    expect(formatCacheFile(join(project, "tools/support"), join(project, "tools/support/out"))).toMatch(
      new RegExp(`^${project}/node_modules/\\.cache/openapi-projector/formatted-[0-9a-f]{32}\\.json$`),
    );
    expect(formatCacheFile(tempDir(), "out")).toBeUndefined();
  });

  it("skips entries of the wrong type and reads nothing past its bound", async () => {
    const file = join(tempDir(), "formatted.json");
    const key = "a".repeat(64);
    const entries = { [key]: "kept\n", ["b".repeat(64)]: 7, "not a key": "text", ["c".repeat(64)]: null };
    writeFileSync(file, JSON.stringify({ cache: "openapi-projector format cache 1", entries }));
    expect(await readFormatCache(file)).toEqual(new Map([[key, "kept\n"]]));
    await writeFormatCache(file, new Map([[key, "x".repeat(MAX_FORMAT_CACHE_BYTES)]]));
    expect(await readFormatCache(file)).toEqual(new Map());
  });
});
