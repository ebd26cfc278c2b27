// One small spec per feature (specs/scenarios/*): generate, type-check, project the payload, compare.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { camelCase, pascalCase } from "../src/naming.js";
import { withMarker } from "../src/output/ownership.js";
import { importGenerated, typecheckFiles } from "./helpers/pipeline.js";
import { generatedScenario, SCENARIOS, scenarioNames } from "./helpers/scenarios.js";

const read = (scenario: string, file: string) => JSON.parse(readFileSync(join(SCENARIOS, scenario, file), "utf8")) as unknown;

let typechecked: Promise<string[]> | undefined;
/**
 * Every scenario's generated folder type-checked in one program, each under its own name: one
 * compiler costs a fraction of one per scenario. A problem's path names the scenario it is in.
 */
function typecheckAll(): Promise<string[]> {
  typechecked ??= Promise.all(scenarioNames.map(async (scenario) => [scenario, (await generatedScenario(scenario)).files] as const)).then(
    (all) =>
      typecheckFiles(new Map(all.flatMap(([scenario, files]) => [...files].map(([path, text]) => [`${scenario}/${path}`, text] as const)))),
  );
  return typechecked;
}

/** Runs a scenario's payload through its one tool, recording every resolver call and issue. */
export async function runScenario(scenario: string) {
  const generation = await generatedScenario(scenario);
  expect(generation.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const tool = generation.model!.tools[0]!;
  const labels = read(scenario, "labels.json") as Record<string, Record<string, string>>;
  const calls: Record<string, string[][]> = {};
  const resolvers = Object.fromEntries(
    generation.model!.resolvers.map((r) => [
      r.name,
      async (ids: readonly string[]) => {
        (calls[r.name] ??= []).push([...ids]);
        return new Map(ids.flatMap((id) => (labels[r.name]?.[id] !== undefined ? [[id, labels[r.name]![id]!] as const] : [])));
      },
    ]),
  );
  const module = await importGenerated<Record<string, unknown>>(generation.files);
  const project = module[`project${pascalCase(tool.name)}`] as (
    response: unknown,
    resolvers: unknown,
    options: unknown,
  ) => Promise<unknown>;
  const issues: { kind: string; field: string }[] = [];
  const result = await project(read(scenario, "payload.json"), resolvers, {
    onIssue: (i: { kind: string; field: string }) => issues.push({ kind: i.kind, field: i.field }),
  });
  return { generated: generation, result, calls, issues, schema: module[`${camelCase(tool.name)}OutputSchema`] };
}

describe.each(scenarioNames)("scenario %s", (scenario) => {
  it("projects its payload to the expected result, calling each resolver at most once", async () => {
    const { result, calls, issues, schema } = await runScenario(scenario);
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema as object);
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    expect(existsSync(join(SCENARIOS, scenario, "expected.json")), "expected.json is missing").toBe(true);
    const expected = read(scenario, "expected.json") as { result: unknown; issues: unknown; calls: unknown };
    expect(result).toStrictEqual(expected.result);
    expect(issues).toEqual(expected.issues);
    expect(calls).toEqual(expected.calls);
    for (const list of Object.values(calls)) {
      expect(list).toHaveLength(1);
      expect(list[0]!.length).toBeGreaterThan(0);
    }
  });

  it("generates code that compiles under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes", async () => {
    // A problem in no scenario's folder (or in no file at all) counts against every scenario.
    const owner = (problem: string) => scenarioNames.find((name) => problem.split(":")[0]!.includes(`/${name}/`));
    expect((await typecheckAll()).filter((problem) => [scenario, undefined].includes(owner(problem)))).toEqual([]);
  });

  // Golden output: the generated folder is checked in beside the spec, so every change to emitted
  // code shows in review as a diff (`npx vitest run test/scenarios.test.ts -u` rewrites it).
  it("generates exactly the checked-in folder", async () => {
    // As `projector generate` writes it: the generated files and the marker that says the folder is generate's.
    const files = withMarker((await generatedScenario(scenario)).files);
    const folder = join(SCENARIOS, scenario, "generated");
    for (const [path, text] of files) await expect(text).toMatchFileSnapshot(join(folder, path));
    const onDisk = existsSync(folder)
      ? readdirSync(folder, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => relative(folder, join(e.parentPath, e.name)))
      : [];
    expect(
      onDisk.filter((path) => !files.has(path)),
      "files in the checked-in folder that generate no longer writes",
    ).toEqual([]);
  });
});
