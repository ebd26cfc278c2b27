import type { Annotation, PageField, ResourceAnnotation, ToolAnnotation } from "../annotation/types.js";
import { type Diagnostic, hasErrors } from "../diagnostics.js";
import { pascalCase, plural, RESERVED_KEYS, resourceModule, squeezed, toolModule } from "../naming.js";
import type { LoadedSpec } from "../openapi/load.js";
import { child, escapePointer, SchemaReader, type SchemaAt } from "../openapi/schema.js";
import { closestAmong, didYouMean } from "../suggest.js";
import { namedLikeCredential } from "./credentials.js";
import { classifyFields, declaredAs, jsonApiFields, jsonApiTypeFields, restFields } from "./fields.js";
import { DETAIL_ARGUMENT, detailArgumentClash } from "./detail.js";
import { buildToolInputs, legendIndex } from "./inputs.js";
import { idSourcesByTool } from "./short-ids.js";
import { nextPageOf, undeclaredPath, walk } from "./next-page.js";
import { inResultOrder } from "./order.js";
import { findOperation, listOperations, noOperation, operationLabel, responseExample, successBody, type Operation } from "./operations.js";
import { declaredErrorKeys, findRows, IDENTITY_NAMES, jsonApiType, jsonApiTypes, mayBeNull, unreadMembers, type Rows } from "./rows.js";
import { resolverSource } from "./resolver-sources.js";
import { cutWarning } from "./schema-budget.js";
import { shapeOf } from "./shape.js";
import type { Model, NextPageModel, PageModel, ResourceModel, ResponseAt, ToolModel } from "./types.js";

/** What a resource is read from: the first tool that returns it, or the annotation's `schema`. */
interface ResourceSource {
  at: SchemaAt;
  jsonapi: boolean;
  /** The tool whose records it was read from; absent when read from the resource's `schema`. */
  tool?: string;
  /** The other schemas a JSON:API type's records are declared as by other tools, with the tool returning each. */
  others?: Array<{ at: SchemaAt; tool: string }>;
}

/**
 * Joins the spec and the annotation into the model the emitter writes from, collecting every
 * problem on the way. The model is returned only when there are no errors.
 */
