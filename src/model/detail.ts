import type { ToolModel } from "./types.js";

/** The argument a tool takes when some of its fields are sent only in full detail. */
export const DETAIL_ARGUMENT = "detail";

/** Whether a tool's records hold fields annotated `detail: full`: its input then takes `detail`. */
export const takesDetail = (tool: ToolModel): boolean => tool.resource.fields.some((field) => field.detail !== undefined);

/** The `detail` argument's schema, as the model reads it. */
export function detailSchema(tool: ToolModel): { [key: string]: unknown } {
  const fields = tool.resource.fields.filter((field) => field.detail !== undefined).map((field) => field.out);
  return {
    type: "string",
    enum: ["summary", "full"],
    default: "summary",
    description: `"full" also sends ${fields.join(", ")}; "summary" (the default) leaves them out.`,
  };
}

/** The spec name of a parameter the model would pass under `detail` too, for a tool that takes `detail`. */
export function detailArgumentClash(tool: ToolModel): string | undefined {
  return takesDetail(tool) ? tool.inputs.parameters.find((p) => p.argument === DETAIL_ARGUMENT && p.fixed === undefined)?.name : undefined;
}
