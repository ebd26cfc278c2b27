import type { FieldAnnotation, KeepRule, ResolverAnnotation, ResourceAnnotation } from "../annotation/types.js";
import type { Diagnostic } from "../diagnostics.js";
import { RESERVED_KEYS } from "../naming.js";
import { child, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { formatNamed } from "../rules/format.js";
import { didYouMean } from "../suggest.js";
import { relatedField } from "../rules/argument.js";
import { checkKept } from "../rules/field-rules.js";
import { handleField } from "../rules/handle.js";
import { joinField } from "../rules/join.js";
import { detailOnPart } from "../rules/detail.js";
import { checkKeptWhole } from "../rules/keep.js";
import { legendModel, legendShape } from "../rules/legend.js";
import type { FieldRole, RuleProblem, SpecFacts } from "../rules/types.js";
import { shortSpecLegend, specLegend } from "./legend.js";
import { carriedCredential, isCredential, secretExample } from "./credentials.js";
import { carriedIdsAndUrls, ID_LIKE, idFacts } from "./spec-ids.js";
import { cutWarning } from "./schema-budget.js";
import { shapeOf } from "./shape.js";
import type { DroppedField, Field, LegendModel, Shape, SourceBase } from "./types.js";

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

/** The fields a JSON:API resource object declares: its id, its attributes and its relationships. */
export function jsonApiFields(reader: SchemaReader, record: SchemaAt): SpecField[] {
  const id = reader.property(record, "id");
  const fields: SpecField[] = [{ name: "id", at: id?.at ?? record, required: true, base: "record", path: ["id"], relationship: false }];
  // JSON:API forbids attributes and relationships named `id` or `type`; some specs declare them
  // anyway. They cannot be named apart from the record's own, so they never reach the model.
  const member = (p: { name: string }) => p.name !== "id" && p.name !== "type";
  for (const base of ["attributes", "relationships"] as const) {
    const declared = reader.property(record, base);
    for (const p of declared ? reader.properties(declared.at).filter(member) : [])
      fields.push({ name: p.name, at: p.at, required: p.required, base, path: [p.name], relationship: base === "relationships" });
  }
  return fields;
}

/**
 * The fields of a JSON:API type whose records several tools return, each as its own schema (a list's
 * brief record and a fetch's full one): every attribute and relationship any of them declares,
 * required where all of them require it, so that the resource classifies every field its records
 * can hold. The names the schemas declare otherwise (an attribute and a relationship, text and a
 * number, one related record and a list, objects of other members) are `clashes`: one reader
 * cannot read both, unless the resource drops them.
 */
export function jsonApiTypeFields(reader: SchemaReader, records: readonly SchemaAt[]): { fields: SpecField[]; clashes: string[] } {
  const clashes: string[] = [];
  const [first, ...others] = records.map((record) => jsonApiFields(reader, record));
  const fields = new Map(first!.map((field) => [field.name, { ...field }]));
  // Each schema is written out once for every member that reaches it, in any of the records.
  const written = new Map<string, string>();
  const shape = (field: SpecField) => declaredShape(reader, field, written);
  for (const more of others) {
    for (const field of more) {
      const known = fields.get(field.name);
      if (!known) fields.set(field.name, { ...field, required: false });
      else if (known.at.pointer === field.at.pointer) known.required &&= field.required;
      else if (!sameShape(shape(known), shape(field))) {
        if (!clashes.includes(field.name)) clashes.push(field.name);
      } else {
        known.required &&= field.required;
        // Read as the wider of the two: a number where one says integer, a declared shape where one says any.
        if (wider(reader, field, known)) known.at = field.at;
      }
    }
    for (const known of fields.values()) if (!more.some((field) => field.name === known.name)) known.required = false;
  }
  return { fields: [...fields.values()], clashes };
}

/** What the spec declares a JSON:API member as, in words: `a relationship to one record`, `an attribute of type string`. */
export function declaredAs(reader: SchemaReader, field: SpecField): string {
  if (!field.relationship) {
    const shape = declaredShape(reader, field);
    return shape === "any"
      ? "an attribute of any type"
      : `an attribute of ${shape.includes("{") || shape.includes("[") ? "shape" : "type"} ${shape}`;
  }
  const data = child(reader.unwrapNullable(field.at), "properties", "data");
  return reader.kind(data ? reader.unwrapNullable(data) : field.at) === "array"
    ? "a relationship to a list"
    : "a relationship to one record";
}

/**
 * A member's shape, as one reader reads it: a relationship's cardinality, a value's type, and an
 * object's or a list's members all the way down (a value kept whole is checked and typed by them).
 */
function declaredShape(reader: SchemaReader, field: SpecField, known = new Map<string, string>()): string {
  if (field.relationship) return declaredAs(reader, field);
  const onPath = new Set<string>();
  const shape = (at: SchemaAt): string => {
    const value = reader.unwrapNullable(at);
    const kind = reader.kind(value);
    if (kind === undefined) return "any";
    if (kind === "integer") return "number";
    if (kind !== "array" && kind !== "object") return kind;
    // A schema that many members share is written out once (`known`, given by a caller comparing many).
    const done = known.get(value.pointer);
    if (done !== undefined) return done;
    // A schema that holds itself is compared by where it is.
    if (onPath.has(value.pointer)) return `again ${value.pointer}`;
    onPath.add(value.pointer);
    const items = kind === "array" ? reader.items(value) : undefined;
    const written =
      kind === "array"
        ? `array[${items ? shape(items) : "any"}]`
        : `object{${reader
            .properties(value)
            .map((p) => `${p.name}: ${shape(p.at)}`)
            .sort()
            .join(", ")}}`;
    onPath.delete(value.pointer);
    // One written within a cycle says where the walk came from: written again from elsewhere.
    if (!written.includes("again ")) known.set(value.pointer, written);
    return written;
  };
  return shape(field.at);
}

/** Whether one reader reads both shapes: the same, or either of any type. */
const sameShape = (a: string, b: string) => a === b || a === "any" || b === "any";

/** Whether `field`'s declaration reads more of the values both may hold than `known`'s. */
function wider(reader: SchemaReader, field: SpecField, known: SpecField): boolean {
  const kind = (at: SchemaAt) => reader.kind(reader.unwrapNullable(at));
  const [was, is] = [kind(known.at), kind(field.at)];
  return (was === undefined && is !== undefined) || (was === "integer" && is === "number");
}

export function restFields(reader: SchemaReader, record: SchemaAt): SpecField[] {
  return reader.properties(record).map((p) => ({ ...p, base: "record" as const, path: [p.name], relationship: false }));
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
    const field = keptField(ctx, specField, rule, exact!.annotation, name, specFields);
    if (!field) continue;
    const lift = lifts(exact, prefix, liftable);
    if (rule.detail !== undefined && prefix !== "" && !lift) {
      const { message, help } = detailOnPart(prefix.slice(0, -1));
      ctx.diagnostics.push({
        code: "PRJ029",
        severity: "error",
        message: `${ctx.resource.name}.${name}: ${message}`,
        help,
        location: ctx.locateAnnotation([...exact!.annotation.path, "detail"], "key"),
      });
      continue;
    }
    const detailed = rule.detail === undefined ? field : { ...field, detail: rule.detail };
    const handle =
      detailed.kind === "join" && rule.argument
        ? handleField(
            { ...rule, argument: rule.argument },
            detailed,
            detailed.via === "property" && idFacts(ctx.reader, specField.at, false).idKind(detailed.keys.id) === "integer",
          )
        : undefined;
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
  const parts = reader
    .properties(objectAt)
    .map((p) => ({ ...p, base: specField.base, path: [...specField.path, p.name], relationship: false }));
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
      // Sorted, so that reordering the spec's properties changes no byte of the output.
      keys: parts.map((part) => part.name).sort(),
      ...(description ? { description } : {}),
    },
    dropped: inner.dropped,
    lifted: inner.lifted,
  };
}

