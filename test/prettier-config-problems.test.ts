// The consumer's prettier config is an input like the annotation: a config prettier cannot use is a
// problem with the inputs (PRJ059, exit 1), never an internal error; plugins apply as the prettier
// CLI applies them, whichever parser they replace and however the config names them.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { exampleProject } from "./helpers/example-project.js";
import { cli, ROOT } from "./helpers/pipeline.js";

const OUT = "generated/support";
const TYPESCRIPT = pathToFileURL(join(ROOT, "node_modules/prettier/plugins/typescript.mjs")).href;

/** A plugin module replacing prettier's typescript parser with one that marks every file it formats. */
const markingPlugin = (mark: string) =>
  `import { parsers as typescript } from ${JSON.stringify(TYPESCRIPT)};\n` +
  `export const parsers = { typescript: { ...typescript.typescript, preprocess: (text) => text + "\\n// ${mark}\\n" } };\n`;

describe("a prettier config generate cannot use", () => {
  for (const [name, config, place] of [
    ["an option value prettier refuses", JSON.stringify({ semi: 5 }), ""],
    ["a plugin that is not installed", JSON.stringify({ plugins: ["prettier-plugin-not-installed"] }), ""],
    ["a plugin file that is not there", JSON.stringify({ plugins: ["./missing-plugin.mjs"] }), ""],
    ["a config file cut short", '{\n  "semi": true,\n  "tabWidth": 2\n', ":4:1"],
  ] as const)
    it(`is PRJ059 at the config file, exit 1, for generate and --check: ${name}`, async () => {
      const dir = exampleProject();
      writeFileSync(join(dir, ".prettierrc"), config);
      for (const args of [["generate"], ["generate", "--check"]]) {
        const run = await cli(args, dir);
        // Named as every other file is, from the working folder, at the line prettier names.
        expect(run.stderr).toMatch(new RegExp(`^\\.prettierrc${place} PRJ059 `, "m"));
        expect(run.stderr).not.toContain(dir);
        expect(run.stderr).toMatch(/PRJ059 prettier cannot (format generated\/support\/\S+ with|read) your prettier config: /);
        expect(run.stderr).not.toContain("internal error");
        expect(run.code).toBe(1);
      }
    });

  it.each([
    ["a config file cut short", ".prettierrc", '{ "semi": false,, }\n'],
    ["a config module that throws", "prettier.config.mjs", 'throw new Error("the config cannot load");\n'],
  ])("is PRJ059 when it breaks after a generate, through the cache and the record alike: %s", async (_name, file, config) => {
    const dir = exampleProject({ nodeModules: true });
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    writeFileSync(join(dir, file), config);
    // The folder's cache entry and its record are both there: each is looked at before anything is generated.
    const withCache = await cli(["generate"], dir);
    rmSync(join(dir, "node_modules/.cache"), { recursive: true, force: true });
    const onAClone = await cli(["generate", "--check"], dir);
    for (const run of [withCache, onAClone]) {
      expect(run.stderr).toMatch(new RegExp(`^${file.replace(".", "\\.")}\\S* PRJ059 prettier cannot read your prettier config: `, "m"));
      expect(run.stderr).not.toContain("internal error");
      expect(run.code).toBe(1);
    }
  });

  it("is PRJ059 when a plugin throws as it loads", async () => {
    const dir = exampleProject();
    writeFileSync(join(dir, "broken-plugin.mjs"), 'throw new Error("the plugin cannot start");\n');
    writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ plugins: ["./broken-plugin.mjs"] }));
    const run = await cli(["generate"], dir);
    expect(run.stderr).toContain("PRJ059");
    expect(run.stderr).toContain("the plugin cannot start");
    expect(run.code).toBe(1);
  });
});

describe("a prettier plugin", () => {
  it("that replaces the typescript parser prettier's CLI uses for .ts files shapes every file generate writes", async () => {
    const dir = exampleProject();
    writeFileSync(join(dir, "marking-plugin.mjs"), markingPlugin("laid out by the plugin"));
    writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ plugins: ["./marking-plugin.mjs"] }));
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    for (const file of ["index.ts", "runtime/ids.ts", "tools/search-tickets.ts"])
      expect(readFileSync(join(dir, OUT, file), "utf8")).toContain("// laid out by the plugin\n");
  });

  it("given to a prettier.config.mjs as a module, not a name, is applied too", async () => {
    const dir = exampleProject();
    writeFileSync(join(dir, "marking-plugin.mjs"), markingPlugin("from a module"));
    writeFileSync(
      join(dir, "prettier.config.mjs"),
      'import * as marking from "./marking-plugin.mjs";\nexport default { plugins: [marking] };\n',
    );
    const run = await cli(["generate", "--silent"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, OUT, "runtime/ids.ts"), "utf8")).toContain("// from a module\n");
  });
});

describe("the spec's example against a budget of rows", () => {
  it("is PRJ042 when the example holds more records than the budget shows", async () => {
    const dir = exampleProject();
    const annotation = readFileSync(join(dir, "projector.yaml"), "utf8");
    writeFileSync(
      join(dir, "projector.yaml"),
      annotation.replace(
        "    page: { total: meta.page.total, more: links.next }\n",
        "    page: { total: meta.page.total, more: links.next }\n    budget: { rows: 1 }\n",
      ),
    );
    const run = await cli(["generate"], dir);
    expect(run.stderr).toContain(
      "PRJ042 warning tool search_tickets: the spec's example response does not fit its budget of 1 row; 1 of 2 records would be shown\n" +
        "  help: raise `rows`: the tool shows at most that many records of a page, and says how many it had",
    );
    expect((await cli(["generate", "--check"], dir)).code).toBe(1);
  });
});
