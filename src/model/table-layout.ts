import type { ToolModel } from "./types.js";

/** How a list tool's result reads as a table; the runtime's `TableLayout`. */
export interface TableLayoutModel {
  list: string;
  columns: string[];
  page: string[];
}

/**
 * The table a tool's result can be set out as: only a tool returning a list has rows to set out. Its
 * records hold the fields annotated `detail: full` only in full detail, and so does the table.
 */
export function tableLayoutOf(tool: ToolModel, detail: "summary" | "full" = "summary"): TableLayoutModel | undefined {
  if (tool.list === undefined || !tool.many) return undefined;
  return {
    list: tool.list,
    columns: tool.resource.fields.filter((f) => detail === "full" || !f.detail).map((f) => f.out),
    page: [...tool.page.map((p) => p.key), ...(tool.next ? ["next"] : []), ...(tool.budget !== undefined ? ["truncated"] : [])],
  };
}
