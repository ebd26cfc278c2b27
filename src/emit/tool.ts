import { resolversOf, shortenedPerRecord } from "../model/resource-needs.js";
import { takesDetail } from "../model/detail.js";
import { tableLayoutOf } from "../model/table-layout.js";
import type { ResolverModel, ResponseAt, ToolModel } from "../model/types.js";
import { camelCase, resourceModule, toolModule } from "../naming.js";
import { toolOutputSchemaCode } from "./json-schema.js";
import { ModuleWriter, RESOLVERS_MODULE, SOURCE_TYPES_MODULE } from "./module.js";
import { nextPageCode } from "./next-page.js";
import { commentText, key, literal, typeOfShape } from "./ts.js";

function pageType(module: ModuleWriter, tool: ToolModel): string[] {
  return tool.page.map(
    (p) => `${key(p.key)}: ${p.mode === "presence" ? "boolean" : `${typeOfShape(p.shape)} | null | ${module.runtimeType("Unusable")}`};`,
  );
}

function pageExpression(module: ModuleWriter, page: ToolModel["page"][number]): string {
  if (page.mode === "presence") return `${module.runtime("present")}(${module.runtime("at")}(response, ${literal(page.path)}))`;
  const field = literal(page.key);
  return `${module.runtime("pageValue")}(response, { path: ${literal(page.path)}, field: ${field}, ctx }, (value) => ${pageRead(module, page.shape, field)})`;
}

/** The reader of a page value, given the value as `value`. */
function pageRead(module: ModuleWriter, shape: ToolModel["page"][number]["shape"], field: string): string {
  const read = `field: ${field}, required: false, ctx }`;
  switch (shape.type) {
    case "string":
    case "number":
    case "integer":
    case "boolean":
      return `${module.runtime(shape.type)}(value, { ${read})`;
    default:
      return `${module.runtime("whole")}<${typeOfShape(shape)}>(value, { schema: {}, ${read})`;
  }
}

/** The response body's type in openapi-typescript's `paths`; a numeric status is a numeric key there. */
function responseType(module: ModuleWriter, at: ResponseAt): string {
  const status = typeof at.status === "number" ? String(at.status) : literal(at.status);
  return `${module.type(SOURCE_TYPES_MODULE, "paths")}[${literal(at.path)}][${literal(at.method)}]["responses"][${status}]["content"][${literal(at.mediaType)}]`;
}