function describe(at: SchemaAt): string | undefined {
  const description = at.schema["description"];
  return typeof description === "string" && description.trim() !== "" ? description.trim() : undefined;
}

/** The kind the spec declares at `path` beside a field, on its level: `"absent"` where it declares nothing. */
function siblingKind(ctx: ClassifyContext, field: SpecField, siblings: readonly SpecField[], path: readonly string[]) {
  const [first, ...rest] = path;
  const sibling = siblings.find((s) => s.name === first && s.base === field.base) ?? siblings.find((s) => s.name === first);
  let at: SchemaAt | undefined = sibling?.at;
  for (const name of rest) at = at && ctx.reader.property(at, name)?.at;
  return at ? ctx.reader.kind(at) : "absent";
}

/** What the rules' checks see of a spec field, and what its rule makes of it. */
function specFacts(ctx: ClassifyContext, specField: SpecField, rule: KeepRule, name: string, siblings: readonly SpecField[]): SpecFacts {
  const role: FieldRole = specField.relationship
    ? "relationship"
    : rule.join
      ? "join key"
      : ID_LIKE.test(specField.name) && !rule.argument && rule.fact === undefined
        ? "id"
        : "value";
  return {
    name,
    role,
    kind: ctx.reader.kind(specField.at),
    sibling: (path) => siblingKind(ctx, specField, siblings, path),
    resolvers: [...ctx.resolvers.keys()],
    joinedIdKind: () => idFacts(ctx.reader, specField.at, specField.relationship).idKind(resolverKeys(ctx, rule.join!).id),
    enumerated: () => (ctx.reader.enumValues(specField.at)?.length ?? 0) > 0,
    credential: () =>
      isCredential(ctx.reader, specField.name, specField.at, specField.path.at(-2) ?? ctx.resource.name)
        ? name
        : carriedCredential(ctx.reader, specField.at, name),
    carriedCredential: () => carriedCredential(ctx.reader, specField.at, name),
    secretExample: () => secretExample(ctx.reader, specField.at),
  };
}

