import type { FieldAnnotation, KeepRule, ResolverAnnotation, ResourceAnnotation } from "../annotation/types.js";
import type { Diagnostic } from "../diagnostics.js";
import { RESERVED_KEYS } from "../naming.js";
import { child, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { didYouMean } from "../suggest.js";
import { buildLegend, specLegend } from "./legend.js";
import { cutWarning } from "./schema-budget.js";
import { shapeOf } from "./shape.js";
import type { DroppedField, Field, JoinField, RelatedIdField, Shape, SourceBase } from "./types.js";

/** A field as the spec declares it, before the annotation says what happens to it. */
export interface SpecField {
  name: string;
  at: SchemaAt;
  required: boolean;
  base: SourceBase;
  path: string[];
  relationship: boolean;
}

export interface ClassifyContext {
  reader: SchemaReader;
  resource: ResourceAnnotation;
  resolvers: ReadonlyMap<string, ResolverAnnotation>;
  diagnostics: Diagnostic[];
  locateAnnotation(path: readonly (string | number)[], part?: "key" | "value"): Diagnostic["location"];
  locateSpec(pointer: string): Diagnostic["location"];
}

const ENVELOPE = new Set(["type", "links", "meta"]);
/** Opaque ids: kept only as an argument, a join key, or a fact with its reason. */
export const ID_LIKE = /^(id|ids|gid|gids)$|(_id|_ids|_gid|_gids|Id|Ids|Gid|Gids)$/;

/** The fields a JSON:API resource object declares: its id, its attributes and its relationships. */
export function jsonApiFields(reader: SchemaReader, record: SchemaAt): SpecField[] {
  const fields: SpecField[] = [];
  const id = reader.property(record, "id");
  fields.push({ name: "id", at: id?.at ?? record, required: true, base: "record", path: ["id"], relationship: false });
  // JSON:API forbids attributes and relationships named `id` or `type`; some specs declare them
  // anyway. They cannot be named apart from the record's own, so they never reach the model.
  const member = (p: { name: string }) => p.name !== "id" && p.name !== "type";
  const attributes = reader.property(record, "attributes");
  for (const p of attributes ? reader.properties(attributes.at).filter(member) : []) {
    fields.push({ name: p.name, at: p.at, required: p.required, base: "attributes", path: [p.name], relationship: false });
  }
  const relationships = reader.property(record, "relationships");
  for (const p of relationships ? reader.properties(relationships.at).filter(member) : []) {
    fields.push({ name: p.name, at: p.at, required: p.required, base: "relationships", path: [p.name], relationship: true });
  }
  return fields;
}

export function restFields(reader: SchemaReader, record: SchemaAt): SpecField[] {
  return reader
    .properties(record)
    .map((p) => ({ name: p.name, at: p.at, required: p.required, base: "record" as const, path: [p.name], relationship: false }));
}

interface Entry {
  relative: string;
  annotation: FieldAnnotation;
}

/**
 * Matches the annotation's fields against the spec's, one nesting level at a time. Every spec field
 * must be named and every name must exist: that is what keeps a new field from reaching the model,
 * or vanishing, without a person deciding.
 */
export function classifyFields(
  ctx: ClassifyContext,
  specFields: SpecField[],
  annotations: FieldAnnotation[],
  style: "jsonapi" | "rest",
): { fields: Field[]; dropped: DroppedField[] } {
  const entries = annotations.map((a) => ({ relative: a.name, annotation: a }));
  const level = classifyLevel(ctx, specFields, entries, "", style, true);
  // Parts lifted out of their objects (`source.author.name: { as: author }`) sit beside the top-level fields.
  const fields = [...level.fields, ...level.lifted];
  checkOutputNames(ctx, fields, entries);
  return { fields, dropped: level.dropped };
}

interface Level {
  fields: Field[];
  dropped: DroppedField[];
  /** Parts renamed with `as` on their dotted path, which go to the top of the result. */
  lifted: Field[];
}

/** `as` on a dotted path lifts the part to the top, except inside array items, where it renames the part within each item. */
const lifts = (entry: Entry | undefined, prefix: string, liftable: boolean) =>
  liftable && prefix !== "" && entry?.annotation.rule.kind === "keep" && entry.annotation.rule.as !== undefined;

function classifyLevel(
  ctx: ClassifyContext,
  specFields: SpecField[],
  entries: Entry[],
  prefix: string,
  style: "jsonapi" | "rest",
  liftable: boolean,
): Level {
  const fields: Field[] = [];
  const dropped: DroppedField[] = [];
  const lifted: Field[] = [];
  const fieldsPath = [...ctx.resource.path, "fields"];
  const names = new Set(specFields.map((f) => f.name));
  const fallback = names.has(DEFAULT_PART) ? undefined : partDefault(ctx, entries, prefix);

  for (const entry of entries) {
    const head = entry.relative.split(".")[0]!;
    if (names.has(entry.relative) || names.has(head) || entry.relative === DEFAULT_PART) continue;
    const envelope = prefix === "" && style === "jsonapi" && ENVELOPE.has(head);
    // Dropping the envelope says what already happens; accept it rather than make a person undo it.
    if (envelope && entry.annotation.rule.kind === "drop" && entry.relative === head) continue;
    ctx.diagnostics.push({
      code: "PRJ021",
      severity: "error",
      message: `${ctx.resource.name}.${prefix}${entry.relative} is not declared by the spec${didYouMean(head, names)}`,
      help: envelope
        ? "JSON:API `type`, `links` and `meta` are envelope: they are dropped without being named; remove this line"
        : `declared here: ${[...names].join(", ") || "(nothing)"}`,
      location: ctx.locateAnnotation(entry.annotation.path, "key"),
    });
  }

  for (const specField of specFields) {
    const name = prefix + specField.name;
    const exact = entries.find((e) => e.relative === specField.name);
    const children = entries
      .filter((e) => e.relative.startsWith(`${specField.name}.`) && !names.has(e.relative))
      .map((e) => ({ ...e, relative: e.relative.slice(specField.name.length + 1) }));
    if (!exact && children.length === 0 && fallback) {
      // A refused default has its error: the parts it would cover are not each reported again.
      if (fallback.reason !== undefined) dropped.push({ name, reason: fallback.reason, by: fallback.name });
      continue;
    }
    if (!exact && children.length === 0) {
      ctx.diagnostics.push({
        code: "PRJ020",
        severity: "error",
        message: `${ctx.resource.name}.${name} is declared by the spec but not classified`,
        help: `add \`${name}: keep\`, an object rule, or \`${name}: { drop: "reason" }\` under resources.${ctx.resource.name}.fields`,
        location: ctx.locateAnnotation(fieldsPath, "key"),
        related: ctx.locateSpec(specField.at.pointer),
      });
      continue;
    }
    if (children.length > 0) {
      const nested = nestedField(ctx, specField, exact, children, name, style, liftable);
      if (nested?.field) (lifts(exact, prefix, liftable) ? lifted : fields).push(nested.field);
      if (nested) {
        dropped.push(...nested.dropped);
        lifted.push(...nested.lifted);
      }
      continue;
    }
    const rule = exact!.annotation.rule;
    if (rule.kind === "drop") {
      dropped.push({ name, reason: rule.reason });
      continue;
    }
    if (rule.kind === "todo") {
      ctx.diagnostics.push({
        code: "PRJ032",
        severity: "error",
        message: `${ctx.resource.name}.${name} is still a guess${rule.note ? `: ${rule.note}` : ""}`,
        help: "replace the `todo` with a decision (keep, an object rule, or a drop with its reason), or run init with --accept-guesses",
        location: ctx.locateAnnotation(exact!.annotation.path),
      });
      continue;
    }
    const field = keptField(ctx, specField, rule, exact!.annotation, name);
    if (!field) continue;
    const lift = lifts(exact, prefix, liftable);
    if (rule.detail !== undefined && prefix !== "" && !lift) {
      ctx.diagnostics.push({
        code: "PRJ029",
        severity: "error",
        message: `${ctx.resource.name}.${name}: \`detail\` applies to a field at the top of the result, and this one is a part of \`${prefix.slice(0, -1)}\``,
        help: "lift the part to the top with `as`, or remove `detail`",
        location: ctx.locateAnnotation([...exact!.annotation.path, "detail"], "key"),
      });
      continue;
    }
    const detailed = rule.detail === undefined ? field : { ...field, detail: rule.detail };
    const handle = field.kind === "join" && rule.argument ? handleField(ctx, specField, rule, detailed as JoinField) : undefined;
    (lift ? lifted : fields).push(detailed, ...(handle ? [handle] : []));
  }
  if (prefix !== "") checkOutputNames(ctx, fields, entries);
  return { fields, dropped, lifted };
}

/** The key that classifies every part of an object not named otherwise: `payment_method_details.*`. */
const DEFAULT_PART = "*";

/**
 * The default of one level (`x.*: { drop: "reason" }`), which drops every part not named otherwise:
 * a part the spec gains later is covered by a decision written down. Only a drop: a default keep
 * would let every part the spec gains reach the model with nobody deciding.
 */
function partDefault(ctx: ClassifyContext, entries: Entry[], prefix: string): { name: string; reason?: string } | undefined {
  const entry = entries.find((e) => e.relative === DEFAULT_PART);
  if (!entry) return undefined;
  const name = `${prefix}${DEFAULT_PART}`;
  const rule = entry.annotation.rule;
  if (rule.kind === "drop") return { name, reason: rule.reason };
  const object = prefix === "" ? "the resource" : `\`${prefix.slice(0, -1)}\``;
  ctx.diagnostics.push({
    code: "PRJ037",
    severity: "error",
    message: `${ctx.resource.name}.${name}: a default may only drop; ${rule.kind === "todo" ? "a guess" : "a keep"} here would let every part ${object} gains in the spec reach the model without anyone deciding`,
    help: `name each part to keep (\`${prefix}part: keep\`), and drop the rest: \`${name}: { drop: "reason" }\``,
    location: ctx.locateAnnotation(entry.annotation.path, "key"),
  });
  return { name };
}

function nestedField(
  ctx: ClassifyContext,
  specField: SpecField,
  exact: Entry | undefined,
  children: Entry[],
  name: string,
  style: "jsonapi" | "rest",
  liftable: boolean,
): { field?: Field; dropped: DroppedField[]; lifted: Field[] } | undefined {
  const { reader } = ctx;
  const rule = exact?.annotation.rule;
  if (exact && !(rule?.kind === "keep" && rule.as !== undefined && Object.keys(rule).every((k) => k === "kind" || k === "as"))) {
    ctx.diagnostics.push({
      code: "PRJ030",
      severity: "error",
      message: `${ctx.resource.name}.${name} is classified both whole and by its parts`,
      help: `keep \`${name}\` whole, or classify its parts (\`${name}.x\`) and give \`${name}\` at most an \`as\``,
      location: ctx.locateAnnotation(exact.annotation.path),
    });
    return undefined;
  }
  const items = reader.kind(specField.at) === "array" ? reader.items(reader.unwrapNullable(specField.at)) : undefined;
  const many = items !== undefined && reader.objectLike(items);
  const objectAt = many ? items : specField.at;
  if (specField.relationship || !reader.objectLike(objectAt)) {
    ctx.diagnostics.push({
      code: "PRJ021",
      severity: "error",
      message: `${ctx.resource.name}.${name} is not an object or a list of objects, so it has no parts to classify`,
      help: `classify \`${name}\` itself`,
      location: ctx.locateAnnotation(children[0]!.annotation.path, "key"),
    });
    return undefined;
  }
  const parts = reader.properties(objectAt).map((p) => ({
    name: p.name,
    at: p.at,
    required: p.required,
    base: specField.base,
    path: [...specField.path, p.name],
    relationship: false,
  }));
  const inner = classifyLevel(ctx, parts, children, `${name}.`, style, liftable && !many);
  if (inner.fields.length === 0) return { dropped: inner.dropped, lifted: inner.lifted };
  const description = describe(specField.at);
  return {
    field: {
      kind: "object",
      out: (rule?.kind === "keep" ? rule.as : undefined) ?? specField.name,
      name,
      source: { base: specField.base, path: specField.path },
      many,
      children: inner.fields,
      ...(description ? { description } : {}),
    },
    dropped: inner.dropped,
    lifted: inner.lifted,
  };
}

/** How many paths of each kind are named at most: enough to act on, and the walk stops there. */
const CARRIED_NAMED = 20;

/**
 * Paths inside a schema, at any depth and through arrays, whose property names say they hold ids or
 * URLs. A schema found to hold neither at some depth is not walked again at that depth, so one that
 * many properties lead to, level after level, costs its size rather than the number of paths to it.
 */
export function carriedIdsAndUrls(reader: SchemaReader, at: SchemaAt, name: string): { ids: string[]; urls: string[] } {
  const ids: string[] = [];
  const urls: string[] = [];
  const holdsNeither = new Set<string>();
  const full = () => ids.length >= CARRIED_NAMED || urls.length >= CARRIED_NAMED;
  const visit = (node: SchemaAt, path: string, seen: readonly string[]) => {
    const resolved = reader.unwrapNullable(node);
    if (full() || seen.includes(resolved.pointer) || seen.length > 8) return;
    const key = `${seen.length}:${resolved.pointer}`;
    if (holdsNeither.has(key)) return;
    const found = ids.length + urls.length;
    const trail = [...seen, resolved.pointer];
    const kind = reader.kind(resolved);
    if (kind === "array") {
      const items = reader.items(resolved);
      if (items) visit(items, `${path}[]`, trail);
    } else if (kind === "object" || kind === undefined) {
      // A `oneOf`/`anyOf` of objects has no single type, but its branches' properties are still carried.
      for (const p of reader.properties(resolved)) {
        const inner = `${path}.${p.name}`;
        if (ID_LIKE.test(p.name)) ids.push(inner);
        else if (isUrl(reader, p.name, p.at)) urls.push(inner);
        else visit(p.at, inner, trail);
      }
    }
    if (ids.length + urls.length === found) holdsNeither.add(key);
  };
  visit(at, name, []);
  return { ids: ids.slice(0, CARRIED_NAMED), urls: urls.slice(0, CARRIED_NAMED) };
}

const URL_FORMATS = new Set(["uri", "url", "uri-reference", "iri", "iri-reference"]);

function isUrl(reader: SchemaReader, name: string, at: SchemaAt): boolean {
  const format = reader.unwrapNullable(at).schema["format"];
  return (typeof format === "string" && URL_FORMATS.has(format)) || /(^|_)(url|uri|href)$|Url$|^self$/.test(name);
}

function describe(at: SchemaAt): string | undefined {
  const description = at.schema["description"];
  return typeof description === "string" && description.trim() !== "" ? description.trim() : undefined;
}

function keptField(
  ctx: ClassifyContext,
  specField: SpecField,
  rule: KeepRule,
  annotation: FieldAnnotation,
  name: string,
): Field | undefined {
  const { reader } = ctx;
  const errorsBefore = ctx.diagnostics.length;
  const problem = (code: Diagnostic["code"], message: string, help: string, key?: string) =>
    ctx.diagnostics.push({
      code,
      severity: "error",
      message: `${ctx.resource.name}.${name}: ${message}`,
      help,
      location: ctx.locateAnnotation(key ? [...annotation.path, key] : annotation.path, key ? "key" : "value"),
      related: ctx.locateSpec(specField.at.pointer),
    });
  const checkResolver = (resolver: string, key: string) => {
    if (!ctx.resolvers.has(resolver)) {
      const example =
        key === "legend"
          ? `\`${resolver}: {}\``
          : `\`${resolver}: { type: user, label: name }\` (or \`${resolver}: { label: name, id: gid }\` for plain REST)`;
      problem(
        "PRJ026",
        `resolver "${resolver}" is not declared${didYouMean(resolver, ctx.resolvers.keys())}`,
        `declare it under \`resolvers:\`, e.g. ${example}`,
        key,
      );
    }
  };
  const keysOf = (resolver: string) => {
    const declared = ctx.resolvers.get(resolver);
    return { id: declared?.id ?? "id", ...(declared?.label !== undefined ? { label: declared.label } : {}) };
  };
  if (rule.id_as !== undefined && !(rule.join && rule.argument))
    problem(
      "PRJ029",
      "`id_as` names the id kept beside a joined name, and this field is not both a join key and an argument",
      `write \`${name}: { join: RESOLVER, argument: [tool], id_as: ${rule.id_as} }\`, or remove \`id_as\``,
      "id_as",
    );
  if (rule.fact !== undefined) {
    for (const key of ["join", "argument", "shorten", "legend"] as const) {
      if (rule[key] !== undefined)
        problem("PRJ029", `a fact is kept as it is; \`${key}\` says otherwise`, `remove \`${key}\`, or the \`fact\``, key);
    }
  }
  const out = rule.as ?? specField.name;
  // A reformatted or expanded value no longer matches the spec's description of it ("unix seconds").
  const description = rule.format
    ? rule.format === "date"
      ? "Date, YYYY-MM-DD, in UTC."
      : "Date and time to the minute, YYYY-MM-DDTHH:MMZ, in UTC."
    : rule.legend
      ? undefined
      : (describe(specField.at) ?? describe(reader.deref(specField.at)));
  const common = { out, name, source: { base: specField.base, path: specField.path }, ...(description ? { description } : {}) };

  if (specField.relationship) {
    for (const key of ["format", "legend", "shorten"] as const) {
      if (rule[key] !== undefined && !(key === "shorten" && rule.argument))
        problem(
          "PRJ029",
          `\`${key}\` does not apply to a relationship`,
          "a relationship is joined to a name or kept as an argument id",
          key,
        );
    }
    const data = child(reader.unwrapNullable(specField.at), "properties", "data");
    const many = data !== undefined && reader.kind(data) === "array";
    if (rule.join) {
      checkResolver(rule.join, "join");
      return ctx.diagnostics.length > errorsBefore
        ? undefined
        : { kind: "join", ...common, resolver: rule.join, many, via: "relationship", keys: keysOf(rule.join) };
    }
    if (rule.argument) return { kind: "related-id", ...common, many, argumentOf: [...rule.argument], shorten: rule.shorten === true };
    problem(
      "PRJ022",
      "a relationship must be joined to a name, kept as an argument id, or dropped",
      `write \`${name}: { join: RESOLVER }\`, \`${name}: { argument: [tool] }\`, or \`${name}: { drop: "reason" }\``,
    );
    return undefined;
  }

  const kind = reader.kind(specField.at);
  if (rule.join) {
    for (const key of ["format", "legend", "shorten"] as const) {
      if (rule[key] !== undefined && !(key === "shorten" && rule.argument))
        problem(
          "PRJ029",
          `\`${key}\` does not apply to a join key`,
          "a join key becomes the resolver's label; with `argument: [tool]` its id is kept beside it too",
          key,
        );
    }
    if (rule.shorten && rule.argument && handleIdKind(ctx, specField, keysOf(rule.join).id) === "integer")
      problem("PRJ029", "`shorten` applies to string ids only, and this join key's ids are integers", "remove `shorten`", "shorten");
    checkResolver(rule.join, "join");
    return ctx.diagnostics.length > errorsBefore
      ? undefined
      : { kind: "join", ...common, resolver: rule.join, many: kind === "array", via: "property", keys: keysOf(rule.join) };
  }
  if (ID_LIKE.test(specField.name) && !rule.argument && rule.fact === undefined) {
    problem(
      "PRJ022",
      "an id is kept only as an argument to a tool or as a join key",
      `write \`${name}: { argument: [tool_that_takes_it] }\`, \`{ join: RESOLVER }\`, \`{ drop: "reason" }\`, or, for a number people quote, \`{ fact: "why" }\``,
    );
    return undefined;
  }
  if (rule.shorten && !rule.argument)
    problem("PRJ029", "`shorten` applies to argument ids only", "add `argument: [tool]` or remove `shorten`", "shorten");
  if (rule.shorten && kind !== "string") problem("PRJ029", "`shorten` applies to string ids only", "remove `shorten`", "shorten");
  if (rule.format && rule.legend) problem("PRJ029", "a field takes a format or a legend, not both", "remove one of them", "format");
  if (rule.format && kind !== "string" && kind !== "integer") {
    problem(
      "PRJ029",
      `format ${rule.format} applies to date-time strings or integer epoch timestamps, not ${kind ?? "this schema"}`,
      "remove `format`",
      "format",
    );
  }

  const enumValues = reader.enumValues(specField.at);
  const numericEnum = enumValues !== undefined && enumValues.length > 0 && enumValues.every((v) => typeof v === "number");
  let shape: Shape;
  let cutLevels: number | undefined;
  let legend: import("./types.js").LegendModel | undefined;
  if (rule.legend) {
    if (kind !== "integer" && kind !== "number" && kind !== "string") {
      problem("PRJ029", `a legend applies to coded integers or strings, not ${kind ?? "this schema"}`, "remove `legend`", "legend");
    } else if (rule.legend.source === "resolver") {
      checkResolver(rule.legend.resolver, "legend");
    }
    const built = buildLegend(reader, specField.at, rule.legend, kind === "integer" || kind === "number");
    for (const p of built.problems) {
      if (p.kind === "no-spec-legend") {
        problem(
          "PRJ025",
          `\`legend: spec\`, but ${p.detail ?? "the spec gives no words for this enum"}`,
          "the spec needs x-enum-varnames, x-enumNames, x-enum-descriptions or oneOf const/title; or write the legend inline: `legend: { 1: low, 2: high }`",
          "legend",
        );
      } else if (p.kind === "missing-codes") {
        problem(
          "PRJ024",
          `the legend has no word for ${p.codes.map((c) => JSON.stringify(c)).join(", ")}, which the spec's enum lists`,
          `add ${p.codes.map((c) => `${c}: WORD`).join(", ")} to the legend`,
          "legend",
        );
      } else {
        problem(
          "PRJ024",
          `legend code ${JSON.stringify(p.code)} is not a number, but the field is numeric`,
          "legend codes of a numeric field are numbers: `{ 1: low }`",
          "legend",
        );
      }
    }
    for (const code of built.extraCodes) {
      ctx.diagnostics.push({
        code: "PRJ024",
        severity: "warning",
        message: `${ctx.resource.name}.${name}: legend code ${code} is not in the spec's enum`,
        help: "remove it, or add the code to the spec",
        location: ctx.locateAnnotation([...annotation.path, "legend", code], "key"),
      });
    }
    legend = built.legend;
    shape =
      legend?.kind === "static" ? { type: "literal", values: [...new Set(legend.entries.map(([, word]) => word))] } : { type: "string" };
  } else if (rule.format) {
    shape = { type: "string" };
  } else {
    const carried =
      (kind === "object" || kind === "array" || kind === undefined) && !rule.argument
        ? carriedIdsAndUrls(reader, specField.at, name)
        : { ids: [], urls: [] };
    const whole = kind === "array" ? "this list" : "this object";
    // The dotted path that classifies that part, the same through an object and through each item of a list.
    const partOf = (path: string) => path.replace(/\[\]/g, "");
    if (carried.ids.length > 0) {
      problem(
        "PRJ022",
        `kept whole, ${whole} would carry ${carried.ids.map((n) => `\`${n}\``).join(", ")}, an opaque id`,
        `join it to a name (\`${name}: { join: RESOLVER }\`), or classify its parts (\`${partOf(carried.ids[0]!)}: { drop: "reason" }\`, ...)`,
      );
    }
    if (carried.urls.length > 0) {
      problem(
        "PRJ033",
        `kept whole, ${whole} would carry ${carried.urls.map((n) => `\`${n}\``).join(", ")}, a URL the model cannot open`,
        `classify its parts (\`${partOf(carried.urls[0]!)}: { drop: "a link the model cannot open" }\`, ...)`,
      );
    }
    if (numericEnum && !rule.argument) {
      const fromSpec = specLegend(reader, specField.at);
      problem(
        "PRJ023",
        `integer enum ${JSON.stringify(enumValues)} is kept without a legend; the model would have to guess what the codes mean`,
        fromSpec
          ? `the spec names the codes: write \`${name}: { legend: spec }\``
          : `write the words: \`${name}: { legend: { ${enumValues!.map((v) => `${v}: WORD`).join(", ")} } }\``,
      );
    }
    shape = shapeOf(reader, specField.at, (levels) => (cutLevels = levels));
  }
  if (ctx.diagnostics.length > errorsBefore) return undefined;
  if (cutLevels !== undefined) {
    const schema = reader.refName(specField.at);
    ctx.diagnostics.push(
      cutWarning(
        {
          what: `${ctx.resource.name}.${name}${schema === undefined ? "" : ` (schema ${JSON.stringify(schema)})`}, kept whole,`,
          written: "type",
          below: "is `unknown`",
          levels: cutLevels,
        },
        ctx.locateSpec(reader.unwrapNullable(specField.at).pointer),
        ctx.locateAnnotation(annotation.path, "value"),
      ),
    );
  }
  return {
    kind: "value",
    ...common,
    shape,
    ...(rule.format ? { format: rule.format } : {}),
    ...(legend ? { legend } : {}),
    ...((legend || rule.argument) && reader.refName(specField.at) !== undefined ? { schemaRef: reader.refName(specField.at)! } : {}),
    ...(rule.argument ? { argumentOf: [...rule.argument] } : {}),
    shorten: rule.shorten === true,
    required: specField.required && !reader.nullable(specField.at),
  };
}

