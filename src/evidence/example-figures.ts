import { RUNTIME_MODULE } from "../emit/module.js";
import type { TableLayoutModel } from "../model/table-layout.js";
import type { Projector } from "./run-generated.js";
import { standInResolvers } from "./stand-ins.js";

/** A list tool's spec example, counted as the two texts it could send. */
export interface TextFigures {
  json: number;
  table: number;
}

/** What projecting one tool's example takes. */
export interface FigureCandidate {
  tool: string;
  /** The tool's module in the output folder, without `.ts`, and the projector it exports. */
  module: string;
  projector: string;
  example: unknown;
  layout: TableLayoutModel;
}

/** The generated runtime's functions that write a result as the text a tool sends. */
export type TextRuntime = {
  serializeToolResult(value: unknown): string;
  withTableLayout<T extends object>(value: T, layout: TableLayoutModel): T;
};

/**
 * Projects each tool's example with its generated projector (the resolvers answered by stand-ins)
 * and counts the result as JSON and as a table (o200k_base, by `countTokens`). A tool whose example
 * the generated code cannot read has no figures: that is the spec's problem, not a reason to stop init.
 */
export async function exampleFigures(
  load: (stem: string) => Promise<Record<string, unknown>>,
  candidates: readonly FigureCandidate[],
  resolvers: readonly string[],
  countTokens: (texts: string[]) => Promise<number[]>,
): Promise<[tool: string, figures: TextFigures][]> {
  const runtime = (await load(RUNTIME_MODULE)) as TextRuntime;
  const projected: [tool: string, json: string, table: string][] = [];
  for (const candidate of candidates) {
    const project = (await load(candidate.module))[candidate.projector] as Projector<object>;
    const result = await project(candidate.example, standInResolvers(resolvers)).catch(() => undefined);
    if (!result) continue;
    projected.push([
      candidate.tool,
      JSON.stringify(result),
      runtime.serializeToolResult(runtime.withTableLayout(result, candidate.layout)),
    ]);
  }
  const tokens = await countTokens(projected.flatMap(([, json, table]) => [json, table]));
  return projected.map(([tool], i) => [tool, { json: tokens[2 * i]!, table: tokens[2 * i + 1]! }]);
}