export function emitTool(tool: ToolModel, resolvers: ResolverModel[]): string {
  const module = new ModuleWriter(toolModule(tool.name).path);
  const run = (name: string) => module.runtime(name);
  const resource = resourceModule(tool.resource.name).path;
  const T = tool.typeName;
  const R = tool.resource.typeName;
  const names = resolversOf(tool.resource.fields);
  const included = resolvers
    .filter((r) => names.includes(r.name) && r.type !== undefined && r.label !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  const resolverType = names.length
    ? `Pick<${module.type(RESOLVERS_MODULE, "Resolvers")}, ${names.map(literal).join(" | ")}>`
    : "Record<never, never>";
  const budgeted = tool.budget !== undefined && tool.list !== undefined && tool.many;
  const next = nextPageCode(module, tool);
  // A `next` read from the rows is given them once projected, before the result is built of them.
  const rowsFirst = next?.readsRows === true && tool.many && !budgeted;
  const recordResult = module.type(resource, `${R}Result`);
  const truncatedType = budgeted ? ` truncated: ${module.runtimeType("Truncated")};` : "";
  // A single record the spec lets be null may be no record at all: null in its place in the result.
  const noRecord = !tool.many && tool.rowsNullable;
  const result =
    tool.list === undefined
      ? recordResult
      : `{ ${key(tool.list)}: ${tool.many ? `${recordResult}[]` : noRecord ? `${recordResult} | null` : recordResult}; ${[...pageType(module, tool), ...(next ? [next.type] : [])].join(" ")}${truncatedType} }`;
  const rowCap = budgeted ? tool.budget!.rows : undefined;
  const place = tool.many ? "RECORDS" : "RECORD";
  const placeCode = [
    tool.many
      ? `/** Where a ${commentText(tool.name)} response holds its list of records; a body without one there is an error, not an empty list. */`
      : `/** Where a ${commentText(tool.name)} response holds its record; a body without one there is an error, not a record. */`,
    `const ${place}: ${module.runtimeType("RecordsPlace")} = ${literal({
      tool: tool.name,
      resource: tool.resource.name,
      path: tool.rowsPath,
      nullable: tool.rowsNullable,
      keys: tool.recordKeys,
      ...(tool.errorKeys.length > 0 ? { errorKeys: tool.errorKeys } : {}),
      ...(tool.recordType !== undefined ? { type: tool.recordType } : {}),
      ...(tool.declaredErrorKeys.length > 0 ? { declaredErrorKeys: tool.declaredErrorKeys } : {}),
    })};`,
    "",
  ];
  const found = tool.many
    ? `${run("listAt")}(response, ${place}, options.onIssue)`
    : noRecord
      ? "record === null ? [] : [record]"
      : `[${run("recordAt")}(response, ${place}, options.onIssue)]`;
  // A row budget cuts before anything is resolved, so the cut records cost no lookups.
  const records = rowCap === undefined ? found : `found.slice(0, BUDGET.rows)`;
  const budgetCode = budgeted
    ? [
        `/** The budget of a ${commentText(tool.name)} result: at most this many records and tokens. */`,
        `const BUDGET = ${literal({ ...(rowCap !== undefined ? { rows: rowCap } : {}), ...(tool.budget!.tokens !== undefined ? { tokens: tool.budget!.tokens } : {}) })} satisfies ${module.runtimeType("ToolBudget")};`,
        "",
      ]
    : [];
  const joined = names.length > 0;
  // A tool whose records hold fields sent only in full detail projects each record with the detail its call asked for.
  const detail = takesDetail(tool);
  const detailSetup = detail ? [`const detailed = ${run("recordDetail")}(recordOptions, options.detail);`] : [];
  const projectOne = (record: string) =>
    `${module.value(resource, `project${R}`)}(${record} as ${module.type(resource, `${R}Record`)}, ${joined ? "lookups" : "{}"}, ${detail ? "detailed" : "recordOptions"})`;
  // Labels given after the walk are filled into each record's result, which `placed` hands them.
  const project = (record: string) => (joined ? `${run("placed")}(${projectOne(record)})` : projectOne(record));
  const pageMembers = [
    ...tool.page.map((p) => `${key(p.key)}: ${pageExpression(module, p)}`),
    ...(next ? [next.member("records", rowCap === undefined ? "records.length" : "found.length", budgeted ? "projected" : "rows")] : []),
  ].join(", ");
  const tableLayout = tool.text === "table" ? tableLayoutOf(tool) : undefined;
  const table = tableLayout !== undefined;
  const textLayout = detail ? `options.detail === "full" ? FULL_TEXT : TEXT` : "TEXT";
  // A table tool marks each result it makes, so that its text (and a budget's count of it) is the table.
  const asText = (object: string) => (table ? `${run("withTableLayout")}(${object}, ${textLayout})` : `(${object})`);
  const value = budgeted
    ? `${run("fitBudget")}(projected, { ...BUDGET, countTokens: options.countTokens${rowCap === undefined ? "" : ", total: found.length"} }, (kept, truncated) => ${asText(`{ ${key(tool.list!)}: kept, ${pageMembers ? "...page, " : ""}truncated }`)})`
    : tool.list === undefined
      ? project("records[0]")
      : asText(
          `{ ${key(tool.list)}: ${tool.many ? (rowsFirst ? "rows" : `records.map((record) => ${project("record")})`) : noRecord ? `records.length === 0 ? null : ${project("records[0]")}` : project("records[0]")}, ${pageMembers} }`,
        );
  const layout = table
    ? [
        `/** ${commentText(tool.name)} results read as a table: serializeToolResult sets them out so. */`,
        `const TEXT = ${run("tableLayout")}(${literal(tool.name)}, ${literal(tableLayout)});`,
        "",
        ...(detail
          ? [
              `/** ${commentText(tool.name)} results in full detail read as a table with their columns too. */`,
              `const FULL_TEXT: ${module.runtimeType("TableLayout")} = ${literal(tableLayoutOf(tool, "full"))};`,
              "",
            ]
          : []),
      ]
    : [];
  const usesCtx = next !== undefined || tool.page.some((p) => p.mode === "value");
  const perRecord = shortenedPerRecord(tool.resource.fields);
  const expectedIds = perRecord === 0 ? "0" : perRecord === 1 ? "records.length" : `records.length * ${perRecord}`;
  const setup = [
    ...(budgeted && joined ? [] : detailSetup),
    ...(usesCtx ? [`const ctx = ${run("context")}(${literal(tool.name)}, recordOptions);`] : []),
    ...(rowsFirst ? [`const rows = records.map((record) => ${project("record")});`] : []),
    // The records before the page keys, so that issues come record by record, then the page's. Joined
    // records are projected in the walk, and measured against the budget once their labels are in.
    ...(budgeted && !joined ? [`const projected = records.map((record) => ${project("record")});`] : []),
    ...(budgeted && pageMembers ? [`const page = { ${pageMembers} };`] : []),
  ];
  const projection = setup.length ? `{ ${setup.join(" ")} return ${value}; }` : value;
  const walkRecords = `records.map((record) => ${project("record")})`;
  const inOneWalk =
    budgeted && joined
      ? `(lookups, recordOptions) => ${detail ? `{ ${detailSetup.join(" ")} return ${walkRecords}; }` : walkRecords}, (projected, recordOptions) => ${projection}`
      : `(lookups, recordOptions) => ${projection}`;
  const code = [
    `/** The body ${commentText(tool.operationLabel)} returns. */`,
    `export type ${T}Response = ${responseType(module, tool.response)};`,
    "",
    `/** What the ${commentText(tool.name)} tool returns to the model. */`,
    `export type ${T}Result = ${result};`,
    "",
    `/** The resolvers ${commentText(tool.name)} calls, each at most once per call. */`,
    `export type ${T}Resolvers = ${resolverType};`,
    "",
    `/** JSON Schema of {@link ${T}Result}, usable as the MCP tool's \`outputSchema\`. */`,
    `export const ${camelCase(tool.name)}OutputSchema = ${toolOutputSchemaCode(module, tool)};`,
    "",
    ...layout,
    ...(next ? next.rule : []),
    ...budgetCode,
    ...placeCode,
    ...(names.length
      ? [`const INCLUDED = ${literal(included.map((r) => ({ resolver: r.name, type: r.type, label: r.label })))} as const;`, ""]
      : []),
    `/**`,
    ...(joined
      ? [
          ` * Projects a whole ${commentText(tool.name)} response in one walk: projects each record, naming its joins from`,
          ` * \`included\` and collecting the other ids in page order, calls each resolver at most once with those,`,
          ` * then fills in their labels.`,
        ]
      : [` * Projects a whole ${commentText(tool.name)} response.`]),
    ` */`,
    `export async function project${T}(response: ${T}Response, ${names.length ? "resolvers" : "_resolvers"}: ${T}Resolvers${names.length ? "" : " = {}"}, options: ${module.runtimeType("ProjectOptions")} = {}): Promise<${T}Result> {`,
    ...(noRecord ? [`  const record = ${run("recordAt")}(response, ${place}, options.onIssue);`] : []),
    ...(rowCap === undefined ? [] : [`  const found: unknown[] = ${found};`]),
    `  const records: unknown[] = ${records};`,
    joined
      ? `  return ${run("projectInOneWalk")}({ resolverNames: ${literal(names)}, resolvers, included: ${run("includedLabels")}(response, INCLUDED), options, expectedIds: ${expectedIds} }, ${inOneWalk});`
      : `  return ${run("withDistinctShortIds")}({ options, expectedIds: ${expectedIds} }, (recordOptions) => ${projection});`,
    `}`,
    "",
  ].join("\n");
  return module.render(code);
}
