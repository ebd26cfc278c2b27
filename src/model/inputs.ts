import type { ToolAnnotation, YamlPath } from "../annotation/types.js";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { child, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { LONGEST_TOOL_NAME } from "../naming.js";
import { didYouMean } from "../suggest.js";
import { isCredential, namedLikeCredential } from "./credentials.js";
import { fixedValueProblem } from "./fixed-value.js";
import { boundedPlainSchema, withoutNull } from "./input-schema.js";
import { specLegend } from "./legend.js";
import { compareNames } from "./order.js";
import { jsonRank, operationLabel, operationParameters, templateNames, type Operation } from "./operations.js";
import { type IdSource, kindsTaken, parameterKey, sourcesTaken } from "./short-ids.js";
import type { InputParameter, JsonSchema, QuerySerialization, ResourceModel, ToolHints, ToolInputs } from "./types.js";
import { cutWarning } from "./schema-budget.js";
import { valueFields } from "./value-fields.js";

interface InputsContext {
  reader: SchemaReader;
  op: Operation;
  tool: ToolAnnotation;
  /** The resources' field legends, indexed once per model ({@link legendIndex}). */
  legends: LegendIndex;
  /** The resources' short-id fields by the tools that take them, indexed once per model ({@link idSourcesByTool}). */
  idSources: ReadonlyMap<string, IdSource[]>;
  diagnostics: Diagnostic[];
  locate: (path: YamlPath, part?: "key" | "value") => SourceLocation;
  locateSpec: (pointer: string) => SourceLocation;
}

/**
 * Words a resource field gives the codes of a parameter: one whose component schema is the parameter's,
 * or, for an enum written inline, one of the parameter's name whose legend covers its codes. The first
 * such field, resource by resource and field by field.
 */
function fieldLegend(ctx: InputsContext, at: SchemaAt, name: string): [string | number, string][] | undefined {
  const ref = ctx.reader.refName(at);
  if (ref !== undefined) return ctx.legends.byRef.get(ref);
  const codes = ctx.reader.enumValues(at);
  if (codes === undefined) return undefined;
  return ctx.legends.byName.get(parameterKey(name))?.find((entries) => {
    const known = new Set(entries.map(([code]) => code));
    // As `===` compares: a NaN code matches none.
    return codes.every((code) => !Number.isNaN(code) && known.has(code as string | number));
  });
}

/** The fields' static legends by component schema and by output name, each list in resource and field order. */
export interface LegendIndex {
  byRef: Map<string, [string | number, string][]>;
  byName: Map<string, [string | number, string][][]>;
}

/** Every tool's parameters ask the same resources: made once per model, not searched field by field per parameter. */
export function legendIndex(resources: readonly ResourceModel[]): LegendIndex {
  const index: LegendIndex = { byRef: new Map(), byName: new Map() };
  for (const resource of resources) {
    for (const field of valueFields(resource)) {
      if (field.kind !== "value" || field.legend?.kind !== "static") continue;
      const entries = field.legend.entries;
      if (field.schemaRef !== undefined && !index.byRef.has(field.schemaRef)) index.byRef.set(field.schemaRef, entries);
      const name = parameterKey(field.out);
      const named = index.byName.get(name);
      if (named) named.push(entries);
      else index.byName.set(name, [entries]);
    }
  }
  return index;
}

/** A name function-calling APIs accept (`[A-Za-z0-9_.-]{1,64}`): `page[number]` is passed as `page_number`. */
const argumentName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64) || "argument";

/**
 * The tool's input half: every path and query parameter and a JSON request body, as the annotation's
 * `inputs:` shows them to the model, with the words and short ids it passes back mapped to what the API takes.
 */
