import { oneLine } from "./control-characters.js";
import type { Field, Model, ToolModel } from "./model/types.js";

function describe(field: Field): string {
  const leaf = field.name.split(".").pop();
  const parts: string[] = [];
  if (field.kind === "related-id" && field.beside !== undefined)
    return `its id beside the name as ${field.out}, for ${field.argumentOf.join(", ")}${field.shorten ? ", shortened" : ""}`;
  if (field.out !== leaf) parts.push(`renamed ${field.out}`);
  if (field.detail) parts.push("only in full detail");
  switch (field.kind) {
    case "join":
      parts.push(`joined through ${field.resolver}${field.many ? " (to-many)" : ""}`);
      break;
    case "related-id":
      parts.push(`kept as id${field.many ? "s" : ""} for ${field.argumentOf.join(", ")}${field.shorten ? ", shortened" : ""}`);
      break;
    case "object":
      parts.push(`kept ${field.children.length} part${field.children.length === 1 ? "" : "s"}`);
      break;
    case "value":
      if (field.argumentOf) parts.push(`kept as argument to ${field.argumentOf.join(", ")}${field.shorten ? ", shortened" : ""}`);
      else if (field.legend?.kind === "static") parts.push(`expanded to words (${field.legend.entries.length} codes)`);
      else if (field.legend?.kind === "resolver") parts.push(`expanded through ${field.legend.resolver}`);
      else if (field.format) parts.push(`formatted as ${field.format.name}`);
      else parts.push("kept");
  }
  return parts.join(", ");
}

function fieldLines(fields: Field[], width: number): string[] {
  return fields.flatMap((f) => [
    `  ${f.name.padEnd(width)}  ${describe(f)}`,
    ...(f.kind === "object" ? fieldLines(f.children, width) : []),
  ]);
}

function toolSummary(tool: ToolModel): string {
  const resource = tool.resource;
  const names = [...allNames(resource.fields), ...resource.dropped.map((d) => d.name)];
  // A name far longer than the others is not padded to: each line still says what is done with its field.
  const width = Math.min(Math.max(...names.map((n) => n.length), 8), 40);
  const shape =
    tool.list === undefined
      ? `one ${resource.name}`
      : `{ ${[`${tool.list}${tool.many ? "[]" : ""}`, ...tool.page.map((p) => p.key)].join(", ")} }`;
  return [
    `${tool.name}  ${tool.operationLabel}  ->  ${shape}`,
    ...fieldLines(resource.fields, width),
    ...resource.dropped.map((d) => `  ${d.name.padEnd(width)}  dropped${d.by === undefined ? "" : ` by ${d.by}`}: ${d.reason}`),
    ...(tool.unread.length ? [`  not in the result: ${tool.unread.join(", ")}`] : []),
  ]
    .map(oneLine)
    .join("\n");
}

function allNames(fields: Field[]): string[] {
  return fields.flatMap((f) => [f.name, ...(f.kind === "object" ? allNames(f.children) : [])]);
}

/** Per tool, what reaches the model and what does not, as `npm start` prints it. */
export function summarize(model: Model): string {
  return model.tools.map(toolSummary).join("\n\n");
}
