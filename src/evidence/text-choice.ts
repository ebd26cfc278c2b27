import { banner, type InputNames } from "../emit/emit.js";
import { RUNTIME_MODULE } from "../emit/module.js";
import { emitResource } from "../emit/resource.js";
import { RUNTIME_FOLDER, type RuntimeTemplate } from "../emit/runtime-folder.js";
import { emitTool } from "../emit/tool.js";
import { tableLayoutOf, type TableLayoutModel } from "../model/table-layout.js";
import type { Model } from "../model/types.js";
import { pascalCase, resourceModule, toolModule } from "../naming.js";
import { standInResolvers } from "./budget-check.js";
import { runnableFolder } from "./run-generated.js";
import { countText, TOKENIZERS } from "./tokens.js";

/** A list tool's spec example, counted as the two texts it could send. */
export interface TextFigures {
  json: number;
  table: number;
}

export interface TextFigureCounter {
  /**
   * Projects each list tool's spec example with the generated code and counts it as JSON and as
   * a table (o200k_base), so `init` proposes `text: table` only where the figures say it is smaller.
   */
  count(model: Model, tools: ReadonlySet<string>): Promise<Map<string, TextFigures>>;
  dispose(): Promise<void>;
}

/**
 * Starts making the runtime runnable at once, so that the work (TypeScript's parser, in a worker
 * thread) overlaps the drafting that decides which tools to count.
 */
export function startTextFigures(runtimeTemplate: RuntimeTemplate, names: InputNames): TextFigureCounter {
  const folder = runnableFolder();
  const head = banner(names);
  const runtimeWritten = folder.add(new Map([...runtimeTemplate].map(([file, text]) => [`${RUNTIME_FOLDER}/${file}`, head + text])));
  // Nothing awaits the runtime when no tool is counted: its failure is reported by `count`, if at all.
  runtimeWritten.catch(() => undefined);
  return {
    async count(model, tools) {
      const candidates = model.tools.filter((t) => tools.has(t.name) && t.example !== undefined && tableLayoutOf(t) !== undefined);
      const figures = new Map<string, TextFigures>();
      if (candidates.length === 0) return figures;
      const written = folder.add(projectionFiles(model, candidates, head));
      // The tokenizer's vocabulary loads here while the modules are written.
      TOKENIZERS.o200k_base();
      await Promise.all([runtimeWritten, written]);
      const runtime = (await folder.load(RUNTIME_MODULE)) as {
        serializeToolResult(value: unknown): string;
        withTableLayout<T extends object>(value: T, layout: TableLayoutModel): T;
      };
      for (const tool of candidates) {
        const projector = await folder.load(toolModule(tool.name).path);
        const project = projector[`project${pascalCase(tool.name)}`] as (response: unknown, resolvers: unknown) => Promise<object>;
        // An example the generated code cannot read is the spec's problem, not a reason to stop init.
        const result = await project(tool.example, standInResolvers(model)).catch(() => undefined);
        if (!result) continue;
        const json = countText(JSON.stringify(result), "o200k_base").tokens;
        const table = countText(runtime.serializeToolResult(runtime.withTableLayout(result, tableLayoutOf(tool)!)), "o200k_base").tokens;
        figures.set(tool.name, { json, table });
      }
      return figures;
    },
    dispose: folder.dispose,
  };
}

/**
 * The modules the candidates' projections import besides the runtime, as generate writes them:
 * their resources and their tools. The barrel, the definitions and the resolvers' types are left
 * out: on a large spec they are a third of the code, and nothing here runs them.
 */
function projectionFiles(model: Model, candidates: readonly Model["tools"][number][], head: string): Map<string, string> {
  const files = new Map<string, string>();
  const used = new Set(candidates.map((t) => t.resource.name));
  for (const resource of model.resources)
    if (used.has(resource.name)) files.set(`${resourceModule(resource.name).path}.ts`, head + emitResource(resource));
  for (const tool of candidates) files.set(`${toolModule(tool.name).path}.ts`, head + emitTool(tool, model.resolvers));
  return files;
}