/** How a resolver reads an embedded record: the key of its id (`id` unless declared), and of its label. */
function resolverKeys(ctx: ClassifyContext, resolver: string): { id: string; label?: string } {
  const declared = ctx.resolvers.get(resolver);
  return { id: declared?.id ?? "id", ...(declared?.label !== undefined ? { label: declared.label } : {}) };
}

/** The field a kept rule makes of a spec field, once every rule has checked it; undefined where one refused it. */
function keptField(
  ctx: ClassifyContext,
  specField: SpecField,
  rule: KeepRule,
  annotation: FieldAnnotation,
  name: string,
  siblings: readonly SpecField[],
): Field | undefined {
  const { reader } = ctx;
  const errorsBefore = ctx.diagnostics.length;
  const problem: RuleProblem = (code, message, help, key) =>
    ctx.diagnostics.push({
      code,
      severity: "error",
      message: `${ctx.resource.name}.${name}: ${message}`,
      help,
      location: ctx.locateAnnotation(key ? [...annotation.path, key] : annotation.path, key ? "key" : "value"),
      related: ctx.locateSpec(specField.at.pointer),
    });
  const facts = specFacts(ctx, specField, rule, name, siblings);
  checkKept(rule, facts, problem);
  const out = rule.as ?? specField.name;
  // A reformatted or expanded value no longer matches the spec's description of it ("unix seconds").
  const format = rule.format && { use: rule.format, rule: formatNamed(rule.format.name)! };
  const description = format
    ? format.rule.description(format.use.options)
    : rule.legend
      ? undefined
      : (describe(specField.at) ?? describe(reader.deref(specField.at)));
  const common = { out, name, source: { base: specField.base, path: specField.path }, ...(description ? { description } : {}) };

  const errors = () => ctx.diagnostics.length > errorsBefore;
  const ids = () => idFacts(reader, specField.at, specField.relationship);
  const declared = (resolver: string) => ({ keys: resolverKeys(ctx, resolver), type: ctx.resolvers.get(resolver)?.type });
  if (facts.role === "relationship") {
    if (rule.join) return errors() ? undefined : joinField(common, rule.join, declared(rule.join), true, ids());
    if (rule.argument) return relatedField(common, { ...rule, argument: rule.argument }, ids());
    return undefined;
  }
  if (facts.role === "join key") return errors() ? undefined : joinField(common, rule.join!, declared(rule.join!), false, ids());
  if (facts.role === "id") return undefined;
  const { kind } = facts;

  let shape: Shape;
  let cutLevels: number | undefined;
  let legend: LegendModel | undefined;
  if (rule.legend) {
    const coded = {
      codes: reader.enumValues(specField.at) ?? [],
      kind,
      numeric: kind === "integer" || kind === "number",
      specWords: () => specLegend(reader, specField.at),
      specWordsShort: () => shortSpecLegend(reader, specField.at),
    };
    legend = legendModel(rule.legend, coded, problem, (code) =>
      ctx.diagnostics.push({
        code: "PRJ024",
        severity: "warning",
        message: `${ctx.resource.name}.${name}: legend code ${code} is not in the spec's enum`,
        help: "remove it, or add the code to the spec",
        location: ctx.locateAnnotation([...annotation.path, "legend", code], "key"),
      }),
    );
    shape = legendShape(legend);
  } else if (rule.format) {
    shape = { type: "string" };
  } else {
    const enumValues = reader.enumValues(specField.at);
    const numericEnum = enumValues !== undefined && enumValues.length > 0 && enumValues.every((v) => typeof v === "number");
    checkKeptWhole(
      {
        name,
        list: kind === "array",
        carried:
          (kind === "object" || kind === "array" || kind === undefined) && !rule.argument
            ? carriedIdsAndUrls(reader, specField.at, name)
            : { ids: [], urls: [] },
        numericCodes: numericEnum && !rule.argument ? enumValues : undefined,
        specNamesCodes: () => specLegend(reader, specField.at) !== undefined,
      },
      problem,
    );
    shape = shapeOf(reader, specField.at, (levels) => (cutLevels = levels));
  }
  if (errors()) return undefined;
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
    ...(format ? { format: { ...format.use, declared: kind } } : {}),
    ...(legend ? { legend } : {}),
    ...((legend || rule.argument) && reader.refName(specField.at) !== undefined ? { schemaRef: reader.refName(specField.at)! } : {}),
    ...(rule.argument ? { argumentOf: [...rule.argument] } : {}),
    shorten: rule.shorten === true,
    ...(rule.max_chars !== undefined ? { maxChars: rule.max_chars } : {}),
    required: specField.required && !reader.nullable(specField.at),
  };
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
