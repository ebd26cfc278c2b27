// generate --check answers as a full generate would: the record in the output folder's marker
// vouches for the folder only where loading the spec would not refuse, and the folder is compared
// byte for byte.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { exampleProject } from "./helpers/example-project.js";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";

const SPEC = "specs/support-tickets.openapi.yaml";
const OUT = "generated/support";
const PARAMETERS = "specs/parameters.yaml";

/** The example project with its TicketId parameter in a file of its own, reached by $ref. */
function projectWithReferencedFile(options: { nodeModules?: boolean } = {}): string {
  const dir = exampleProject(options);
  const spec = readFileSync(join(dir, SPEC), "utf8");
  const parameter = /^ {4}TicketId:\n((?: {6}.*\n)+)/m.exec(spec)!;
  writeFileSync(join(dir, PARAMETERS), `TicketId:\n${parameter[1]!.replace(/^ {4}/gm, "")}`);
  writeFileSync(join(dir, SPEC), spec.replace(parameter[0], `    TicketId:\n      $ref: "./parameters.yaml#/TicketId"\n`));
  return dir;
}

/** Replaces the referenced file with a symlink to an identical copy outside the spec's folder. */
function moveReferencedFileOutside(dir: string): void {
  const outside = join(tempDir(), "parameters.yaml");
  writeFileSync(outside, readFileSync(join(dir, PARAMETERS)));
  rmSync(join(dir, PARAMETERS));
  symlinkSync(outside, join(dir, PARAMETERS));
}

describe("generate --check refuses where generate refuses", () => {
  it("does not vouch for a folder whose spec now reaches a file outside its folder through a symlink", async () => {
    const dir = projectWithReferencedFile();
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    moveReferencedFileOutside(dir);
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("PRJ055");
    expect((await cli(["generate", "--check", "--allow-outside-refs"], dir)).code).toBe(0);
  });

  it("does not vouch for a folder generated with --allow-outside-refs when checked without it", async () => {
    const dir = projectWithReferencedFile();
    moveReferencedFileOutside(dir);
    expect((await cli(["generate", "--silent", "--allow-outside-refs"], dir)).code).toBe(0);
    expect((await cli(["generate", "--check", "--allow-outside-refs"], dir)).code).toBe(0);
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("PRJ055");
  });

  it("does not take a plain generate's cache entry as up to date once the spec reaches outside its folder", async () => {
    const dir = projectWithReferencedFile({ nodeModules: true });
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    moveReferencedFileOutside(dir);
    const again = await cli(["generate"], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("PRJ055");
  });
});

describe("generate --check compares bytes", () => {
  const REPLACEMENT = Buffer.from("\uFFFD", "utf8");
  let dir: string;
  beforeEach(async () => {
    dir = exampleProject();
    const spec = join(dir, SPEC);
    writeFileSync(spec, readFileSync(spec, "utf8").replace("description: No such record", "description: No such record \uFFFD"));
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
  });

  it("finds a generated file stale whose replacement character became a byte that is not UTF-8", async () => {
    const file = join(dir, OUT, "openapi.ts");
    const bytes = readFileSync(file);
    const at = bytes.indexOf(REPLACEMENT);
    expect(at).toBeGreaterThan(0);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + REPLACEMENT.length)]));
    for (const args of [
      ["generate", "--check"],
      ["generate", "--check", "--force"],
    ]) {
      const check = await cli(args, dir);
      expect(check.code, args.join(" ")).toBe(1);
      expect(check.stderr).toContain(`  stale    ${OUT}/openapi.ts\n`);
    }
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect(readFileSync(file).indexOf(REPLACEMENT)).toBe(at);
  });
});

/** The package installed in a project of its own, beside every dependency but `missing`; returns the project. */
function installedWithout(missing: string): string {
  const project = exampleProject();
  const modules = join(project, "node_modules");
  const installed = join(modules, "openapi-projector");
  mkdirSync(installed, { recursive: true });
  for (const entry of ["dist", "templates", "schema", "package.json"])
    cpSync(join(ROOT, entry), join(installed, entry), { recursive: true });
  for (const name of readdirSync(join(ROOT, "node_modules")))
    if (name !== missing && name !== ".bin" && name !== "openapi-projector")
      symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
  return project;
}

describe("a peer dependency not installed", () => {
  it("is named with how to install it, as a problem (exit 1), not as a bug in projector", () => {
    const project = installedWithout("prettier");
    for (const args of [["generate", "--check"], ["generate"]]) {
      const run = spawnSync(process.execPath, [join(project, "node_modules/openapi-projector/dist/cli.js"), ...args], {
        cwd: project,
        encoding: "utf8",
      });
      expect(run.status, args.join(" ")).toBe(1);
      expect(run.stderr).toContain("prettier is not installed");
      expect(run.stderr).toContain("npm install --save-dev prettier@^3");
      expect(run.stderr).not.toContain("internal error");
    }
  });
});

describe("the consumer's prettier config, as the prettier CLI reads it", () => {
  it("formats each file with its own overrides and .editorconfig, so prettier --check agrees, and --check sees .editorconfig change", async () => {
    const dir = exampleProject();
    writeFileSync(join(dir, ".editorconfig"), "root = true\n\n[*]\nindent_style = tab\n");
    writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ overrides: [{ files: "**/runtime/*.ts", options: { semi: false } }] }));
    writeFileSync(join(dir, ".prettierignore"), "**/openapi.ts\n");
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, OUT, "index.ts"), "utf8")).toMatch(/^\t\S/m);
    expect(readFileSync(join(dir, OUT, "runtime/index.ts"), "utf8")).not.toMatch(/;\n/);
    const prettier = spawnSync(join(ROOT, "node_modules/.bin/prettier"), ["--check", OUT], { cwd: dir, encoding: "utf8" });
    expect(prettier.stderr).toBe("");
    expect(prettier.status).toBe(0);
    expect((await cli(["generate", "--check"], dir)).code).toBe(0);
    writeFileSync(join(dir, ".editorconfig"), "root = true\n\n[*]\nindent_style = space\n");
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/index.ts\n`);
  });

  it("never vouches from the record for a folder formatted with a prettier plugin, whose code it cannot hash", async () => {
    const dir = exampleProject();
    const typescript = pathToFileURL(join(ROOT, "node_modules/prettier/plugins/typescript.mjs")).href;
    const plugin = (mark: string) =>
      `import { parsers as typescript } from ${JSON.stringify(typescript)};\n` +
      `export const parsers = { typescript: { ...typescript.typescript, preprocess: (text) => text + "\\n// ${mark}\\n" } };\n`;
    writeFileSync(join(dir, "my-plugin.mjs"), plugin("formatted by my plugin"));
    writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ plugins: ["./my-plugin.mjs"] }));
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, OUT, "index.ts"), "utf8")).toContain("// formatted by my plugin\n");
    expect((await cli(["generate", "--check"], dir)).code).toBe(0);
    writeFileSync(join(dir, "my-plugin.mjs"), plugin("formatted by my plugin, edited"));
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/index.ts\n`);
  });
});