export function buildToolInputs(ctx: InputsContext): ToolInputs {
  const { reader, op, tool } = ctx;
  const error = (message: string, help: string, path: YamlPath, code: Diagnostic["code"]) =>
    ctx.diagnostics.push({ code, severity: "error", message: `tool ${tool.name}: ${message}`, help, location: ctx.locate(path, "key") });
  const declared = operationParameters(reader, op);
  const requestBody = child(op.at, "requestBody");
  const body = requestBody ? reader.deref(requestBody) : undefined;
  const content = body && child(body, "content");
  const bodyMediaType = content ? Object.keys(content.schema).find((mediaType) => jsonRank(mediaType) >= 0) : undefined;
  if (body && bodyMediaType) {
    declared.push({
      at: child(content!, bodyMediaType, "schema") ?? { schema: {}, pointer: content!.pointer },
      name: "body",
      in: "body",
      required: body.schema["required"] === true,
      declaration: body,
    });
  } else if (body?.schema["required"] === true) {
    const types = content ? Object.keys(content.schema).join(", ") : "no media type";
    error(
      `${operationLabel(op)} requires a request body of ${types}, and a tool sends only JSON bodies`,
      "leave this operation out of the tools, or call it with your own code",
      tool.path,
      "PRJ083",
    );
  }
  checkName(ctx);
  const template = templateNames(op.path);
  for (const name of template) {
    if (!declared.some((d) => d.in === "path" && d.name === name))
      error(
        `${operationLabel(op)} has {${name}} in its path, but declares no path parameter "${name}", so the tool would send it as written`,
        `declare \`{ name: ${name}, in: path, required: true }\` in the spec, or leave this operation out of the tools`,
        tool.path,
        "PRJ080",
      );
  }
  const byName = new Map(tool.inputs.map((i) => [i.name, i]));
  for (const input of tool.inputs) {
    const match = declared.find((d) => d.name === input.name);
    if (match?.in === "header" && "fixed" in input) continue;
    if (match && match.in !== "cookie" && match.in !== "header") continue;
    const names = declared.filter((d) => d.in !== "header" && d.in !== "cookie").map((d) => d.name);
    if (match)
      error(
        `"${input.name}" is a ${match.in} parameter of ${operationLabel(op)}; a tool sends a header only as a fixed value, and no cookies`,
        `give it \`{ fixed: VALUE }\`, or set it on the client you pass to createTools: \`createClient({ headers })\``,
        input.path,
        "PRJ071",
      );
    else
      error(
        `${operationLabel(op)} has no parameter "${input.name}"${didYouMean(input.name, names)}`,
        names.length ? `its parameters: ${names.join(", ")}` : "this operation takes no parameters",
        input.path,
        "PRJ060",
      );
  }
  const ids = ctx.idSources.get(tool.name) ?? [];
  const takenBy = (name: string, at: SchemaAt) => sourcesTaken(ids, name, reader.refName(at));
  const pathParameters = declared.filter((d) => d.in === "path" && template.includes(d.name));
  const bodyAt = declared.find((d) => d.in === "body")?.at;
  const bodyIds = bodyAt ? idProperties(reader, bodyAt, ids) : [];
  const claimed = new Set([
    ...declared.flatMap((d) => (d.in === "path" || d.in === "query" ? takenBy(d.name, d.at) : [])),
    ...bodyIds.flatMap(([, sources]) => sources),
  ]);
  const unclaimed = ids.filter((s) => !claimed.has(s));
  // `/things/{key}`: when nothing takes the ids by name, the one path parameter takes them, whatever its name.
  const onlyPath = ids.length > 0 && claimed.size === 0 && pathParameters.length === 1 ? pathParameters[0] : undefined;
  const parameters: InputParameter[] = [];
  for (const d of declared) {
    const input = byName.get(d.name);
    // A header given a fixed value is sent like any fixed parameter, checked the same way; others are the client's.
    if (d.in === "cookie" || (d.in === "header" && !(input && "fixed" in input))) {
      if (d.required && !(d.in === "header" && IGNORED_HEADERS.has(d.name.toLowerCase()))) warnUnsent(ctx, d.name, d.in);
      continue;
    }
    if (d.in === "path" && !template.includes(d.name)) {
      ctx.diagnostics.push({
        code: "PRJ081",
        severity: "warning",
        message: `tool ${tool.name}: ${operationLabel(op)} declares path parameter "${d.name}", but its path has no {${d.name}}; the tool leaves it out`,
        help: `the path may be misspelt in the spec: its parameters in braces are ${template.map((t) => `{${t}}`).join(", ") || "none"}`,
        location: ctx.locate(tool.path, "key"),
      });
      continue;
    }
    if (input?.drop !== undefined) {
      // A credential the API requires is the client's to send (a middleware, a header), never the model's.
      if (d.required && !isCredential(reader, d.name, d.at))
        error(
          `"${d.name}" is required by the API, so it cannot be dropped`,
          "give it a value with `{ fixed: VALUE }`, or keep it",
          [...input.path, "drop"],
          "PRJ061",
        );
      // Listed with no argument: never sent, but a query object's member cannot be sent in its name.
      if (d.in === "query")
        parameters.push({
          name: d.name,
          in: "query",
          schema: {},
          required: false,
          shortIds: false,
          ...(d.serialization ? { serialization: d.serialization } : {}),
        });
      continue;
    }
    const where = d.in as InputParameter["in"];
    if (input && "fixed" in input && isCredential(reader, d.name, d.at)) {
      error(
        `the fixed value of "${d.name}" is a credential, which the annotation and the generated code would hold in plain text`,
        `drop it (\`${d.name}: { drop: "a credential: the client sends it" }\`) and set it on the client you pass to createTools (\`createClient({ headers })\`, or a middleware for a query parameter)`,
        [...input.path, "fixed"],
        "PRJ034",
      );
      continue;
    }
    if (input && "fixed" in input) {
      const problem = fixedValueProblem(input.fixed, boundedPlainSchema(reader, d.at).value, `the fixed value of "${d.name}"`);
      if (problem)
        error(
          problem,
          "`fixed` is sent on every call as written: give a value the spec's schema for the parameter allows (a code, not a legend's word)",
          [...input.path, "fixed"],
          "PRJ070",
        );
      parameters.push({
        name: d.name,
        in: where,
        schema: {},
        required: d.required,
        fixed: { value: input.fixed },
        shortIds: false,
        ...(d.serialization ? { serialization: d.serialization } : {}),
      });
      continue;
    }
    const bounded = boundedPlainSchema(reader, d.at, {
      writing: where === "body",
      onBadPattern: (pattern, pointer) => warnPattern(ctx, d.name, pattern, pointer),
    });
    if (bounded.levels !== undefined) warnCut(ctx, d.name, d.at, bounded.levels);
    const schema = where === "body" ? bounded.value : closedQueryObject(reader, d.at, withoutNull(bounded.value), d.serialization);
    const description = input?.description ?? d.description;
    const array = reader.kind(d.at) === "array";
    const taken = enumOf(array ? (schema["items"] as JsonSchema | undefined) : schema);
    const legendAt = array ? child(reader.unwrapNullable(d.at), "items") : d.at;
    const legend = legendAt && legendFor(ctx, d.name, legendAt, taken, input?.legend, input?.path);
    const words = legend && { type: "string", enum: legend.map(([word]) => word) };
    const shown: JsonSchema = !words ? schema : array ? { ...schema, items: words } : words;
    const own = where === "body" ? [] : takenBy(d.name, d.at);
    const shortIds = d === onlyPath || own.length > 0 ? kindsTaken(own, unclaimed) : false;
    const idForms = shortIds ? acceptingShortForms(shown) : { schema: shown };
    const parameter: InputParameter = {
      name: d.name,
      in: where,
      argument: input?.as ?? argumentName(d.name),
      schema: { ...idForms.schema, ...(description !== undefined ? { description } : {}) },
      required: d.required,
      ...(legend ? { legend } : {}),
      shortIds,
      ...(idForms.fullIdChecks ? { fullIdChecks: idForms.fullIdChecks } : {}),
      ...(where === "body" && bodyIds.length > 0
        ? { shortIdProperties: bodyIds.map(([name, sources]): [string, string[]] => [name, kindsTaken(sources, unclaimed)]) }
        : {}),
      ...(d.serialization ? { serialization: d.serialization } : {}),
    };
    if (shortIds && description === undefined) parameter.schema["description"] = SHORT_ID_NOTE;
    const properties = parameter.schema["properties"] as Record<string, JsonSchema> | undefined;
    const propertyLegends = where === "body" && properties ? bodyLegends(ctx, d.at, properties) : [];
    if (propertyLegends.length > 0) parameter.propertyLegends = propertyLegends;
    const propertyChecks: JsonSchema = {};
    for (const [name] of where === "body" ? bodyIds : []) {
      if (!properties || !Object.hasOwn(properties, name)) continue;
      const forms = acceptingShortForms(properties[name]!);
      setOwn(properties, name, { ...forms.schema, ...(forms.schema["description"] === undefined ? { description: SHORT_ID_NOTE } : {}) });
      if (forms.fullIdChecks) setOwn(propertyChecks, name, forms.fullIdChecks);
    }
    if (Object.keys(propertyChecks).length > 0) parameter.fullIdChecks = { properties: propertyChecks };
    parameters.push(parameter);
  }
  if (ids.length > 0 && !parameters.some((p) => p.shortIds || p.shortIdProperties))
    ctx.diagnostics.push({
      code: "PRJ086",
      severity: "warning",
      message: `tool ${tool.name}: ${ids.map((s) => s.label).join(", ")} names it in \`argument:\`, but no parameter or body property of ${operationLabel(op)} takes that id, so the short form is not accepted`,
      help: "a parameter takes the id when it is named like the field (`id`, `task_id`, `taskId`) or shares its component schema; otherwise drop `shorten: true` or the tool from `argument:`",
      location: ctx.locate(tool.path, "key"),
    });
  const seen = new Map<string, string>();
  for (const p of parameters) {
    if (p.argument === undefined) continue;
    const other = seen.get(p.argument);
    if (other !== undefined)
      error(
        `parameters "${other}" and "${p.name}" would both be passed as "${p.argument}"`,
        "rename one of them with `inputs: { NAME: { as: OTHER } }`",
        (byName.get(p.name) ?? byName.get(other))?.path ?? tool.path,
        "PRJ063",
      );
    seen.set(p.argument, p.name);
  }
  const summary = [op.at.schema["summary"], op.at.schema["description"]].filter(
    (t): t is string => typeof t === "string" && t.trim() !== "",
  );
  const title = tool.title ?? titleOf(op.at.schema["summary"]);
  return {
    method: op.method,
    path: op.path,
    description: tool.description ?? (summary.join("\n\n") || `${op.method.toUpperCase()} ${op.path}`),
    ...(title !== undefined ? { title } : {}),
    hints: { ...METHOD_HINTS.get(op.method), ...annotatedHints(tool.hints) },
    parameters,
    ...(bodyMediaType ? { bodyMediaType } : {}),
  };
}

