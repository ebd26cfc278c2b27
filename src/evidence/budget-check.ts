import type { Annotation } from "../annotation/types.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Model } from "../model/types.js";
import { pascalCase } from "../naming.js";
import type { Projector } from "./run-generated.js";
import { standInResolvers } from "./stand-ins.js";

/**
 * Runs each budgeted tool's generated projector over the spec's own example response, with the
 * default token counter, and reports every tool whose example would be cut.
 */
export async function checkBudgets(
  model: Model,
  files: Map<string, string>,
  annotation: Annotation,
  severity: Diagnostic["severity"],
): Promise<Diagnostic[]> {
  const tools = model.tools.filter((t) => t.budget !== undefined && t.example !== undefined && t.many);
  if (tools.length === 0) return [];
  // Loaded only here: running generated modules takes a compiler most generates never need.
  const { loadGenerated } = await import("./run-generated.js");
  const modules = await loadGenerated(files);
  try {
    const diagnostics: Diagnostic[] = [];
    for (const tool of tools) {
      const project = modules.index[`project${pascalCase(tool.name)}`] as Projector<{
        truncated?: false | { shown: number; total: number };
      }>;
      const { truncated } = await project(tool.example, standInResolvers(model.resolvers.map((r) => r.name)));
      if (!truncated) continue;
      diagnostics.push({
        code: "PRJ042",
        severity,
        message: `tool ${tool.name}: the spec's example response does not fit its budget of ${budgetWords(tool.budget!)}; ${truncated.shown} of ${truncated.total} records would be shown`,
        help:
          tool.budget!.tokens === undefined
            ? "raise `rows`: the tool shows at most that many records of a page, and says how many it had"
            : "raise the budget, drop fields the model does not need, or pass a real tokenizer as `countTokens` (the default counts half the bytes, an over-estimate)",
        location: annotation.locate(["tools", tool.name, "budget"], "key"),
      });
    }
    return diagnostics;
  } finally {
    await modules.dispose();
  }
}

/** A budget as a message names it: `60 tokens`, `2 rows`, `60 tokens and 2 rows`. */
const budgetWords = ({ tokens, rows }: { tokens?: number; rows?: number }) =>
  [tokens === undefined ? [] : [`${tokens} tokens`], rows === undefined ? [] : [rows === 1 ? "1 row" : `${rows} rows`]]
    .flat()
    .join(" and ");
