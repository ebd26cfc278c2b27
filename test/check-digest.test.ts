// generate --check on a clone with no cache: the output folder's marker records what made it, so
// --check vouches for an untouched folder by hashing its inputs and files, without generating, and
// still catches every hand edit and every changed input, naming the files a generate would change.
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { folderRecord, MARKER, MARKER_TEXT, markerText } from "../src/output/ownership.js";
import { runGenerate } from "../src/project/driver.js";
import { exampleProject } from "./helpers/example-project.js";
import { cli } from "./helpers/pipeline.js";

const SPEC = "specs/support-tickets.openapi.yaml";
const OUT = "generated/support";
const OPTIONS = {
  config: "projector.yaml",
  check: false,
  force: false,
  allowRemoteRefs: false,
  allowOutsideRefs: false,
  allowOutsideOutput: false,
};

/** The example project with its TicketId parameter in a file of its own, reached by $ref. */
function projectWithReferencedFile(): string {
  const dir = exampleProject();
  const spec = readFileSync(join(dir, SPEC), "utf8");
  const parameter = /^ {4}TicketId:\n((?: {6}.*\n)+)/m.exec(spec)!;
  writeFileSync(join(dir, "specs/parameters.yaml"), `TicketId:\n${parameter[1]!.replace(/^ {4}/gm, "")}`);
  writeFileSync(join(dir, SPEC), spec.replace(parameter[0], `    TicketId:\n      $ref: "./parameters.yaml#/TicketId"\n`));
  return dir;
}

const edit = (path: string, change: (text: string) => string) => writeFileSync(path, change(readFileSync(path, "utf8")));

