import { DETAIL_ARGUMENT, detailSchema, takesDetail } from "../model/detail.js";
import type { InputParameter, JsonSchema, Model, ToolModel } from "../model/types.js";
import { camelCase, toolModule } from "../naming.js";
import { clientInterface } from "./client-type.js";
import { schemaCode } from "./json-schema.js";
import { DEFINITIONS_MODULE, ModuleWriter, RESOLVERS_MODULE } from "./module.js";
import { NEXT_INPUT_SCHEMA } from "./next-page.js";
import { commentText, key, literal } from "./ts.js";

/** The tool's `inputSchema`: one property per argument the model passes; fixed parameters are not shown. */
export function inputSchemaOf(tool: ToolModel): JsonSchema {
  const shown = tool.inputs.parameters.filter((p) => p.argument !== undefined && p.fixed === undefined);
  // `detail` is the tool's own argument: it chooses the fields sent, and no request carries it.
  const detail = takesDetail(tool) ? [[DETAIL_ARGUMENT, detailSchema(tool)] as const] : [];
  return {
    type: "object",
    properties: Object.fromEntries([
      ...shown.map((p) => [p.argument!, p.schema] as const),
      ...(tool.next ? [["next", NEXT_INPUT_SCHEMA] as const] : []),
      ...detail,
    ]),
    required: shown.filter((p) => p.required).map((p) => p.argument!),
    additionalProperties: false,
  };
}

/**
 * What a tool checks beyond its `inputSchema` once the id book has expanded the short ids it was
 * given, laid over that schema: the spec's constraints on the full ids. Undefined when there are none.
 */
export function fullIdChecksOf(tool: ToolModel): JsonSchema | undefined {
  const checked = tool.inputs.parameters.filter((p) => p.argument !== undefined && p.fixed === undefined && p.fullIdChecks);
  if (checked.length === 0) return undefined;
  return { properties: Object.fromEntries(checked.map((p) => [p.argument!, p.fullIdChecks!])) };
}

/** The TypeScript type of values a schema of the emitted subset accepts. */
export function typeOfSchema(schema: JsonSchema): string {
  if (Array.isArray(schema["enum"])) return schema["enum"].map(literal).join(" | ") || "never";
  if ("const" in schema) return literal(schema["const"]);
  if (Array.isArray(schema["anyOf"])) return schema["anyOf"].map((branch) => `(${typeOfSchema(branch as JsonSchema)})`).join(" | ");
  const types = schema["type"] === undefined ? [] : ([] as unknown[]).concat(schema["type"]);
  if (types.length === 0) return "unknown";
  const items = typeof schema["items"] === "object" && schema["items"] !== null ? typeOfSchema(schema["items"] as JsonSchema) : "unknown";
  const typeOf = (type: unknown) =>
    type === "array" ? `Array<${items}>` : type === "object" ? objectType(schema) : (SCALAR_TYPES[String(type)] ?? "unknown");
  return types.map(typeOf).join(" | ");
}

/** The TypeScript type of each JSON Schema type that holds no other value. */
const SCALAR_TYPES: Readonly<Record<string, string>> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  null: "null",
};

function objectType(schema: JsonSchema): string {
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []);
  const members = Object.entries(properties).map(
    ([name, inner]) => `${key(name)}${required.has(name) ? "" : "?"}: ${typeOfSchema(inner)};`,
  );
  const additional = schema["additionalProperties"];
  // An index signature must admit every named member too, so only a map with no named members is typed by its schema.
  const open =
    additional === false
      ? ""
      : typeof additional === "object" && members.length === 0
        ? ` [key: string]: ${typeOfSchema(additional as JsonSchema)};`
        : " [key: string]: unknown;";
  return `{ ${members.join(" ")}${open} }`;
}

/** A key of an object literal that is always an own property: written plainly, `__proto__` would set the prototype. */
const ownKey = (name: string) => (name === "__proto__" ? `[${literal(name)}]` : key(name));

const callOf = (tool: ToolModel) => ({
  method: tool.inputs.method,
  path: tool.inputs.path,
  parameters: tool.inputs.parameters.map((p: InputParameter) => ({
    name: p.name,
    in: p.in,
    ...(p.argument !== undefined && p.fixed === undefined ? { argument: p.argument } : {}),
    ...(p.fixed ? { fixed: p.fixed } : {}),
    ...(p.legend ? { legend: p.legend } : {}),
    shortIds: p.shortIds,
    ...(p.serialization ? { style: p.serialization.style, explode: p.serialization.explode } : {}),
    ...(p.shortIdProperties ? { shortIdProperties: p.shortIdProperties } : {}),
    ...(p.propertyLegends ? { propertyLegends: p.propertyLegends } : {}),
  })),
  ...(tool.inputs.bodyMediaType ? { bodyMediaType: tool.inputs.bodyMediaType } : {}),
  ...(tool.next ? { nextPage: true } : {}),
});

