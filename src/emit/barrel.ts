import type { Model } from "../model/types.js";
import { camelCase, resourceModule, toolModule, type GeneratedModule } from "../naming.js";
import {
  DEFINITIONS_MODULE,
  INDEX_MODULE,
  moduleSpecifier,
  RESOLVERS_MODULE,
  RUNTIME_MODULE,
  SOURCE_TYPES_MODULE,
  SPEC_RESOLVERS_MODULE,
} from "./module.js";
import { hasSpecResolvers } from "./spec-resolvers.js";

/** `index.ts`: everything a consumer imports. */
export function emitIndex(model: Model): string {
  const from = (module: string) => moduleSpecifier(INDEX_MODULE, module);
  const reexport = (module: GeneratedModule) =>
    `export { ${[...module.values, ...module.types.map((t) => `type ${t}`)].join(", ")} } from ${from(module.path)};`;
  const lines = [
    `export type { components, paths } from ${from(SOURCE_TYPES_MODULE)};`,
    `export type { Lookups, Resolvers } from ${from(RESOLVERS_MODULE)};`,
    `export { batchFunction, conservativeTokenCount, DEFAULT_RESOLVER_TIMEOUT_MS, matchesShortId, ResolverError, resolverFromLoader, ResponseShapeError, serializeToolResult, shortId } from ${from(RUNTIME_MODULE)};`,
    `export type { LabelLoader, Labels, ProjectionIssue, ProjectOptions, RecordOptions, Resolver, Truncated, UnknownCode, Unresolved, Unusable } from ${from(RUNTIME_MODULE)};`,
  ];
  const definitions = [
    "anthropicToolDefinitions",
    "callToolByName",
    "createTools",
    "openaiResponsesToolDefinitions",
    "openaiToolDefinitions",
    "registerTools",
    "toolDefinitions",
    ...[...model.tools]
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((t) => [`${camelCase(t.name)}InputSchema`, `type ${t.typeName}Arguments`]),
    "type CallSetup",
    "type Tools",
    "type ToolsOptions",
  ];
  lines.push(
    `export { ${definitions.join(", ")} } from ${from(DEFINITIONS_MODULE)};`,
    `export { fullId, ID_BOOK_CHARACTERS, ID_BOOK_LONGEST_ID, ID_BOOK_SIZE } from ${from(RUNTIME_MODULE)};`,
    ...(hasSpecResolvers(model)
      ? [`export { createResolvers, type ResolversClient, type ResolversFromSpec } from ${from(SPEC_RESOLVERS_MODULE)};`]
      : []),
    `export type { AnthropicTool, CallInfo, CallOptions, JsonSchema, McpRequestSchemas, OpenAIChatTool, OpenAIResponsesTool, ToolDefinition, ToolHints, ToolInputSchema, ToolOutcome } from ${from(RUNTIME_MODULE)};`,
  );
  const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  for (const r of byName(model.resources)) lines.push(reexport(resourceModule(r.name)));
  for (const t of byName(model.tools)) lines.push(reexport(toolModule(t.name)));
  return `${lines.join("\n")}\n`;
}
