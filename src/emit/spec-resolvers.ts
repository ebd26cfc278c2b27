import type { Model, ResolverModel, ResolverSource } from "../model/types.js";
import { clientInterface } from "./client-type.js";
import { schemaCode } from "./json-schema.js";
import { ModuleWriter, RESOLVERS_MODULE, SPEC_RESOLVERS_MODULE } from "./module.js";
import { key, literal } from "./ts.js";

type SpecBacked = ResolverModel & { source: ResolverSource };

const specBacked = (model: Model): SpecBacked[] =>
  model.resolvers.filter((r): r is SpecBacked => r.source !== undefined).sort((a, b) => a.name.localeCompare(b.name));

export const hasSpecResolvers = (model: Model): boolean => specBacked(model).length > 0;

/** The runtime's `SpecResolverSource` for one resolver, as plain data. */
const sourceData = (r: SpecBacked) => ({
  method: r.source.method,
  path: r.source.path,
  parameter: {
    name: r.source.parameter.name,
    in: r.source.parameter.in,
    ...(r.source.parameter.serialization ?? {}),
  },
  ...(r.source.max !== undefined ? { max: r.source.max } : {}),
  concurrency: r.source.concurrency,
  records: r.source.records,
  jsonapi: r.source.jsonapi,
  ...(r.source.jsonapi && r.type !== undefined ? { type: r.type } : {}),
  id: r.source.jsonapi ? "id" : r.id,
  ...(r.source.ids !== undefined ? { ids: r.source.ids } : {}),
  label: r.source.label,
  ...(r.source.declaredErrorKeys.length > 0 ? { declaredErrorKeys: r.source.declaredErrorKeys } : {}),
});

/**
 * `spec-resolvers.ts`: `createResolvers(client)`, the resolvers the annotation backs with an
 * operation, asking the API through the consumer's openapi-fetch client. Its return type names
 * exactly those, so hand-written ones complete it: `{ ...createResolvers(client), other }`.
 */
export function emitSpecResolvers(model: Model): string {
  const resolvers = specBacked(model);
  const names = resolvers.map((r) => literal(r.name)).join(" | ");
  const module = new ModuleWriter(SPEC_RESOLVERS_MODULE);
  const code = [
    ...clientInterface(
      "ResolversClient",
      "What createResolvers needs of an openapi-fetch client (`createClient<paths>()`): the methods its operations use, for their paths.",
      resolvers.map((r) => r.source),
      () => module.runtimeType("ClientAnswer"),
    ),
    `/** The resolvers the annotation backs with an operation; any others are written by hand. */`,
    `export type ResolversFromSpec = Pick<${module.type(RESOLVERS_MODULE, "Resolvers")}, ${names}>;`,
    "",
    `const sources = { ${resolvers.map((r) => `${key(r.name)}: ${schemaCode(sourceData(r))}`).join(", ")} } as const satisfies Record<string, ${module.runtimeType("SpecResolverSource")}>;`,
    "",
    `/** Each resolver asks its operation: a batch of ids a request, or one id a request, with a bounded number in flight. */`,
    `export function createResolvers(client: ResolversClient): ResolversFromSpec {`,
    `  return { ${resolvers.map((r) => `${key(r.name)}: ${module.runtime("specResolver")}(client, sources[${literal(r.name)}])`).join(", ")} };`,
    `}`,
    "",
  ].join("\n");
  return module.render(code);
}
