// The bad-input corpus (test/bad-inputs/*, see its README): every broken or hostile input a user can
// hand the generator, each with the exact diagnostic it must produce, or, for inputs that must be
// accepted, the projection its generated code must compute. Each case runs the CLI in-process on a
// copy of its folder, so the repository stays clean.
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pascalCase } from "../src/naming.js";
import { MARKER, MARKER_TEXT } from "../src/output/ownership.js";
import { cli, importGenerated, ROOT, tempDir, typecheckFiles } from "./helpers/pipeline.js";
import { inputFilesOf, inputTextInCode } from "./helpers/spec-text-in-code.js";

const CORPUS = join(ROOT, "test/bad-inputs");

/** The diagnostic a refused input must print, as `file:line:col CODE message`. */
interface ExpectedDiagnostic {
  code: string;
  /** Relative to the case folder, which is the working directory of the run. */
  file: string;
  /** Both null for problems that have no position in a file (a file that cannot be read). */
  line: number | null;
  column: number | null;
  /** A fragment the message must contain. */
  message: string;
  /** A fragment the `help:` line must contain. */
  help?: string;
  /** The text the position points at: the file's line `line` from column `column` starts with it. */
  at?: string;
  /** How the `see:` line (the spec declaration behind an annotation problem) starts. */
  see?: string;
}

interface Expected {
  /** What the case is about, for people reading the corpus. */
  why: string;
  /** The command line, default `generate`. */
  args?: string[];
  exit: 0 | 1 | 2;
  diagnostic?: ExpectedDiagnostic;
  /** The output folder relative to the case folder (default `generated`): written when accepted, untouched when refused. */
  output?: string;
  /** Accepted cases: the tool run on payload.json. */
  tool?: string;
  /** Accepted cases: resolver name to the labels it answers with. */
  labels?: Record<string, Record<string, string>>;
  /** Accepted cases: the exact projection of payload.json. */
  result?: unknown;
  /** Accepted cases: the issues reported through onIssue, as kind and field. */
  issues?: { kind: string; field: string }[];
}

/** The generated folders of the accepted cases, type-checked together once every case has run. */
const acceptedOutputs = new Map<string, Map<string, string>>();

const cases = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const STACK_FRAME = /^\s+at .*(\(|:\d+:\d+)/m;
/** C0 controls but tab, line feed and carriage return, DEL and C1: none may reach a generated file or the terminal raw. */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Those, and the characters that change how code reads unseen (bidirectional controls, zero-width ones): none may reach a generated file raw. */
const HIDDEN_CHARACTER =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;

/** Copies the case into a fresh temporary folder (one level down, so `../` outputs stay inside it). */
function setUp(name: string): string {
  const dir = join(tempDir("projector-bad-input-"), "project");
  cpSync(join(CORPUS, name), dir, { recursive: true });
  return dir;
}

/** Every file under a folder, keyed by path relative to it, as the generator's `files` map. */
function readFolder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path).split("\\").join("/"), readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

describe("bad-input corpus", () => {
  it("has at least 40 cases, each with an expected.json", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const name of cases) expect(existsSync(join(CORPUS, name, "expected.json")), `${name}/expected.json`).toBe(true);
  });

  it.each(cases)("%s", async (name) => {
    const expected = readJson(join(CORPUS, name, "expected.json")) as Expected;
    const dir = setUp(name);
    const run = await cli(expected.args ?? ["generate"], dir);
    const printed = `${run.stdout}\n${run.stderr}`;
    expect(printed, "a stack trace was printed").not.toMatch(STACK_FRAME);
    expect(CONTROL_CHARACTER.exec(printed)?.index, "a raw control character was printed").toBeUndefined();
    expect(run.code, printed).toBe(expected.exit);
    if (expected.exit === 0) await accepted(name, dir, expected);
    else refused(dir, expected, run.stderr);
  });

  // One program for all of them: a compiler per case cost most of this file's time.
  it("every accepted case's output compiles under the strict flags", () => {
    expect(acceptedOutputs.size, "the accepted cases ran first").toBeGreaterThan(10);
    const all = new Map(
      [...acceptedOutputs].flatMap(([name, files]) => [...files].map(([path, text]) => [`${name}/${path}`, text] as const)),
    );
    expect(typecheckFiles(all)).toEqual([]);
  });
});