export function buildModel(annotation: Annotation, spec: LoadedSpec): { model?: Model; diagnostics: Diagnostic[] } {
  const reader = new SchemaReader(spec.document);
  const diagnostics: Diagnostic[] = [];
  const locateAnnotation = annotation.locate;
  const operations = listOperations(reader);
  const resolverNames = new Map(annotation.resolvers.map((r) => [r.name, r]));
  const resourceAnnotations = new Map(annotation.resources.map((r) => [r.name, r]));
  const sources = new Map<string, ResourceSource>();
  const error = (
    code: Diagnostic["code"],
    message: string,
    help: string,
    path: readonly (string | number)[],
    related?: Diagnostic["location"],
  ) =>
    diagnostics.push({ code, severity: "error", message, help, location: locateAnnotation(path, "key"), ...(related ? { related } : {}) });

  // A plain-REST resource that names its schema is read from it, so every tool is checked against the same record.
  for (const resource of annotation.resources) {
    const named = resource.schema !== undefined ? locateResourceSchema(reader, resource) : undefined;
    if (named && !named.jsonapi) sources.set(resource.name, named);
  }

  diagnostics.push(...argumentsNamingNoTool(annotation));

  const toolPlans: { tool: ToolAnnotation; op: Operation; rows: Rows; response: SchemaAt; responseAt: ResponseAt }[] = [];
  for (const tool of annotation.tools) {
    const op = findOperation(operations, tool.operation);
    if (!op) {
      const { message, help } = noOperation(operations, tool.operation);
      error("PRJ010", `tool ${tool.name}: ${message}`, help, [...tool.path, "operation"]);
      continue;
    }
    const body = successBody(reader, op);
    if (!body) {
      error(
        "PRJ011",
        `tool ${tool.name}: ${operationLabel(op)} has no JSON success response`,
        "projector reshapes the JSON body of a 2xx response; choose an operation that returns one",
        [...tool.path, "operation"],
        spec.locate(op.at.pointer),
      );
      continue;
    }
    const found = findRows(reader, tool, body.schema, body.mediaType, annotation.resources, op.path);
    if ("problem" in found) {
      error("PRJ012", `tool ${tool.name}: ${found.problem}`, found.help, tool.path, spec.locate(body.schema.pointer));
      continue;
    }
    const rows = tool.record === undefined ? found : declaredRecord(reader, tool.record, found, annotation.resources);
    if (!rows) {
      const names = Object.keys(child({ schema: reader.document, pointer: "" }, "components", "schemas")?.schema ?? {});
      error(
        "PRJ044",
        `tool ${tool.name}: \`record: ${tool.record}\` names no schema of the spec${didYouMean(tool.record!, names)}`,
        "`record` names an entry of components.schemas: the schema the records really are",
        [...tool.path, "record"],
      );
      continue;
    }
    const resourceName = tool.resource ?? rows.resourceName;
    if (resourceName === undefined) {
      error(
        "PRJ012",
        `tool ${tool.name}: cannot tell which resource its records are`,
        "add `resource: NAME` to the tool, or `schema: SchemaName` to the resource",
        tool.path,
        spec.locate(rows.item.pointer),
      );
      continue;
    }
    if (!resourceAnnotations.has(resourceName)) {
      const near = didYouMean(resourceName, resourceAnnotations.keys()).match(/"(.*)"/)?.[1];
      error(
        "PRJ014",
        `tool ${tool.name} returns \`${resourceName}\` records, and no resource is annotated under that name`,
        near !== undefined
          ? `rename resources.${near} to ${resourceName}: resources are keyed by the JSON:API type (or add \`resource: ${near}\` to the tool)`
          : `add \`resources: { ${resourceName}: { fields: ... } }\` classifying every field`,
        near !== undefined ? ["resources", near] : tool.path,
        spec.locate(rows.item.pointer),
      );
      continue;
    }
    const source = sources.get(resourceName);
    const pointer = (at: SchemaAt) => reader.unwrapNullable(at).pointer;
    if (!source) sources.set(resourceName, { at: rows.item, jsonapi: rows.jsonapi, tool: tool.name });
    else if (rows.jsonapi && source.jsonapi) {
      // Another schema of the same type: the resource classifies its fields too.
      const known = [source.at, ...(source.others ?? []).map((other) => other.at)].map(pointer);
      if (!known.includes(pointer(rows.item))) source.others = [...(source.others ?? []), { at: rows.item, tool: tool.name }];
    } else if (!rows.jsonapi && !source.jsonapi && pointer(source.at) !== pointer(rows.item)) {
      const schemaName = (at: SchemaAt) => {
        const name = reader.refName(at) ?? reader.refName(reader.unwrapNullable(at));
        return name !== undefined ? `schema ${name}` : `the schema at #${reader.unwrapNullable(at).pointer}`;
      };
      error(
        "PRJ045",
        `tool ${tool.name} returns ${schemaName(rows.item)} records, but resource ${resourceName} classifies ${schemaName(source.at)}${source.tool !== undefined ? ` (the records of tool ${source.tool})` : ""}`,
        `give ${tool.name} its own resource (\`resource: NAME\`), or, if the API really sends ${schemaName(source.at).replace(/^the /, "")}, say so with \`record:\``,
        tool.path,
        spec.locate(reader.unwrapNullable(rows.item).pointer),
      );
      continue;
    }
    const responseAt = {
      path: op.path,
      method: op.method,
      status: /^\d+$/.test(body.status) ? Number(body.status) : body.status,
      mediaType: body.mediaType,
    };
    toolPlans.push({ tool, op, rows: { ...rows, resourceName }, response: body.schema, responseAt });
  }

  const toolsFailed = diagnostics.length > 0;
  for (const resource of annotation.resources) {
    if (sources.has(resource.name)) continue;
    const found = locateResourceSchema(reader, resource);
    if (found) sources.set(resource.name, found);
    else if (!toolsFailed) {
      const known = jsonApiTypes(reader);
      error(
        "PRJ013",
        `resource ${resource.name}: no tool returns it and the spec has no schema for it${didYouMean(resource.name, known.keys())}`,
        "name a JSON:API type the spec declares, or add `schema: ComponentName`",
        resource.path,
      );
    }
  }

  const resources = new Map<string, ResourceModel>();
  for (const resource of annotation.resources) {
    const source = sources.get(resource.name);
    if (!source) continue;
    const records = [source, ...(source.others ?? [])];
    const typeFields = source.jsonapi
      ? jsonApiTypeFields(
          reader,
          records.map((record) => record.at),
        )
      : undefined;
    // A member the resource drops is never read: how the schemas declare it does not matter.
    const droppedWhole = (name: string) => {
      const rule = resource.fields.find((f) => f.name === name)?.rule;
      if (rule !== undefined) return rule.kind === "drop";
      const named = resource.fields.some((f) => f.name.startsWith(`${name}.`));
      return !named && resource.fields.some((f) => f.name === "*" && f.rule.kind === "drop");
    };
    const clash = typeFields?.clashes.find((name) => !droppedWhole(name));
    if (clash !== undefined) {
      const holders = records.flatMap((record) => {
        const field = jsonApiFields(reader, record.at).find((f) => f.name === clash);
        return field ? [{ ...record, declared: declaredAs(reader, field) }] : [];
      });
      const first = holders[0]!;
      const other = holders.find((holder) => holder.declared !== first.declared)!;
      error(
        "PRJ045",
        `resource ${resource.name}: tool ${other.tool} returns records whose \`${clash}\` is ${other.declared}, where tool ${first.tool}'s is ${first.declared}`,
        `give ${other.tool} its own resource (\`resource: NAME\`)`,
        annotation.tools.find((t) => t.name === other.tool)?.path ?? resource.path,
        spec.locate(reader.unwrapNullable(other.at).pointer),
      );
      continue;
    }
    const specFields = typeFields ? typeFields.fields : restFields(reader, source.at);
    const { fields, dropped } = classifyFields(
      { reader, resource, resolvers: resolverNames, diagnostics, locateAnnotation, locateSpec: spec.locate },
      specFields,
      resource.fields,
      source.jsonapi ? "jsonapi" : "rest",
    );
    // A record of no named schema is typed `unknown`, and so are the records of all its tools.
    const refNames = records.map((record) => reader.refName(record.at) ?? reader.refName(reader.unwrapNullable(record.at)));
    resources.set(resource.name, {
      name: resource.name,
      typeName: pascalCase(resource.name),
      style: source.jsonapi ? "jsonapi" : "rest",
      schemaNames: refNames.every((name) => name !== undefined) ? [...new Set(refNames)] : [],
      fields: inResultOrder(fields, resource.fields),
      dropped,
    });
  }

  const tools: ToolModel[] = [];
  const resourceList = [...resources.values()];
  const legends = legendIndex(resourceList);
  const idSources = idSourcesByTool(resourceList);
  for (const { tool, op, rows, response, responseAt } of toolPlans) {
    const resource = resources.get(rows.resourceName!);
    if (!resource) continue;
    const page = tool.page.flatMap((field): PageModel[] => {
      const segments = field.source.split(".");
      const found = walk(reader, response, segments);
      const { at } = found;
      if ("missing" in found) {
        const { message, help } = undeclaredPath(reader, found, segments);
        error("PRJ031", `tool ${tool.name}: ${message}`, help, field.path, spec.locate(at.pointer));
        return [];
      }
      const presence = pageByPresence(field, reader.kind(at));
      const warnCut = (levels: number) =>
        diagnostics.push(
          cutWarning(
            { what: `tool ${tool.name}: page key ${field.key}`, written: "type", below: "is `unknown`", levels },
            spec.locate(reader.unwrapNullable(at).pointer),
            locateAnnotation(field.path, "key"),
          ),
        );
      return [
        {
          key: field.key,
          path: segments,
          mode: presence ? "presence" : "value",
          shape: presence ? { type: "boolean" } : shapeOf(reader, at, warnCut),
        },
      ];
    });
    const rowsNullable = mayBeNull(reader, response, rows.path);
    // MCP's structured content is an object: a record the spec lets be null is given under the resource's name.
    const list = tool.list ?? (rows.many || page.length > 0 ? plural(resource.name) : rowsNullable ? resource.name : undefined);
    const example = responseExample(reader, op);
    const inputs = buildToolInputs({
      reader,
      op,
      tool,
      legends,
      idSources,
      diagnostics,
      locate: locateAnnotation,
      locateSpec: spec.locate,
    });
    const afterLast = tool.next?.kind === "after-last" ? tool.next : undefined;
    const next = readAsItsField(
      tool.next &&
        nextPageOf(
          { reader, op, tool: tool.name, response, rows, parameters: inputs.parameters, error, locateSpec: spec.locate },
          tool.next,
        ),
      resource,
      afterLast?.source,
    );
    const unshown = afterLast && notShown(resource, afterLast.source);
    if (next && afterLast && unshown)
      error(
        "PRJ090",
        `tool ${tool.name}: page.next.after_last: ${afterLast.source} is ${unshown}, and next would show its value to the model`,
        "continue after a field every result shows, usually the record's id",
        [...afterLast.path, "after_last"],
      );
    if (next && list === "next")
      error("PRJ028", `tool ${tool.name}: the list key "next" is the key of the next page`, "name the list another way", [
        ...tool.path,
        "list",
      ]);
    const errors = errorKeys(reader, rows, response);
    tools.push({
      name: tool.name,
      typeName: pascalCase(tool.name),
      resource,
      many: rows.many,
      rowsPath: rows.path,
      rowsNullable,
      unread: unreadMembers(reader, rows.errorBranches?.recordBody ?? response, rows.path, [
        ...page.map((p) => p.path.join(".")),
        ...(tool.next?.kind === "body" ? [tool.next.source] : []),
      ]),
      recordKeys: recordKeys(reader, rows, errors),
      errorKeys: errors,
      ...recordType(reader, rows),
      declaredErrorKeys: declaredErrorKeys(reader, rows.errorBranches?.recordBody ?? response, rows.jsonapi),
      ...(list !== undefined ? { list } : {}),
      page,
      ...(next ? { next } : {}),
      response: responseAt,
      operationLabel: op.operationId ? `${op.operationId} (${operationLabel(op)})` : operationLabel(op),
      jsonapi: rows.jsonapi,
      ...(example !== undefined ? { example } : {}),
      ...(tool.budget ? { budget: tool.budget } : {}),
      text: tool.text ?? "json",
      inputs,
    });
    const detailClash = detailArgumentClash(tools.at(-1)!);
    if (detailClash)
      error(
        "PRJ063",
        `tool ${tool.name}: its parameter ${detailClash} is passed as \`${DETAIL_ARGUMENT}\`, the argument its \`detail: full\` fields take`,
        `pass the parameter under another name: \`inputs: { ${detailClash}: { as: ${detailClash}_value } }\``,
        tool.path,
      );
    if (tool.text === "table" && !rows.many)
      error(
        "PRJ029",
        `tool ${tool.name} returns one record, so it has no rows to set out as a table`,
        "remove `text: table`, or use it on a tool that returns a list",
        [...tool.path, "text"],
      );
    if (tool.budget && !rows.many)
      error(
        "PRJ029",
        `tool ${tool.name} returns one record, so a budget has nothing to cut`,
        "remove `budget`, or use it on a tool that returns a list",
        [...tool.path, "budget"],
      );
  }
  checkGeneratedNames(annotation, diagnostics);
  const reserved = (name: string, what: string, path: readonly (string | number)[]) => {
    if (RESERVED_KEYS.has(name))
      error("PRJ028", `${what} "${name}" is not allowed`, "it would set an object's prototype instead of a key; choose another name", path);
  };
  for (const r of annotation.resolvers) {
    reserved(r.name, "resolver name", r.path);
    // A join shows the label read off the record, and the id where none is found: neither may be a credential.
    for (const key of ["label", "id"] as const)
      if (r[key] !== undefined && namedLikeCredential(r[key]))
        error(
          "PRJ034",
          `resolver ${r.name}: its ${key} \`${r[key]}\` is named like a credential, which every join through it would show the model`,
          key === "label"
            ? "name the key holding the record's name (`name`, `title`)"
            : "name the key holding the record's id (`id`, `gid`)",
          [...r.path, key],
        );
  }
  for (const t of annotation.tools) {
    if (t.list !== undefined) reserved(t.list, `tool ${t.name}: list key`, [...t.path, "list"]);
    for (const p of t.page) reserved(p.key, `tool ${t.name}: page key`, p.path);
  }
  const sourceContext = {
    reader,
    operations,
    resources: annotation.resources,
    diagnostics,
    locate: locateAnnotation,
    locateSpec: spec.locate,
  };
  const resolvers = annotation.resolvers.map((r) => {
    const source = resolverSource(sourceContext, r);
    return {
      name: r.name,
      ...(r.type ? { type: r.type } : {}),
      ...(r.label ? { label: r.label } : {}),
      id: r.id ?? "id",
      ...(source ? { source } : {}),
    };
  });
  if (hasErrors(diagnostics)) return { diagnostics };
  const model = { resolvers, resources: annotation.resources.flatMap((r) => resources.get(r.name) ?? []), tools };
  return { diagnostics, model };
}