/** The most characters of an operation's summary that makes the tool's title. */
const TITLE_CHARACTERS = 80;

/** An operation's summary as a title: one line of text, not too long to be one; else none. */
function titleOf(summary: unknown): string | undefined {
  if (typeof summary !== "string") return undefined;
  const title = summary.trim();
  return title !== "" && title.length <= TITLE_CHARACTERS && !/[\u0000-\u001f\u007f-\u009f]/.test(title) ? title : undefined;
}

/**
 * What the HTTP method says of an operation (RFC 9110): GET and HEAD change nothing, PUT and DELETE
 * may be repeated to the same effect, DELETE destroys. POST and PATCH say nothing: a client then
 * assumes the tool may change and destroy things, and is not idempotent.
 */
const METHOD_HINTS: ReadonlyMap<string, ToolHints> = new Map([
  ["get", { readOnlyHint: true }],
  ["head", { readOnlyHint: true }],
  ["put", { idempotentHint: true }],
  ["delete", { destructiveHint: true, idempotentHint: true }],
]);

/** The annotation's `hints`, under MCP's names. */
function annotatedHints(hints: ToolAnnotation["hints"]): ToolHints {
  if (!hints) return {};
  const named: ToolHints = {};
  if (hints.readOnly !== undefined) named.readOnlyHint = hints.readOnly;
  if (hints.destructive !== undefined) named.destructiveHint = hints.destructive;
  if (hints.idempotent !== undefined) named.idempotentHint = hints.idempotent;
  if (hints.openWorld !== undefined) named.openWorldHint = hints.openWorld;
  return named;
}

