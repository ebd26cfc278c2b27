import type { ToolAnnotation, YamlPath } from "../annotation/types.js";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { child, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { didYouMean } from "../suggest.js";
import { fixedValueProblem } from "./fixed-value.js";
import { specLegend } from "./legend.js";
import { operationParameters, type Operation } from "./operations.js";
import type { Field, InputParameter, JsonSchema, QuerySerialization, QueryStyle, ResourceModel, ToolInputs } from "./types.js";

/** The JSON Schema keywords the definitions carry and the generated validator checks; others are left out. */
const KEPT = [
  "type",
  "enum",
  "const",
  "description",
  "default",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "required",
];
const MAX_DEPTH = 8;

/** A schema with its `$ref`s inlined and only {@link KEPT} keywords (plus items, properties, anyOf), as a tool definition carries it. */
export function plainSchema(reader: SchemaReader, at: SchemaAt, depth = 0): JsonSchema {
  const resolved = reader.deref(at);
  const schema = resolved.schema;
  if (depth > MAX_DEPTH) return {};
  const out: JsonSchema = {};
  for (const key of KEPT) if (key in schema) out[key] = schema[key];
  // OpenAPI 3.0's `nullable` is JSON Schema's null type.
  if (schema["nullable"] === true && typeof out["type"] === "string") out["type"] = [out["type"], "null"];
  const items = child(resolved, "items");
  if (items) out["items"] = plainSchema(reader, items, depth + 1);
  const properties = child(resolved, "properties");
  // In name order: reordering the spec's properties changes no byte of the output.
  if (properties)
    out["properties"] = Object.fromEntries(
      Object.keys(properties.schema)
        .sort()
        .map((name) => [name, plainSchema(reader, child(properties, name)!, depth + 1)]),
    );
  if (schema["additionalProperties"] === false) out["additionalProperties"] = false;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      out["anyOf"] = branches.flatMap((_, i) => {
        const branch = child(resolved, key, i);
        return branch ? [plainSchema(reader, branch, depth + 1)] : [];
      });
  }
  return out;
}

interface InputsContext {
  reader: SchemaReader;
  op: Operation;
  tool: ToolAnnotation;
  resources: ResourceModel[];
  diagnostics: Diagnostic[];
  locate: (path: YamlPath, part?: "key" | "value") => SourceLocation;
}

const valueFields = (fields: Field[]): Field[] => fields.flatMap((f) => (f.kind === "object" ? valueFields(f.children) : [f]));

/** Words a resource field gives the codes of component schema `ref`, when one does. */
function fieldLegend(resources: ResourceModel[], ref: string | undefined): [string | number, string][] | undefined {
  if (ref === undefined) return undefined;
  for (const resource of resources) {
    for (const field of valueFields(resource.fields)) {
      if (field.kind === "value" && field.schemaRef === ref && field.legend?.kind === "static") return field.legend.entries;
    }
  }
  return undefined;
}

/** Whether a resource field hands out ids in short form that this tool takes. */
const takesShortIds = (resources: ResourceModel[], tool: string) =>
  resources.some((r) =>
    valueFields(r.fields).some((f) => (f.kind === "value" || f.kind === "related-id") && f.shorten && f.argumentOf?.includes(tool)),
  );

/** A name function-calling APIs accept (`[A-Za-z0-9_.-]{1,64}`): `page[number]` is passed as `page_number`. */
const argumentName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64) || "argument";

const JSON_MEDIA = (mediaType: string) => /json/i.test(mediaType.split(";")[0]!);

/** A parameter as the operation declares it: its schema, where it goes, whether the API requires it, and how a query sends it. */
export interface ParameterInput {
  at: SchemaAt;
  name: string;
  in: string;
  required: boolean;
  description?: string;
  serialization?: QuerySerialization;
}

/** The operation's parameters in the spec's order, as tool inputs and `init` read them. */
export function declaredParameters(reader: SchemaReader, op: Operation): ParameterInput[] {
  return operationParameters(reader, op).map((p) => {
    const description = p.declaration.schema["description"];
    return {
      at: p.at,
      name: p.name,
      in: p.in,
      required: p.required,
      ...(typeof description === "string" ? { description } : {}),
      ...(p.in === "query" ? { serialization: querySerialization(p.declaration.schema) } : {}),
    };
  });
}

/**
 * The tool's input half: every path and query parameter and a JSON request body, as the annotation's
 * `inputs:` shows them to the model, with the words and short ids it passes back mapped to what the API takes.
 */