/**
 * A page key gives true/false for whether its value is there and not null when written
 * `{ present: PATH }`, when it reads a JSON:API `links` member, and when it is `more` and the path
 * is not itself a boolean (Asana's `next_page` object, PagerDuty's `more: true`). Any other key
 * gives the value.
 */
function pageByPresence(field: PageField, kind: string | undefined): boolean {
  return field.present || field.source.split(".")[0] === "links" || (field.key === "more" && kind !== "boolean");
}

/**
 * The next page after the last record's value, continued only where its row shows no marker there
 * (whatever rule reads it: a format, a legend, money, a duration). A value that is no id, which the
 * spec declares a number and the row shows as it is, is also read as that value's reader reads it.
 */
function readAsItsField(next: NextPageModel | undefined, resource: ResourceModel, name: string | undefined): NextPageModel | undefined {
  if (!next || !("afterLast" in next.source)) return next;
  const field = resource.fields.find((f) => f.name === name);
  if (field?.kind !== "value") return next;
  const { afterLast, param, ids, limit } = next.source;
  const declared = field.shape.type;
  const asNumber = !field.argumentOf && !field.format && !field.legend && (declared === "integer" || declared === "number");
  const readAs = asNumber ? { value: declared } : ids !== undefined ? { ids } : {};
  return { ...next, source: { afterLast, param, ...readAs, shown: field.out, ...(limit !== undefined ? { limit } : {}) } };
}