/** Header parameters OpenAPI says to ignore: the client sets them. */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

const SHORT_ID_NOTE = "An id as a result gave it; the short form is accepted.";

/**
 * What the spec asks of a full id that its short form, a prefix of it, can fail; `maxLength` holds
 * for both. The model-facing schema leaves them out, so a validator in front of the tool takes the
 * short form too; the runtime checks pattern and minLength on the full id, and the API the format.
 */
const FULL_ID_KEYWORDS = ["pattern", "minLength", "format"] as const;
const RUNTIME_CHECKED = new Set(["pattern", "minLength"]);

/** `schema` taking short forms too, and the constraints the runtime checks on the full id instead. */
function acceptingShortForms(schema: JsonSchema): { schema: JsonSchema; fullIdChecks?: JsonSchema } {
  const shown = { ...schema };
  const checks: JsonSchema = {};
  for (const keyword of FULL_ID_KEYWORDS) {
    if (!(keyword in shown)) continue;
    if (RUNTIME_CHECKED.has(keyword)) checks[keyword] = shown[keyword];
    delete shown[keyword];
  }
  return { schema: shown, ...(Object.keys(checks).length > 0 ? { fullIdChecks: checks } : {}) };
}

const enumOf = (schema: JsonSchema | undefined): unknown[] | undefined =>
  Array.isArray(schema?.["enum"]) ? (schema["enum"] as unknown[]) : undefined;

