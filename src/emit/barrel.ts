import type { Model } from "../model/types.js";
import { camelCase } from "../naming.js";
import { resultSchemaName } from "./json-schema.js";
import { fileStem } from "./ts.js";

/** `index.ts`: everything a consumer imports. */
export function emitIndex(model: Model): string {
  const lines = [
    `export type { components, paths } from "./openapi.js";`,
    `export type { Lookups, Resolvers } from "./resolvers.js";`,
    `export { batchFunction, conservativeTokenCount, matchesShortId, ResolverError, resolverFromLoader, serializeToolResult, shortId } from "./runtime.js";`,
    `export type { LabelLoader, Labels, ProjectionIssue, ProjectOptions, RecordOptions, Resolver, Truncated, UnknownCode, Unresolved, Unusable } from "./runtime.js";`,
  ];
  lines.push(
    `export { anthropicToolDefinitions, createTools, openaiToolDefinitions, registerTools, toolDefinitions, ${[...model.tools].sort((a, b) => a.name.localeCompare(b.name)).map((t) => `${camelCase(t.name)}InputSchema, type ${t.typeName}Arguments`).join(", ")}, type Tools, type ToolsOptions } from "./definitions.js";`,
    `export { fullId, ID_BOOK_SIZE } from "./runtime.js";`,
    `export type { McpRequestSchemas, ToolDefinition, ToolOutcome } from "./runtime.js";`,
  );
  const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  for (const r of byName(model.resources)) {
    lines.push(`export { project${r.typeName}, ${resultSchemaName(r)}, type ${r.typeName}Lookups, type ${r.typeName}Record, type ${r.typeName}Result } from "./resources/${fileStem(r.name)}.js";`);
  }
  for (const t of byName(model.tools)) {
    lines.push(
      `export { ${camelCase(t.name)}OutputSchema, project${t.typeName}, type ${t.typeName}Resolvers, type ${t.typeName}Response, type ${t.typeName}Result } from "./tools/${fileStem(t.name)}.js";`,
    );
  }
  return lines.join("\n") + "\n";
}
