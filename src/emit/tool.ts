import { tableLayoutOf } from "../model/table-layout.js";
import type { ResolverModel, ResponseAt, ToolModel } from "../model/types.js";
import { camelCase, resourceModule, resultSchemaName } from "../naming.js";
import { toolOutputSchemaCode } from "./json-schema.js";
import { resolversOf, shortenedPerRecord } from "./resource.js";
import { IMPORTS_PLACEHOLDER, withRuntimeImports, type RuntimeExports } from "./imports.js";
import { commentText, key, literal, typeOfShape } from "./ts.js";

function pageType(tool: ToolModel): string[] {
  return tool.page.map((p) => `${key(p.key)}: ${p.mode === "presence" ? "boolean" : `${typeOfShape(p.shape)} | null | Unusable`};`);
}

function pageExpression(page: ToolModel["page"][number]): string {
  if (page.mode === "presence") return `present(at(response, ${literal(page.path)}))`;
  const args = `ctx, ${literal(page.key)}, OPTIONAL`;
  return `pageValue(response, ${literal(page.path)}, ctx, ${literal(page.key)}, (value) => ${pageRead(page.shape, args)})`;
}

/** The reader of a page value, given the value as `value`. */
function pageRead(shape: ToolModel["page"][number]["shape"], args: string): string {
  switch (shape.type) {
    case "string":
      return `string(value, ${args})`;
    case "number":
    case "integer":
      return `${shape.type}(value, ${args})`;
    case "boolean":
      return `boolean(value, ${args})`;
    default:
      return `whole<${typeOfShape(shape)}>(value, ${args}, {})`;
  }
}

/** The response body's type in openapi-typescript's `paths`; a numeric status is a numeric key there. */
function responseType(at: ResponseAt): string {
  const status = /^\d+$/.test(at.status) ? at.status : literal(at.status);
  return `paths[${literal(at.path)}][${literal(at.method)}]["responses"][${status}]["content"][${literal(at.mediaType)}]`;
}