/**
 * Why `next` may not carry a record's field: dropped, or sent only in full detail. The record's own
 * id is the exception: dropped, it is still only a cursor the model passes back, never read.
 */
function notShown(resource: ResourceModel, name: string): string | undefined {
  const identity = name === "id" || (IDENTITY_NAMES as readonly string[]).includes(name);
  if (!identity && resource.dropped.some((d) => d.name === name || name.startsWith(`${d.name}.`))) return "dropped";
  if (resource.fields.some((f) => f.name === name && f.detail === "full")) return "sent only in full detail";
  return undefined;
}

/**
 * An `argument:` naming no tool of the annotation but one a letter or two from it (`get_tikcet`), or
 * the same words written another way (`getTicket`): a warning, since a tool of the consumer's own
 * may take the id as well.
 */
function argumentsNamingNoTool(annotation: Annotation): Diagnostic[] {
  const tools = new Set(annotation.tools.map((t) => t.name));
  const bySpelling = new Map<string, string>();
  for (const tool of tools) if (!bySpelling.has(squeezed(tool))) bySpelling.set(squeezed(tool), tool);
  const nearest = closestAmong(tools, 2);
  return annotation.resources.flatMap((resource) =>
    resource.fields.flatMap((field) =>
      (field.rule.kind === "keep" ? (field.rule.argument ?? []) : []).flatMap((name, i): Diagnostic[] => {
        const near = tools.has(name) ? undefined : (bySpelling.get(squeezed(name)) ?? nearest(name));
        if (near === undefined) return [];
        const message = `${resource.name}.${field.name}: \`argument:\` names ${name}, which is no tool of this annotation (did you mean "${near}"?)`;
        const help = `write ${near} if that is the tool that takes this id; a tool of your own by this name is fine as it is`;
        const location = annotation.locate([...field.path, "argument", i]);
        return [{ code: "PRJ092", severity: "warning", message, help, location }];
      }),
    ),
  );
}

