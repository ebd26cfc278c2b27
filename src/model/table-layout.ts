import type { ToolModel } from "./types.js";

/** How a list tool's result reads as a table; the runtime's `TableLayout`. */
export interface TableLayoutModel {
  list: string;
  columns: string[];
  page: string[];
}

/** The table a tool's result can be set out as: only a tool returning a list has rows to set out. */
export function tableLayoutOf(tool: ToolModel): TableLayoutModel | undefined {
  if (tool.list === undefined || !tool.many) return undefined;
  const budgeted = tool.budget !== undefined;
  return {
    list: tool.list,
    columns: tool.resource.fields.map((f) => f.out),
    page: [...tool.page.map((p) => p.key), ...(tool.next ? ["next"] : []), ...(budgeted ? ["truncated"] : [])],
  };
}
