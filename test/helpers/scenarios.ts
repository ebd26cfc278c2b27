// The scenario specs (specs/scenarios/*), each generated once per test worker and shared by every
// test file that reads it: scenarios, no-silent-null, property.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { consumerPrettierConfig } from "../../src/prettier-config.js";
import { generateFrom, ROOT } from "./pipeline.js";

export const SCENARIOS = join(ROOT, "specs/scenarios");

export const scenarioNames = readdirSync(SCENARIOS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const generations = new Map<string, ReturnType<typeof generateFrom>>();

/** A scenario generated as `projector generate` writes it, with the repository's prettier config; callers must not change it. */
export function generatedScenario(name: string): ReturnType<typeof generateFrom> {
  let generation = generations.get(name);
  if (!generation) {
    const folder = join(SCENARIOS, name);
    generation = generateFrom(join(folder, "projector.yaml"), { prettierOptions: consumerPrettierConfig(join(folder, "generated")) });
    generations.set(name, generation);
  }
  return generation;
}
