// One small spec per feature (specs/scenarios/*): generate, type-check, project the payload, compare.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { camelCase, pascalCase } from "../src/naming.js";
import { generateFrom, importGenerated, ROOT, typecheckFiles } from "./helpers/pipeline.js";

const SCENARIOS = join(ROOT, "specs/scenarios");
const names = readdirSync(SCENARIOS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

const read = (scenario: string, file: string) => JSON.parse(readFileSync(join(SCENARIOS, scenario, file), "utf8")) as unknown;

/** Runs a scenario's payload through its one tool, recording every resolver call and issue. */
export async function runScenario(scenario: string) {
  const generated = await generateFrom(join(SCENARIOS, scenario, "projector.yaml"));
  expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const tool = generated.model!.tools[0]!;
  const labels = read(scenario, "labels.json") as Record<string, Record<string, string>>;
  const calls: Record<string, string[][]> = {};
  const resolvers = Object.fromEntries(
    generated.model!.resolvers.map((r) => [
      r.name,
      async (ids: readonly string[]) => {
        (calls[r.name] ??= []).push([...ids]);
        return new Map(ids.flatMap((id) => (labels[r.name]?.[id] !== undefined ? [[id, labels[r.name]![id]!] as const] : [])));
      },
    ]),
  );
  const module = await importGenerated<Record<string, unknown>>(generated.files);
  const project = module[`project${pascalCase(tool.name)}`] as (response: unknown, resolvers: unknown, options: unknown) => Promise<unknown>;
  const issues: { kind: string; field: string }[] = [];
  const result = await project(read(scenario, "payload.json"), resolvers, { onIssue: (i: { kind: string; field: string }) => issues.push({ kind: i.kind, field: i.field }) });
  return { generated, result, calls, issues, schema: module[`${camelCase(tool.name)}OutputSchema`] };
}

describe.each(names)("scenario %s", (scenario) => {
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
    const generated = await generateFrom(join(SCENARIOS, scenario, "projector.yaml"));
    expect(typecheckFiles(generated.files)).toEqual([]);
  });
});
