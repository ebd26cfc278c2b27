import { emitFiles, type InputNames } from "../emit/emit.js";
import type { RuntimeTemplate } from "../emit/runtime-folder.js";
import { tableLayoutOf, type TableLayoutModel } from "../model/table-layout.js";
import type { Model } from "../model/types.js";
import { pascalCase } from "../naming.js";
import { standInResolvers } from "./budget-check.js";
import { loadGenerated } from "./run-generated.js";
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
  // Only what the candidates need is emitted and run: on a large spec they are a few of hundreds of tools.
  const used = new Set(candidates.map((t) => t.resource.name));
  const reduced: Model = { ...model, tools: candidates, resources: model.resources.filter((r) => used.has(r.name)) };
  const modules = await loadGenerated(emitFiles({ model: reduced, names, runtimeTemplate }));
  try {
    const runtime = modules.runtime as {
      serializeToolResult(value: unknown): string;
      withTableLayout<T extends object>(value: T, layout: TableLayoutModel): T;
    };
    for (const tool of candidates) {
      const project = modules.index[`project${pascalCase(tool.name)}`] as (response: unknown, resolvers: unknown) => Promise<object>;
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
