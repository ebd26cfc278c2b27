import { banner, runtimeFiles, type InputNames } from "../emit/emit.js";
import { RUNTIME_MODULE } from "../emit/module.js";
import { emitResource } from "../emit/resource.js";
import type { RuntimeTemplate } from "../emit/runtime-folder.js";
import { emitTool } from "../emit/tool.js";
import { tableLayoutOf } from "../model/table-layout.js";
import type { Model, ToolModel } from "../model/types.js";
import { resourceModule, toolModule } from "../naming.js";
import { startTokenCounter, type TokenCounter } from "./count-tokens.js";
import { exampleFigures, type TextFigures } from "./example-figures.js";
import { runnableFolder, type RunnableFolder } from "./run-generated.js";

export type { TextFigures } from "./example-figures.js";

export interface TextFigureCounter {
  /**
   * Starts making the runtime runnable in the worker thread that transpiles the modules, so that
   * loading TypeScript overlaps the drafting that decides which tools to count; `count` starts it
   * otherwise. The tokenizer loads in a thread of its own once counting begins: loading it beside
   * the drafting and TypeScript, three threads on two cores, slowed both.
   */
  start(): void;
  /**
   * Projects each list tool's spec example with the generated code and counts it as JSON and as
   * a table (o200k_base), so `init` proposes `text: table` only where the figures say it is smaller.
   */
  count(model: Model, tools: ReadonlySet<string>): Promise<Map<string, TextFigures>>;
  dispose(): Promise<void>;
}

interface Started {
  folder: RunnableFolder;
  runtimeWritten: Promise<void>;
  tokens?: TokenCounter;
}

export function textFigureCounter(runtimeTemplate: RuntimeTemplate, names: InputNames): TextFigureCounter {
  const head = banner(names);
  let started: Started | undefined;
  const start = (): Started => {
    if (started) return started;
    const folder = runnableFolder();
    const runtimeWritten = folder.add(runtimeFiles(runtimeTemplate, names));
    // Nothing awaits the runtime when no tool is counted: its failure is reported by `count`, if at all.
    runtimeWritten.catch(() => undefined);
    started = { folder, runtimeWritten };
    return started;
  };
  return {
    start,
    async count(model, tools) {
      const candidates = model.tools.filter((t) => tools.has(t.name) && t.example !== undefined && tableLayoutOf(t) !== undefined);
      if (candidates.length === 0) return new Map();
      const begun = start();
      begun.tokens ??= startTokenCounter();
      const tokens = begun.tokens;
      // In batches: the main thread projects one batch's examples while the worker transpiles the next.
      const batches = inBatches(candidates, BATCHES);
      const sentResources = new Set<string>();
      const written = batches.map((batch) => {
        const sent = begun.folder.add(projectionFiles(model, batch, head, sentResources));
        // Awaited below, in order; handled at once, so that a later batch whose emit throws leaves none unhandled.
        sent.catch(() => undefined);
        return sent;
      });
      await begun.runtimeWritten;
      // Imported while the worker transpiles the first batch: each batch's projections find it loaded.
      begun.folder.load(RUNTIME_MODULE).catch(() => undefined);
      const counted = await Promise.all(
        batches.map(async (batch, i) => {
          await written[i];
          return exampleFigures(
            begun.folder.load,
            batch.map((tool) => ({
              tool: tool.name,
              module: toolModule(tool.name).path,
              projector: `project${tool.typeName}`,
              example: tool.example,
              layout: tableLayoutOf(tool)!,
            })),
            model.resolvers.map((r) => r.name),
            tokens.count,
          );
        }),
      );
      return new Map(counted.flat());
    },
    dispose: async () => {
      await Promise.all([started?.folder.dispose(), started?.tokens?.dispose()]);
    },
  };
}

/**
 * The modules the candidates' projections import besides the runtime, as generate writes them:
 * their resources and their tools. The barrel, the definitions and the resolvers' types are left
 * out: on a large spec they are a third of the code, and nothing here runs them.
 */
function projectionFiles(model: Model, candidates: readonly ToolModel[], head: string, sentResources: Set<string>): Map<string, string> {
  const files = new Map<string, string>();
  const used = new Set(candidates.map((t) => t.resource.name));
  for (const resource of model.resources)
    if (used.has(resource.name) && !sentResources.has(resource.name)) {
      sentResources.add(resource.name);
      files.set(`${resourceModule(resource.name).path}.ts`, head + emitResource(resource));
    }
  for (const tool of candidates) files.set(`${toolModule(tool.name).path}.ts`, head + emitTool(tool, model.resolvers));
  return files;
}

const BATCHES = 4;

/** The items in `count` runs of (nearly) equal length, in order; fewer where there are fewer items. */
function inBatches<T>(items: readonly T[], count: number): T[][] {
  const size = Math.ceil(items.length / count);
  const batches: T[][] = [];
  for (let from = 0; from < items.length; from += size) batches.push(items.slice(from, from + size));
  return batches;
}
