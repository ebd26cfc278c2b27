import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { generateFrom, importGenerated, tempDir } from "./pipeline.js";

type Project = (response: unknown, resolvers?: unknown, options?: { onIssue?: (issue: ProjectionIssue) => void }) => Promise<unknown>;
/** A generated folder's index, as the tests call its projections. */
export type Projections = Record<string, Project> & { ResponseShapeError: new (...args: never[]) => Error };

/** Generates, with no problem, from a spec and an annotation written to a new folder, and imports what was written. */
export async function generatedFolder(specFile: string, spec: string, annotation: string) {
  const dir = tempDir();
  writeFileSync(join(dir, specFile), spec);
  writeFileSync(join(dir, "projector.yaml"), annotation);
  const generated = await generateFrom(join(dir, "projector.yaml"));
  expect(generated.problems).toEqual([]);
  return { dir, generated, module: await importGenerated<Projections>(generated.files) };
}

/** What a projection does with a body: its result, or the message of the ResponseShapeError it throws; and its issues. */
export async function projectedBy(module: Projections, tool: string, body: unknown) {
  const issues: ProjectionIssue[] = [];
  try {
    return { result: await module[tool]!(body, {}, { onIssue: (issue) => issues.push(issue) }), issues };
  } catch (error) {
    expect(error).toBeInstanceOf(module.ResponseShapeError);
    return { error: (error as Error).message, issues };
  }
}
