import type { Model } from "../model/types.js";
import { camelCase, resourceModule, toolModule, type GeneratedModule } from "../naming.js";
import { runtimeSpecifier } from "./runtime-folder.js";

const reexport = (module: GeneratedModule) =>
  `export { ${[...module.values, ...module.types.map((t) => `type ${t}`)].join(", ")} } from "./${module.path}.js";`;

/** `index.ts`: everything a consumer imports. */
export function emitIndex(model: Model): string {
  const lines = [
    `export type { components, paths } from "./openapi.js";`,
    `export type { Lookups, Resolvers } from "./resolvers.js";`,
    `export { batchFunction, conservativeTokenCount, DEFAULT_RESOLVER_TIMEOUT_MS, matchesShortId, ResolverError, resolverFromLoader, serializeToolResult, shortId } from "${runtimeSpecifier(0)}";`,
    `export type { LabelLoader, Labels, ProjectionIssue, ProjectOptions, RecordOptions, Resolver, Truncated, UnknownCode, Unresolved, Unusable } from "${runtimeSpecifier(0)}";`,
  ];
  lines.push(
    `export { anthropicToolDefinitions, createTools, openaiToolDefinitions, registerTools, toolDefinitions, ${[...model.tools]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => `${camelCase(t.name)}InputSchema, type ${t.typeName}Arguments`)
      .join(", ")}, type Tools, type ToolsOptions } from "./definitions.js";`,
    `export { fullId, ID_BOOK_SIZE } from "${runtimeSpecifier(0)}";`,
    `export type { McpRequestSchemas, ToolDefinition, ToolOutcome } from "${runtimeSpecifier(0)}";`,
  );
  const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  for (const r of byName(model.resources)) lines.push(reexport(resourceModule(r.name)));
  for (const t of byName(model.tools)) lines.push(reexport(toolModule(t.name)));
  return `${lines.join("\n")}\n`;
}