export function buildToolInputs(ctx: InputsContext): ToolInputs {
  const { reader, op, tool } = ctx;
  const error = (message: string, help: string, path: YamlPath, code: Diagnostic["code"]) =>
    ctx.diagnostics.push({ code, severity: "error", message: `tool ${tool.name}: ${message}`, help, location: ctx.locate(path, "key") });
  const declared = declaredParameters(reader, op);
  const requestBody = child(op.at, "requestBody");
  const body = requestBody ? reader.deref(requestBody) : undefined;
  const content = body && child(body, "content");
  const bodyMediaType = content ? Object.keys(content.schema).find(JSON_MEDIA) : undefined;
  if (body && bodyMediaType) {
    declared.push({
      at: child(content!, bodyMediaType, "schema") ?? { schema: {}, pointer: content!.pointer },
      name: "body",
      in: "body",
      required: body.schema["required"] === true,
    });
  }

  const byName = new Map(tool.inputs.map((i) => [i.name, i]));
  for (const input of tool.inputs) {
    const reachable = declared.some((d) => d.name === input.name && d.in !== "header" && d.in !== "cookie");
    const outOfReach = reachable ? undefined : declared.find((d) => d.name === input.name);
    if (outOfReach) {
      error(
        `"${input.name}" is a ${outOfReach.in} parameter: tools send only path and query parameters and the body`,
        `set ${outOfReach.in}s on your openapi-fetch client (\`createClient({ headers })\`, or its fetch), and remove this entry`,
        input.path,
        "PRJ071",
      );
      continue;
    }
    if (!reachable) {
      const names = declared.filter((d) => d.in !== "header" && d.in !== "cookie").map((d) => d.name);
      error(
        `${op.method.toUpperCase()} ${op.path} has no parameter "${input.name}"${didYouMean(input.name, names)}`,
        names.length ? `its parameters: ${names.join(", ")}` : "this operation takes no parameters",
        input.path,
        "PRJ060",
      );
    }
  }
  const shortIds = takesShortIds(ctx.resources, tool.name);
  const parameters: InputParameter[] = [];
  for (const d of declared) {
    if (d.in === "header" || d.in === "cookie") continue;
    const input = byName.get(d.name);
    if (input?.drop !== undefined) {
      if (d.required)
        error(
          `"${d.name}" is required by the API, so it cannot be dropped`,
          "give it a value with `{ fixed: VALUE }`, or keep it",
          [...input.path, "drop"],
          "PRJ061",
        );
      continue;
    }
    const where = d.in as InputParameter["in"];
    if (input && "fixed" in input) {
      const problem = fixedValueProblem(input.fixed, plainSchema(reader, d.at), `the fixed value of "${d.name}"`);
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
    const schema = plainSchema(reader, d.at);
    const description = input?.description ?? d.description;
    const codes = legendFor(ctx, d.at, input?.legend, input?.path);
    const legend = codes?.map(([code, word]): [string, string | number] => [word, code]);
    const shown: JsonSchema = legend ? { type: "string", enum: legend.map(([word]) => word) } : schema;
    const takesIds = shortIds && where === "path";
    const parameter: InputParameter = {
      name: d.name,
      in: where,
      argument: input?.as ?? argumentName(d.name),
      schema: { ...shown, ...(description !== undefined ? { description } : {}) },
      required: d.required,
      ...(legend ? { legend } : {}),
      shortIds: takesIds,
      ...(d.serialization ? { serialization: d.serialization } : {}),
    };
    if (takesIds && description === undefined) parameter.schema["description"] = "An id as a result gave it; the short form is accepted.";
    parameters.push(parameter);
  }
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
  return {
    method: op.method,
    path: op.path,
    description: tool.description ?? (summary.join("\n\n") || `${op.method.toUpperCase()} ${op.path}`),
    parameters,
    ...(bodyMediaType ? { bodyMediaType } : {}),
  };
}

/** Code to word: the annotation's inline legend, the spec's own for this schema, or a resource field's that shares it. */
function legendFor(
  ctx: InputsContext,
  at: SchemaAt,
  inline: InputAnnotationLegend | undefined,
  path: YamlPath | undefined,
): [string | number, string][] | undefined {
  const { reader } = ctx;
  if (inline) {
    const numeric = ["integer", "number"].includes(reader.kind(at) ?? "");
    const entries: [string | number, string][] = [];
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
      entries.push([numeric ? Number(code) : code, word]);
    }
    const words = entries.map(([, word]) => word);
    const repeated = words.find((word, i) => words.indexOf(word) !== i);
    if (repeated !== undefined) {
      ctx.diagnostics.push({
        code: "PRJ062",
        severity: "error",
        message: `tool ${ctx.tool.name}: the legend gives two codes the word "${repeated}"`,
        help: "the model passes words back, so each word must name one code",
        location: ctx.locate([...(path ?? []), "legend"], "key"),
      });
    }
    return entries;
  }
  const own = specLegend(reader, at) ?? fieldLegend(ctx.resources, reader.refName(at));
  if (!own) return undefined;
  const words = own.map(([, word]) => word);
  // Two codes with one word cannot be sent back; the codes are then shown as the spec has them.
  return words.some((word, i) => words.indexOf(word) !== i) ? undefined : own;
}

const QUERY_STYLES: readonly QueryStyle[] = ["form", "spaceDelimited", "pipeDelimited", "deepObject"];

/**
 * How a query parameter is written, as its declaration says: OpenAPI's default is `form`, and
 * `explode` defaults to true for `form` only. A style that is not a query style is read as `form`.
 */
export function querySerialization(parameter: { [key: string]: unknown }): QuerySerialization {
  const declared = parameter["style"];
  const style = QUERY_STYLES.find((s) => s === declared) ?? "form";
  const explode = typeof parameter["explode"] === "boolean" ? parameter["explode"] : style === "form";
  return { style, explode };
}

type InputAnnotationLegend = NonNullable<ToolAnnotation["inputs"][number]["legend"]>;