/**
 * The id kept beside a joined name (`assignee_id` beside `assignee`), read from the same value, for
 * a join key that is also an argument: the model reads the name and passes the id.
 */
function handleField(ctx: ClassifyContext, specField: SpecField, rule: KeepRule, join: JoinField): RelatedIdField {
  const integer = join.via === "property" && handleIdKind(ctx, specField, join.keys.id) === "integer";
  return {
    kind: "related-id",
    out: rule.id_as ?? `${join.out}_id`,
    name: join.name,
    source: join.source,
    description: `The id of ${join.many ? "each record" : "the record"} named in ${join.out}.`,
    ...(join.detail ? { detail: join.detail } : {}),
    many: join.many,
    argumentOf: [...rule.argument!],
    shorten: rule.shorten === true && !integer,
    beside: join.out,
    ...(join.via === "property" ? { property: { keys: { id: join.keys.id }, integer } } : {}),
  };
}

/** Whether a plain join key's ids are integers: the value itself, or its embedded records' `id` key, through a list. */
function handleIdKind(ctx: ClassifyContext, specField: SpecField, idKey: string): string | undefined {
  const { reader } = ctx;
  if (specField.relationship) return "string";
  let at = reader.unwrapNullable(specField.at);
  if (reader.kind(at) === "array") {
    const items = reader.items(at);
    if (!items) return undefined;
    at = reader.unwrapNullable(items);
  }
  const kind = reader.kind(at);
  if (kind !== "object" && kind !== undefined) return kind;
  const id = reader.property(at, idKey);
  return id ? reader.kind(id.at) : undefined;
}

function checkOutputNames(ctx: ClassifyContext, fields: Field[], entries: Entry[]) {
  const seen = new Map<string, Field>();
  for (const field of fields) {
    // Found only for a field with a problem: finding every field's entry and place in the annotation
    // took time quadratic in a resource's fields.
    const location = () => {
      const entry = entries.find((e) => e.relative === field.name.split(".").pop() || e.annotation.name === field.name);
      return ctx.locateAnnotation(entry ? entry.annotation.path : ctx.resource.path);
    };
    if (RESERVED_KEYS.has(field.out)) {
      ctx.diagnostics.push({
        code: "PRJ028",
        severity: "error",
        message: `${ctx.resource.name}.${field.name}: output name "${field.out}" is not allowed`,
        help: "it would set the object's prototype; choose another name with `as`",
        location: location(),
      });
      continue;
    }
    const other = seen.get(field.out);
    if (other) {
      ctx.diagnostics.push({
        code: "PRJ027",
        severity: "error",
        message: `${ctx.resource.name}: ${other.name} and ${field.name} are both written as "${field.out}"`,
        help: "give one of them another name with `as` (`id_as` for the id kept beside a joined name)",
        location: location(),
      });
    }
    seen.set(field.out, field);
  }
}