export function emitTool(tool: ToolModel, resolvers: ResolverModel[], runtime: RuntimeExports): string {
  const T = tool.typeName;
  const R = tool.resource.typeName;
  const names = resolversOf(tool.resource.fields);
  const included = resolvers
    .filter((r) => names.includes(r.name) && r.type !== undefined && r.label !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  const resolverType = names.length ? `Pick<Resolvers, ${names.map(literal).join(" | ")}>` : "Record<never, never>";
  const budgeted = tool.budget !== undefined && tool.list !== undefined && tool.many;
  const truncatedType = budgeted ? " truncated: Truncated;" : "";
  const result =
    tool.list === undefined
      ? `${R}Result`
      : `{ ${key(tool.list)}: ${tool.many ? `${R}Result[]` : `${R}Result`}; ${pageType(tool).join(" ")}${truncatedType} }`;
  const rowCap = budgeted ? tool.budget!.rows : undefined;
  const found = tool.many
    ? `rows(response, ${literal(tool.rowsPath)}, ${literal(tool.name)}, options.onIssue)`
    : `[at(response, ${literal(tool.rowsPath)})]`;
  // A row budget cuts before anything is resolved, so the cut records cost no lookups.
  const records = rowCap === undefined ? found : `found.slice(0, ${rowCap})`;
  const project = `projectOne(record as ${R}Record, ${names.length ? "lookups" : "{}"}, recordOptions)`.replace(
    "projectOne",
    `project${R}`,
  );
  const pageMembers = tool.page.map((p) => `${key(p.key)}: ${pageExpression(p)}`).join(", ");
  const tableLayout = tool.text === "table" ? tableLayoutOf(tool) : undefined;
  const table = tableLayout !== undefined;
  // A table tool marks each result it makes, so that its text (and a budget's count of it) is the table.
  const asText = (object: string) => (table ? `withTableLayout(${object}, TEXT)` : `(${object})`);
  const value = budgeted
    ? `fitBudget(records.map((record) => ${project}), (kept, truncated) => ${asText(`{ ${key(tool.list!)}: kept, ${pageMembers ? "...page, " : ""}truncated }`)}, ${tool.budget!.tokens ?? "undefined"}, options.countTokens${rowCap === undefined ? "" : ", found.length"})`
    : tool.list === undefined
      ? project.replace("record as", "records[0] as")
      : asText(
          `{ ${key(tool.list)}: ${tool.many ? `records.map((record) => ${project})` : project.replace("record as", "records[0] as")}, ${pageMembers} }`,
        );
  const layout = table
    ? [
        `/** ${commentText(tool.name)} results read as a table: serializeToolResult sets them out so. */`,
        `const TEXT = tableLayout(${literal(tool.name)}, ${literal(tableLayout)});`,
        "",
      ]
    : [];
  const usesCtx = tool.page.some((p) => p.mode === "value");
  const perRecord = shortenedPerRecord(tool.resource.fields);
  const expectedIds = perRecord === 0 ? "0" : perRecord === 1 ? "records.length" : `records.length * ${perRecord}`;
  const setup = [
    ...(usesCtx ? [`const ctx = context(${literal(tool.name)}, recordOptions);`] : []),
    ...(budgeted && pageMembers ? [`const page = { ${pageMembers} };`] : []),
  ];
  const projection = setup.length ? `{ ${setup.join(" ")} return ${value}; }` : value;
  const code = [
    `import type { paths } from "../openapi.js";`,
    `import { ${names.length ? `collect${R}, ` : ""}project${R}, ${resultSchemaName(R)}, type ${R}Record, type ${R}Result } from "../${resourceModule(tool.resource.name).path}.js";`,
    ...(names.length ? [`import type { Resolvers } from "../resolvers.js";`] : []),
    IMPORTS_PLACEHOLDER,
    "",
    `/** The body ${commentText(tool.operationLabel)} returns. */`,
    `export type ${T}Response = ${responseType(tool.response)};`,
    "",
    `/** What the ${commentText(tool.name)} tool returns to the model. */`,
    `export type ${T}Result = ${result};`,
    "",
    `/** The resolvers ${commentText(tool.name)} calls, each at most once per call. */`,
    `export type ${T}Resolvers = ${resolverType};`,
    "",
    `/** JSON Schema of {@link ${T}Result}, usable as the MCP tool's \`outputSchema\`. */`,
    `export const ${camelCase(tool.name)}OutputSchema = ${toolOutputSchemaCode(tool)};`,
    "",
    ...layout,
    ...(names.length
      ? [`const INCLUDED = ${literal(included.map((r) => ({ resolver: r.name, type: r.type, label: r.label })))} as const;`, ""]
      : []),
    `/**`,
    ` * Projects a whole ${commentText(tool.name)} response: collects every join id, takes labels from \`included\`,`,
    ` * calls each resolver at most once with the ids still unnamed, then projects each record.`,
    ` */`,
    `export async function project${T}(response: ${T}Response, ${names.length ? "resolvers" : "_resolvers"}: ${T}Resolvers${names.length ? "" : " = {}"}, options: ProjectOptions = {}): Promise<${T}Result> {`,
    ...(rowCap === undefined ? [] : [`  const found: unknown[] = ${found};`]),
    `  const records: unknown[] = ${records};`,
    ...(names.length
      ? [
          `  const wanted = { ${names.map((n) => `${key(n)}: new Set<string>()`).join(", ")} };`,
          `  for (const record of records) collect${R}(record, wanted);`,
          `  const lookups = await resolveLabels(wanted, resolvers, includedLabels(response, INCLUDED), options);`,
        ]
      : []),
    `  return withDistinctShortIds(options.onIssue, ${expectedIds}, (recordOptions) => ${projection});`,
    `}`,
    "",
  ]
    .filter((line, i, all) => !(line === "" && all[i - 1] === ""))
    .join("\n");
  return withRuntimeImports(code, runtime);
}