/** A tool's name as Anthropic's and OpenAI's function-calling APIs accept it. */
const TOOL_NAME = new RegExp(`^[A-Za-z0-9_-]{1,${LONGEST_TOOL_NAME}}$`);

function checkName(ctx: InputsContext): void {
  if (TOOL_NAME.test(ctx.tool.name)) return;
  ctx.diagnostics.push({
    code: "PRJ084",
    severity: "warning",
    message: `tool name ${JSON.stringify(ctx.tool.name)} is refused by Anthropic's and OpenAI's tool formats, which take 1 to 64 letters, digits, _ and -; only MCP can serve it`,
    help: `rename it, e.g. ${JSON.stringify(ctx.tool.name.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, LONGEST_TOOL_NAME) || "tool")}`,
    location: ctx.locate(ctx.tool.path, "key"),
  });
}

function warnUnsent(ctx: InputsContext, name: string, where: string): void {
  ctx.diagnostics.push({
    code: "PRJ082",
    severity: "warning",
    message: `tool ${ctx.tool.name}: ${operationLabel(ctx.op)} requires ${where} "${name}", which the tool does not send`,
    help:
      where === "header"
        ? `set it on the client you pass to createTools (\`createClient({ headers: { "${name}": ... } })\`)${namedLikeCredential(name) ? "" : `, or give it \`inputs: { ${name}: { fixed: VALUE } }\``}`
        : "set the cookie on the client you pass to createTools (`createClient({ headers: { cookie: ... } })`)",
    location: ctx.locate(ctx.tool.path, "key"),
  });
}

function warnPattern(ctx: InputsContext, parameter: string, pattern: string, pointer: string): void {
  ctx.diagnostics.push({
    code: "PRJ085",
    severity: "warning",
    message: `tool ${ctx.tool.name}: pattern ${JSON.stringify(pattern)} of "${parameter}" (${pointer}) is not a valid Unicode regular expression, so arguments are not checked against it`,
    help: "the validator compiles patterns with the `u` flag, as JSON Schema asks: escape a literal - in a class (`[\\w\\-.]`) in the spec",
    location: ctx.locate(ctx.tool.path, "key"),
  });
}

/** A parameter's schema is larger written out than the budget, so only its first levels are. */
function warnCut(ctx: InputsContext, parameter: string, at: SchemaAt, levels: number): void {
  const name = ctx.reader.refName(at);
  ctx.diagnostics.push(
    cutWarning(
      {
        what: `tool ${ctx.tool.name}: "${parameter}"${name === undefined ? "" : ` (schema ${JSON.stringify(name)})`}`,
        written: "input schema, which the model reads on every request,",
        below: "accepts any value",
        levels,
      },
      ctx.locateSpec(ctx.reader.deref(at).pointer),
      ctx.locate(ctx.tool.path, "key"),
    ),
  );
}

/** Sets a property, even one named `__proto__`, which plain assignment would take for the prototype. */
const setOwn = (object: JsonSchema, key: string, value: JsonSchema) =>
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * Words for the codes of a JSON body's top-level properties, as for a parameter: each such property
 * is shown with the words (in `properties`, changed in place) and the request carries the codes.
 */
function bodyLegends(ctx: InputsContext, at: SchemaAt, properties: Record<string, JsonSchema>): [string, [string, string | number][]][] {
  const legends: [string, [string, string | number][]][] = [];
  for (const property of ctx.reader.properties(at)) {
    const shown = Object.hasOwn(properties, property.name) ? properties[property.name] : undefined;
    if (!shown || ctx.reader.kind(property.at) === "array") continue;
    const legend = legendFor(ctx, property.name, property.at, enumOf(shown));
    if (!legend) continue;
    const { description } = shown;
    setOwn(properties, property.name, {
      type: "string",
      enum: legend.map(([word]) => word),
      ...(description !== undefined ? { description } : {}),
    });
    legends.push([property.name, legend]);
  }
  return legends.sort(([a], [b]) => compareNames(a, b));
}

/** The top-level properties of a JSON request body that take an id results give in short form, each with the ids it takes. */
function idProperties(reader: SchemaReader, at: SchemaAt, ids: IdSource[]): [name: string, sources: IdSource[]][] {
  if (ids.length === 0) return [];
  return reader
    .properties(at)
    .map((p): [string, IdSource[]] => [p.name, sourcesTaken(ids, p.name, reader.refName(p.at))])
    .filter(([, sources]) => sources.length > 0)
    .sort(([a], [b]) => compareNames(a, b));
}

/**
 * Word to code: the annotation's inline legend, the spec's own for this schema, or a resource field's
 * that shares it. Only for codes the parameter `takes` (its enum, when it has one): a word for another
 * code would be sent and refused. A spec or field legend left with no word gives none, so the
 * parameter takes its codes; an inline legend naming a code the parameter does not take is PRJ062.
 */
function legendFor(
  ctx: InputsContext,
  name: string,
  at: SchemaAt,
  takes: readonly unknown[] | undefined,
  inline?: ToolAnnotation["inputs"][number]["legend"],
  path?: YamlPath,
): [string, string | number][] | undefined {
  const taken = (code: string | number) => takes === undefined || takes.includes(code);
  const { reader } = ctx;
  if (inline) {
    const numeric = ["integer", "number"].includes(reader.kind(at) ?? "");
    const legend: [string, string | number][] = [];
    for (const [code, word] of inline) {
      if (numeric && (code.trim() === "" || !Number.isFinite(Number(code)))) {
        ctx.diagnostics.push({
          code: "PRJ062",
          severity: "error",
          message: `tool ${ctx.tool.name}: legend code ${JSON.stringify(code)} is not a number, but the parameter is numeric`,
          help: "legend codes of a numeric parameter are numbers: `{ 1: open }`",
          location: ctx.locate([...(path ?? []), "legend", code], "key"),
        });
        continue;
      }
      const value = numeric ? Number(code) : code;
      if (!taken(value)) {
        ctx.diagnostics.push({
          code: "PRJ062",
          severity: "error",
          message: `tool ${ctx.tool.name}: legend code ${JSON.stringify(code)} is not one "${name}" takes (its enum: ${takes!.map((c) => JSON.stringify(c)).join(", ")}), so its word would be sent and refused`,
          help: "give words only to the codes the parameter's enum lists",
          location: ctx.locate([...(path ?? []), "legend", code], "key"),
        });
        continue;
      }
      legend.push([word, value]);
    }
    const repeated = firstRepeated(legend.map(([word]) => word));
    if (repeated !== undefined) {
      ctx.diagnostics.push({
        code: "PRJ062",
        severity: "error",
        message: `tool ${ctx.tool.name}: the legend gives two codes the word "${repeated}"`,
        help: "the model passes words back, so each word must name one code",
        location: ctx.locate([...(path ?? []), "legend"], "key"),
      });
    }
    return legend;
  }
  // The words results show win, so a word the model reads is a word the tool takes.
  const own = (fieldLegend(ctx, at, name) ?? specLegend(reader, at))?.filter(([code]) => taken(code));
  // Two codes with one word cannot be sent back; the codes are then shown as the spec has them.
  if (!own?.length || firstRepeated(own.map(([, word]) => word)) !== undefined) return undefined;
  return own.map(([code, word]) => [word, code]);
}

function firstRepeated(words: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const word of words) {
    if (seen.has(word)) return word;
    seen.add(word);
  }
  return undefined;
}

/**
 * An exploded `form` object's members are sent as query parameters of their own (`{ sort: "a" }` as
 * `sort=a`): where the spec leaves its other members unsaid, the model may not add any, or it could
 * send a parameter the spec does not name (`api_key`). A spec's own `additionalProperties` (a free
 * map of query parameters) is its word, and kept.
 */
function closedQueryObject(
  reader: SchemaReader,
  at: SchemaAt,
  schema: JsonSchema,
  serialization: QuerySerialization | undefined,
): JsonSchema {
  if (serialization?.style !== "form" || !serialization.explode) return schema;
  if (![schema["type"]].flat().includes("object") || "anyOf" in schema || "allOf" in schema) return schema;
  const declared = reader.deref(reader.unwrapNullable(at)).schema;
  return "additionalProperties" in declared ? schema : { ...schema, additionalProperties: false };
}