/**
 * `definitions.ts`: the input half of every tool. Its definitions for the model, a typed call per
 * tool through the consumer's openapi-fetch client, and the adapters for MCP and function calling.
 */
export function emitDefinitions(model: Model): string {
  const module = new ModuleWriter(DEFINITIONS_MODULE);
  const run = (name: string) => module.runtime(name);
  const runType = (name: string) => module.runtimeType(name);
  const fromTool = (t: ToolModel) => ({
    value: (name: string) => module.value(toolModule(t.name).path, name),
    type: (name: string) => module.type(toolModule(t.name).path, name),
  });
  const tools = [...model.tools].sort((a, b) => a.name.localeCompare(b.name));
  const hasResolvers = model.resolvers.length > 0;
  const lines: string[] = [];
  const checkedSchemas = new Map<ToolModel, string>();
  for (const t of tools) {
    const schema = inputSchemaOf(t);
    const fullIdChecks = fullIdChecksOf(t);
    lines.push(
      `/** The arguments the ${commentText(t.name)} tool takes. */`,
      `export type ${t.typeName}Arguments = ${typeOfSchema(schema)};`,
      "",
      `/** JSON Schema of {@link ${t.typeName}Arguments}: the MCP tool's \`inputSchema\`. */`,
      `export const ${camelCase(t.name)}InputSchema = ${schemaCode(schema, () => runType("JsonSchema"))} satisfies ${runType("ToolInputSchema")};`,
      "",
      `const ${camelCase(t.name)}Call: ${runType("ToolCall")} = ${schemaCode(callOf(t))};`,
      "",
    );
    if (fullIdChecks) {
      const name = `${camelCase(t.name)}ArgumentSchema`;
      checkedSchemas.set(t, name);
      lines.push(
        `/** What the ${commentText(t.name)} tool checks once short ids are expanded: its input schema and the spec's constraints on the full ids. */`,
        `const ${name} = ${run("overlaid")}(${camelCase(t.name)}InputSchema, ${schemaCode(fullIdChecks)});`,
        "",
      );
    }
  }
  lines.push(
    `/** Every tool's name, title, description, input and output schema and hints, as MCP's \`tools/list\` carries them. */`,
    `export const toolDefinitions = [${tools
      .map(
        (t) =>
          `{ name: ${literal(t.name)}, ${t.inputs.title !== undefined ? `title: ${literal(t.inputs.title)}, ` : ""}description: ${literal(t.inputs.description)}, inputSchema: ${camelCase(t.name)}InputSchema, outputSchema: ${fromTool(t).value(`${camelCase(t.name)}OutputSchema`)}${Object.keys(t.inputs.hints).length > 0 ? `, annotations: ${schemaCode(t.inputs.hints)}` : ""} }`,
      )
      .join(", ")}] as const satisfies readonly ${runType("ToolDefinition")}[];`,
    "",
    `/** The definitions in Anthropic's Messages API \`tools\` shape: \`{ name, description, input_schema }\`. */`,
    `export const anthropicToolDefinitions = ${run("anthropicTools")}(toolDefinitions);`,
    "",
    `/** The definitions in OpenAI's Chat Completions \`tools\` shape: \`{ type: "function", function: { name, description, parameters } }\`. */`,
    `export const openaiToolDefinitions = ${run("openaiTools")}(toolDefinitions);`,
    "",
    `/** The definitions in OpenAI's Responses API \`tools\` shape: \`{ type: "function", name, description, parameters, strict: false }\`. */`,
    `export const openaiResponsesToolDefinitions = ${run("openaiResponsesTools")}(toolDefinitions);`,
    "",
    ...clientInterface(
      "ToolsClient",
      "What createTools needs of an openapi-fetch client (`createClient<paths>()`): the methods the tools call, for this spec's paths.",
      tools.map((t) => t.inputs),
      () => runType("ClientAnswer"),
    ),
    `/** What a call may use in place of createTools' own options. */`,
    `export type CallSetup = Partial<Pick<ToolsOptions, "client"${hasResolvers ? ` | "resolvers"` : ""} | "onIssue" | "idBook">>;`,
    "",
    `export interface ToolsOptions<Context = unknown> {`,
    `  /** The consumer's openapi-fetch client for this spec (\`createClient<paths>()\`): its base URL, auth and fetch make the requests. */`,
    `  readonly client: ToolsClient;`,
    ...(hasResolvers ? [`  readonly resolvers: ${module.type(RESOLVERS_MODULE, "Resolvers")};`] : []),
    `  readonly onIssue?: ${runType("ProjectOptions")}["onIssue"];`,
    `  /** How long a call waits for the API, and for a shared \`idBook\`: milliseconds up to the runtime's \`MAX_TIMEOUT_MS\`, or \`Infinity\`; \`DEFAULT_CALL_TIMEOUT_MS\` (30 s) unless given. createTools throws for any other value. */`,
    `  readonly timeoutMs?: number;`,
    `  /**`,
    `   * Where short ids are kept for the next call: a book shared by every process serving these`,
    `   * tools (\`redisIdBook\` of \`openapi-projector/redis-id-book\`); this process's memory when not given.`,
    `   */`,
    `  readonly idBook?: ${runType("IdBook")};`,
    `  /**`,
    `   * Called at the start of every call with the call's \`context\` (registerTools passes the MCP SDK's \`extra\`:`,
    `   * \`authInfo\`, \`sessionId\`, \`requestInfo\`): the client, resolvers, onIssue or idBook it returns serve that call alone.`,
    `   * With perCall, a call uses only the idBook perCall returns (one per user, say): without one, its ids are shown whole.`,
    `   * A throw fails the call with an error for the model.`,
    `   */`,
    `  readonly perCall?: (call: ${runType("CallInfo")}<Context>) => CallSetup | undefined | Promise<CallSetup | undefined>;`,
    `}`,
    "",
    `/** One function per tool: arguments in, \`{ result, text }\` or \`{ error }\` out, never a throw. */`,
    // A project with no tools yet has no member to use the parameter, which noUnusedParameters allows by its name.
    `export type Tools<${tools.length > 0 ? "Context" : "_Context"} = unknown> = {`,
    ...tools.map(
      (t) =>
        `  readonly ${key(t.name)}: (args: ${t.typeName}Arguments, call?: ${runType("CallOptions")}<Context>) => Promise<${runType("ToolOutcome")}<${fromTool(t).type(`${t.typeName}Result`)}>>;`,
    ),
    `};`,
    "",
    `/** Each tool checks its arguments, calls the API through \`client\`, and projects the response; \`call.signal\` cancels the request and the lookups. */`,
    `export function createTools<Context = unknown>(${tools.length > 0 ? "options" : "_options"}: ToolsOptions<Context>): Tools<Context> {`,
    // Declared only for tools that read them: a project with no tools yet compiles under noUnusedLocals.
    ...(tools.length > 0
      ? [
          `  const idBook = ${run("useIdBook")}(options.idBook);`,
          `  const timeout: ${runType("CallOptions")} = options.timeoutMs !== undefined ? { timeoutMs: ${run("checkedTimeoutMs")}(options.timeoutMs, "createTools") } : {};`,
          `  // A call's options: these, or with \`perCall\`, the call's own laid over them.`,
          `  return ${run("setUpEachCall")}(options, options.perCall, (options, callerBook): Tools<Context> => {`,
          `  const settings: ${runType("ToolSettings")} = { projection: options.onIssue ? { onIssue: options.onIssue } : {}, ...${run("idBookOfCall")}(idBook, callerBook) };`,
        ]
      : [`  ${run("useIdBook")}(_options.idBook);`]),
    `  return {`,
    ...tools.map(
      (t) =>
        `    ${ownKey(t.name)}: (args, call = {}) => ${run("callTool")}(options.client, ${literal(t.name)}, ${camelCase(t.name)}Call, ${checkedSchemas.get(t) ?? `${camelCase(t.name)}InputSchema`}, args, (response, projection) => ${fromTool(t).value(`project${t.typeName}`)}(response as ${fromTool(t).type(`${t.typeName}Response`)}, ${hasResolvers ? "options.resolvers" : "{}"}, ${takesDetail(t) ? `${run("detailOf")}(projection, args)` : "projection"}), { ...timeout, ...call }, settings),`,
    ),
    `  };`,
    ...(tools.length > 0 ? [`  });`] : []),
    `}`,
    "",
    `/**`,
    ` * Serves the tools on the MCP SDK's \`McpServer\`, beside its own, or its low-level \`Server\`; pass the SDK's`,
    ` * \`ListToolsRequestSchema\` and \`CallToolRequestSchema\`, so this folder does not depend on the SDK. Each call's`,
    ` * \`context\` is the SDK's \`extra\` (\`RequestHandlerExtra<ServerRequest, ServerNotification>\`).`,
    ` */`,
    `export function registerTools<Context>(server: ${runType("McpLowLevelServer")} | ${runType("McpHighLevelServer")}, tools: Tools<Context>, schemas: ${runType("McpRequestSchemas")}): void {`,
    `  ${module.runtime("registerTools", "registerOn")}(server, toolDefinitions, tools, schemas);`,
    `}`,
    "",
    `/** Calls the tool a model named, with the arguments it gave; a name no tool has is an \`{ error }\` for the model. */`,
    `export function callToolByName<Context>(tools: Tools<Context>, name: string, args: unknown, call?: ${runType("CallOptions")}<Context>): Promise<${runType("ToolOutcome")}<unknown>> {`,
    `  return ${module.runtime("callToolByName", "callNamed")}(tools, name, args, call);`,
    `}`,
    "",
  );
  return module.render(lines.join("\n"));
}
