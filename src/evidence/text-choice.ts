import { banner, type InputNames } from "../emit/emit.js";
import { RUNTIME_MODULE } from "../emit/module.js";
import { emitResource } from "../emit/resource.js";
import { RUNTIME_FOLDER, type RuntimeTemplate } from "../emit/runtime-folder.js";
import { emitTool } from "../emit/tool.js";
import { tableLayoutOf, type TableLayoutModel } from "../model/table-layout.js";
import type { Model } from "../model/types.js";
import { pascalCase, resourceModule, toolModule } from "../naming.js";
import { standInResolvers } from "./budget-check.js";
import { writeRunnable } from "./run-generated.js";
import { countText } from "./tokens.js";

/** A list tool's spec example, counted as the two texts it could send. */
export interface TextFigures {
  json: number;
  table: number;
}

/**
 * Projects each list tool's spec example with the generated code and counts it as JSON and as a
 * table (o200k_base), so `init` proposes `text: table` only where the figures say it is smaller.
 */
export async function textFigures(
  model: Model,
  tools: ReadonlySet<string>,
  runtimeTemplate: RuntimeTemplate,
  names: InputNames,
): Promise<Map<string, TextFigures>> {
  const candidates = model.tools.filter((t) => tools.has(t.name) && t.example !== undefined && tableLayoutOf(t) !== undefined);
  const figures = new Map<string, TextFigures>();
  if (candidates.length === 0) return figures;
  const modules = writeRunnable(projectionFiles(model, candidates, names, runtimeTemplate));
  try {
    const runtime = (await modules.load(RUNTIME_MODULE)) as {
      serializeToolResult(value: unknown): string;
      withTableLayout<T extends object>(value: T, layout: TableLayoutModel): T;
    };
    for (const tool of candidates) {
      const projector = await modules.load(toolModule(tool.name).path);
      const project = projector[`project${pascalCase(tool.name)}`] as (response: unknown, resolvers: unknown) => Promise<object>;
      // An example the generated code cannot read is the spec's problem, not a reason to stop init.
      const result = await project(tool.example, standInResolvers(model)).catch(() => undefined);
      if (!result) continue;
      const json = countText(JSON.stringify(result), "o200k_base").tokens;
      const table = countText(runtime.serializeToolResult(runtime.withTableLayout(result, tableLayoutOf(tool)!)), "o200k_base").tokens;
      figures.set(tool.name, { json, table });
    }
    return figures;
  } finally {
    await modules.dispose();
  }
}

/**
 * The modules the candidates' projections import, as generate writes them: the runtime, their
 * resources and their tools. The barrel, the definitions and the resolvers' types are left out:
 * on a large spec they are a third of the code, and nothing here runs them.
 */
function projectionFiles(
  model: Model,
  candidates: readonly Model["tools"][number][],
  names: InputNames,
  runtimeTemplate: RuntimeTemplate,
): Map<string, string> {
  const head = banner(names);
  const files = new Map<string, string>();
  for (const [file, text] of runtimeTemplate) files.set(`${RUNTIME_FOLDER}/${file}`, head + text);
  const used = new Set(candidates.map((t) => t.resource.name));
  for (const resource of model.resources)
    if (used.has(resource.name)) files.set(`${resourceModule(resource.name).path}.ts`, head + emitResource(resource));
  for (const tool of candidates) files.set(`${toolModule(tool.name).path}.ts`, head + emitTool(tool, model.resolvers));
  return files;
}