/** Keys that sit beside a record's own in an envelope: holding only these, an object is no record. */
const ENVELOPE_KEYS = new Set(["links", "_links", "meta"]);

/**
 * The keys of which a record must hold one to be a record (a single record one not null): a JSON:API resource
 * object's `id`, a plain-REST record's declared keys but links and meta. Sorted, so that reordering
 * the spec's properties changes no byte of the output.
 */
function recordKeys(reader: SchemaReader, rows: Rows, errorKeys: readonly string[]): string[] {
  const properties = reader.properties(rows.item);
  const declared = properties.map((p) => p.name);
  if (rows.jsonapi && declared.includes("id")) return ["id"];
  // A JSON:API record's `type` says what it is, never that it holds anything.
  const keys = declared.filter((name) => !ENVELOPE_KEYS.has(name) && !(rows.jsonapi && name === "type")).sort();
  // A member an error body the union allows holds too (a `status`) says nothing of which it is, unless
  // the record requires it and the error is told by members of its own (`message`): then a record holding only what it requires is one.
  const required = new Set(errorKeys.length > 0 ? properties.filter((p) => p.required).map((p) => p.name) : []);
  const own = keys.filter((name) => !rows.errorBranches?.members.includes(name) || required.has(name));
  return own.length > 0 ? own : keys;
}

