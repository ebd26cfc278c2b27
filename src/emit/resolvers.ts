import type { ResolverModel } from "../model/types.js";
import { commentText, key } from "./ts.js";
import { runtimeSpecifier } from "./runtime-folder.js";

export function emitResolvers(declared: ResolverModel[]): string {
  const resolvers = [...declared].sort((a, b) => a.name.localeCompare(b.name));
  const describe = (r: ResolverModel) =>
    r.type !== undefined
      ? `Labels for ${commentText(r.type)} ids; \`included\` ${commentText(r.type)} records give theirs from \`${commentText(r.label ?? "")}\`.`
      : `Labels for the ids joined through "${commentText(r.name)}"${r.label !== undefined ? `; an embedded record that carries \`${commentText(r.label)}\` gives its own` : ""}.`;
  return [
    ...(resolvers.length ? [`import type { Labels, Resolver } from "${runtimeSpecifier(0)}";`, ""] : []),
    `/** Batched lookups: each receives distinct ids (never an empty list) and returns a Map of id to label. */`,
    // One member a line: prettier keeps a doc comment on the line it was emitted on.
    `export interface Resolvers {\n${resolvers.map((r) => `/** ${describe(r)} */\nreadonly ${key(r.name)}: Resolver;`).join("\n")}\n}`,
    "",
    `/** Labels already resolved, by resolver name, as \`projectX\` functions read them. */`,
    `export interface Lookups { ${resolvers.map((r) => `readonly ${key(r.name)}: Labels;`).join(" ")} }`,
    "",
  ].join("\n");
}