describe("generate --check from a clean clone", () => {
  let dir: string;
  beforeEach(async () => {
    dir = projectWithReferencedFile();
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "node_modules")), "no cache anywhere").toBe(false);
  });

  it("vouches for an untouched folder from its record, without loading the spec or generating", async () => {
    const record = folderRecord(readFileSync(join(dir, OUT, MARKER), "utf8"));
    expect(record?.specFiles).toEqual(["specs/parameters.yaml", SPEC]);
    const check = await cli(["generate", "--check", "--verbose"], dir);
    expect(check.code).toBe(0);
    expect(check.stdout).toBe(`${OUT} is up to date\n`);
    expect(check.stderr).toMatch(/^ {2}digest\s/m);
    expect(check.stderr).not.toMatch(/^ {2}(annotation|spec|check|emit|format)\s/m);
  });

  it("catches a hand edit of any generated file, and a file added", async () => {
    for (const path of ["index.ts", "runtime/index.ts", "openapi.ts"]) {
      const file = join(dir, OUT, path);
      const before = readFileSync(file, "utf8");
      writeFileSync(file, `${before}// edited by hand\n`);
      const check = await cli(["generate", "--check"], dir);
      expect(check.code, path).toBe(1);
      expect(check.stderr).toContain(`  stale    ${OUT}/${path}\n`);
      writeFileSync(file, before);
    }
    writeFileSync(join(dir, OUT, "notes.ts"), "// mine\n");
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  extra    ${OUT}/notes.ts\n`);
  });

  // Windows shows no execute bits: a mode never differs there.
  it.skipIf(process.platform === "win32")("catches a generated file made executable, and generate writes it plain again", async () => {
    const file = join(dir, OUT, "index.ts");
    const plain = statSync(join(dir, OUT, "definitions.ts")).mode;
    chmodSync(file, 0o755);
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/index.ts\n`);
    const written = await cli(["generate"], dir);
    expect(written.code).toBe(0);
    expect(written.stdout).toMatch(/: 1 file\(s\) written, \d+ unchanged/);
    expect(statSync(file).mode & 0o111).toBe(0);
    expect(statSync(file).mode).toBe(plain);
    expect((await cli(["generate", "--check"], dir)).code).toBe(0);
  });

  it("catches a changed spec, and a changed file the spec reaches by $ref", async () => {
    edit(join(dir, "specs/parameters.yaml"), (text) => text.replace("The ticket id;", "The ticket's id;"));
    const referenced = await cli(["generate", "--check"], dir);
    expect(referenced.code).toBe(1);
    expect(referenced.stderr).toContain(`  stale    ${OUT}/openapi.ts\n`);
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect((await cli(["generate", "--check"], dir)).code).toBe(0);
    edit(join(dir, SPEC), (text) => text.replace("description: No such record", "description: No such record here"));
    const spec = await cli(["generate", "--check"], dir);
    expect(spec.code).toBe(1);
    expect(spec.stderr).toContain(`  stale    ${OUT}/openapi.ts\n`);
  });

  it("catches a changed annotation, even one that changes no generated code", async () => {
    edit(join(dir, "projector.yaml"), (text) => text.replace("      subject: keep\n", "      subject: { as: title }\n"));
    const renamed = await cli(["generate", "--check"], dir);
    expect(renamed.code).toBe(1);
    expect(renamed.stderr).toMatch(/ {2}stale {4}generated\/support\/resources\/\S+\.ts\n/);
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    edit(join(dir, "projector.yaml"), (text) => `${text}# a comment\n`);
    const commented = await cli(["generate", "--check"], dir);
    expect(commented.code).toBe(1);
    expect(commented.stderr).toContain(`  stale    ${OUT}/${MARKER}\n`);
  });

  it("catches a changed prettier config", async () => {
    writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ singleQuote: true, printWidth: 100 }));
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/index.ts\n`);
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect((await cli(["generate", "--check"], dir)).code).toBe(0);
  });

  it("is left stale, never falsely fresh, by a spec saved while generate runs", async () => {
    const saved = readFileSync(join(dir, SPEC), "utf8").replace("description: No such record", "description: No such record here");
    // The driver asks a watcher for its last spec after it read the inputs, just before the load: the spec is saved then.
    const outcome = await runGenerate(OPTIONS, dir, undefined, {
      read: () => undefined,
      write: (work) => work(),
      unchangedSpec: () => {
        writeFileSync(join(dir, SPEC), saved);
        return undefined;
      },
    });
    expect(outcome.kind).toBe("written");
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/${MARKER}\n`);
  });

  it("does not trust a record edited by hand: the full check names the marker", async () => {
    edit(join(dir, OUT, MARKER), (text) => text.replace(/^inputs: \w+$/m, `inputs: ${"0".repeat(32)}`));
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/${MARKER}\n`);
  });

  it.each([
    ["spaced otherwise", (line: string) => line.replace('["', '[ "')],
    ["its files in another order", () => `spec files: ${JSON.stringify([SPEC, "specs/parameters.yaml"])}`],
    ["a file named through ..", () => `spec files: ${JSON.stringify(["specs/../specs/parameters.yaml", SPEC])}`],
    ["a file named through .", () => `spec files: ${JSON.stringify(["specs/./parameters.yaml", SPEC])}`],
  ])("does not trust a record whose spec files are written %s: the full check names the marker", async (_how, change) => {
    edit(join(dir, OUT, MARKER), (text) => text.replace(/^spec files: .*$/m, (line) => change(line)));
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/${MARKER}\n`);
  });

  it("checks in full with --force, and on a folder whose marker has no record", async () => {
    const forced = await cli(["generate", "--check", "--force", "--verbose"], dir);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/^ {2}emit\s/m);
    writeFileSync(join(dir, OUT, MARKER), MARKER_TEXT);
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  stale    ${OUT}/${MARKER}\n`);
    rmSync(join(dir, OUT), { recursive: true });
    expect((await cli(["generate", "--check"], dir)).code).toBe(1);
  });
});

describe("the marker's record", () => {
  const record = { inputs: "a".repeat(32), files: "b".repeat(32), specFiles: ["specs/api.yaml", "specs/shared schemas.yaml"] };

  it("reads back as written", () => {
    expect(folderRecord(markerText(record))).toEqual(record);
    expect(markerText(record).startsWith(MARKER_TEXT)).toBe(true);
  });

  it("is none for a marker without one, or with anything else after its fixed lines", () => {
    expect(folderRecord(MARKER_TEXT)).toBeUndefined();
    expect(folderRecord(`${markerText(record)}more\n`)).toBeUndefined();
    expect(folderRecord(markerText(record).replace("inputs: a", "inputs: z"))).toBeUndefined();
    expect(folderRecord(markerText({ ...record, specFiles: [] }))).toBeUndefined();
    expect(folderRecord(`other text\n${markerText(record).slice(MARKER_TEXT.length)}`)).toBeUndefined();
  });
});