/** The members by which a body or an item is one of the errors a union allows: those neither the records nor the body around them declare. */
function errorKeys(reader: SchemaReader, rows: Rows, response: SchemaAt): string[] {
  if (!rows.errorBranches) return [];
  const { members, recordBody } = rows.errorBranches;
  const declared = new Set([...reader.properties(rows.item), ...reader.properties(recordBody ?? response)].map((p) => p.name));
  return members.filter((name) => !declared.has(name));
}

/** The JSON:API type every record must carry, where the spec fixes one. */
function recordType(reader: SchemaReader, rows: Rows): { recordType?: string } {
  if (!rows.jsonapi) return {};
  const type = jsonApiType(reader, reader.unwrapNullable(rows.item), true);
  return typeof type === "string" ? { recordType: type } : {};
}

/** The rows as the tool's `record` says they really are: same place in the response, another schema. */
function declaredRecord(reader: SchemaReader, record: string, rows: Rows, resources: ResourceAnnotation[]): Rows | undefined {
  const at = reader.pointer(`/components/schemas/${escapePointer(record)}`);
  if (!at) return undefined;
  const type = rows.jsonapi ? jsonApiType(reader, reader.unwrapNullable(at), true) : undefined;
  const resourceName = type ?? resources.find((r) => r.schema === record)?.name;
  const { resourceName: _declared, ...place } = rows;
  return { ...place, item: at, ...(resourceName !== undefined && resourceName !== null ? { resourceName } : {}) };
}

function locateResourceSchema(reader: SchemaReader, resource: ResourceAnnotation): ResourceSource | undefined {
  if (resource.schema !== undefined) {
    const at = reader.pointer(`/components/schemas/${escapePointer(resource.schema)}`);
    return at && { at, jsonapi: jsonApiType(reader, reader.unwrapNullable(at)) !== undefined };
  }
  const at = jsonApiTypes(reader).get(resource.name);
  return at ? { at, jsonapi: true } : undefined;
}

/**
 * Every module and exported name a resource or tool generates must be its own: `get_url` and `getURL`
 * would both write `tools/get-url.ts`, a tool and a resource named `task` would both export
 * `projectTask`. File names are compared ignoring case, as macOS and Windows filesystems do. The
 * fixed names of `index.ts` need no claim: every generated name has a prefix or suffix they lack.
 */
function checkGeneratedNames(annotation: Annotation, diagnostics: Diagnostic[]) {
  const entries = [
    ...annotation.resources.map((r) => ({ what: `resource ${r.name}`, path: r.path, module: resourceModule(r.name) })),
    ...annotation.tools.map((t) => ({ what: `tool ${t.name}`, path: t.path, module: toolModule(t.name) })),
  ];
  const owners = new Map<string, (typeof entries)[number]>();
  for (const entry of entries) {
    const file = `${entry.module.path}.ts`;
    const claims = [
      { key: `file:${file.toLowerCase()}`, says: `write \`${file}\`` },
      ...[...entry.module.values, ...entry.module.types].map((name) => ({ key: `name:${name}`, says: `generate \`${name}\`` })),
    ];
    const clash = claims.find((claim) => owners.has(claim.key));
    if (clash) {
      const other = owners.get(clash.key)!;
      diagnostics.push({
        code: "PRJ028",
        severity: "error",
        message: `${entry.what} and ${other.what} would both ${clash.says}`,
        help: "rename one of them in the annotation: generated names must differ by more than case and punctuation",
        location: annotation.locate(entry.path, "key"),
        related: annotation.locate(other.path, "key"),
      });
      continue;
    }
    for (const claim of claims) owners.set(claim.key, entry);
  }
}