function refused(dir: string, expected: Expected, stderr: string) {
  const d = expected.diagnostic;
  expect(d, "a refused case names its diagnostic").toBeDefined();
  if (!d) return;
  const where = d.line === null ? d.file : `${d.file}:${d.line}:${d.column}`;
  const line = new RegExp(`^${escapeRegExp(where)}( \\(#[^)]*\\))? ${d.code} .*${escapeRegExp(d.message)}`, "m");
  expect(stderr).toMatch(line);
  // The help line printed right after it.
  const lines = stderr.split("\n");
  const index = lines.findIndex((l) => line.test(l));
  expect(lines[index + 1], "the diagnostic is followed by its help line").toMatch(/^ {2}help: \S/);
  if (d.help !== undefined) expect(lines[index + 1]).toContain(d.help);
  if (d.see !== undefined) expect(lines[index + 2], "the see: line").toMatch(new RegExp(`^ {2}see: ${escapeRegExp(d.see)}`));
  if (d.at !== undefined) {
    expect(d.line, "`at` needs a line").not.toBeNull();
    const text = readFileSync(join(dir, d.file), "utf8").split(/\r?\n/)[d.line! - 1] ?? "";
    expect(text.slice(d.column! - 1), `${where} should point at ${JSON.stringify(d.at)}`).toMatch(new RegExp(`^${escapeRegExp(d.at)}`));
  }
  expect(existsSync(resolve(dir, expected.output ?? "generated")), "a refused run writes nothing").toBe(false);
}

async function accepted(name: string, dir: string, expected: Expected) {
  const files = readFolder(resolve(dir, expected.output ?? "generated"));
  expect(files.get(MARKER)?.startsWith(MARKER_TEXT), "the folder bears generate's marker").toBe(true);
  files.delete(MARKER);
  expect(files.has("index.ts")).toBe(true);
  for (const [path, text] of files)
    expect(HIDDEN_CHARACTER.exec(text)?.index, `${path} holds a raw control or hidden character`).toBeUndefined();
  expect(inputTextInCode(files, inputFilesOf(dir)), "spec or annotation text printed as code").toEqual([]);
  acceptedOutputs.set(name, files);

  const flag = "__projectorInjected";
  delete (globalThis as Record<string, unknown>)[flag];
  const module = await importGenerated<Record<string, unknown>>(files);
  expect((globalThis as Record<string, unknown>)[flag], "code from the spec ran on import").toBeUndefined();

  expect(expected.tool, "an accepted case names the tool it runs").toBeDefined();
  const project = module[`project${pascalCase(expected.tool!)}`];
  expect(typeof project, `project${pascalCase(expected.tool!)} is not exported`).toBe("function");
  const labels = expected.labels ?? {};
  const resolvers = Object.fromEntries(
    Object.entries(labels).map(([resolver, table]) => [
      resolver,
      async (ids: readonly string[]) => new Map(ids.flatMap((id) => (table[id] !== undefined ? [[id, table[id]] as const] : []))),
    ]),
  );
  const issues: { kind: string; field: string }[] = [];
  const prototype = Object.getOwnPropertyNames(Object.prototype);
  const payload = readJson(join(CORPUS, name, "payload.json"));
  const result = await (project as (response: unknown, resolvers: unknown, options: unknown) => Promise<unknown>)(payload, resolvers, {
    onIssue: (issue: { kind: string; field: string }) => issues.push({ kind: issue.kind, field: issue.field }),
  });
  expect((globalThis as Record<string, unknown>)[flag], "code from the spec ran while projecting").toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype), "the payload polluted Object.prototype").toEqual(prototype);
  // Payloads plant this marker in every field the annotation drops.
  expect(JSON.stringify(result)).not.toContain("NEVER_SHOWN");
  expect(result).toStrictEqual(expected.result);
  if (expected.issues !== undefined) expect(issues).toEqual(expected.issues);
}
