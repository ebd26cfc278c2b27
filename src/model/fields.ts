import type { FieldAnnotation, KeepRule, ResolverAnnotation, ResourceAnnotation } from "../annotation/types.js";
import type { Diagnostic } from "../diagnostics.js";
import { RESERVED_KEYS } from "../naming.js";
import { child, isJsonObject, members, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { formatNamed } from "../rules/format.js";
import { didYouMean } from "../suggest.js";
import { checkKept } from "../rules/field-rules.js";
import { detailOnPart } from "../rules/detail.js";
import { checkKeptWhole } from "../rules/keep.js";
import { legendModel } from "../rules/legend.js";
import type { FieldRole, RuleProblem, SpecFacts } from "../rules/types.js";
import { shortSpecLegend, specLegend } from "./legend.js";
import { cutWarning } from "./schema-budget.js";
import { shapeOf } from "./shape.js";
import type { DroppedField, Field, JoinField, LegendModel, RelatedIdField, Shape, SourceBase } from "./types.js";

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
export const ID_LIKE = /^(id|ids|gid|gids|uuid|uuids|sid|sids)$|(_id|_ids|_gid|_gids|_uuid|_sid|_sids|Id|Ids|Gid|Gids|Uuid|Sid|Sids)$/;

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

/** What makes a value an id beyond its name: the component schemas, patterns and formats the spec's own id-named values use. */
export interface IdSchemas {
  refs: ReadonlySet<string>;
  patterns: ReadonlySet<string>;
  formats: ReadonlySet<string>;
}

/** Formats that say how a value is written, never that it is an id, whatever the fields using them are named. */
const PLAIN_FORMATS = new Set([
  ...["int32", "int64", "integer", "number", "float", "double", "decimal", "string", "text", "byte", "binary", "password"],
  ...["date", "date-time", "time", "duration", "uri", "url", "uri-reference", "iri", "email", "hostname", "ipv4", "ipv6"],
]);

const idSchemasByDocument = new WeakMap<object, IdSchemas>();

/**
 * The schemas the spec writes its ids with, read once per document: a component schema (`$ref`),
 * a `pattern` or a `format` that id-named properties and parameters use at least as often as
 * others do, and `format: uuid` always. A value written with one is an id whatever its name:
 * Discord's `mention_roles` holds its snowflake ids, Twilio's `call_sid_to_coach` a call's `CA…` sid.
 */
export function idSchemas(reader: SchemaReader): IdSchemas {
  const known = idSchemasByDocument.get(reader.document);
  if (known) return known;
  const tallies = { refs: new Map<string, number>(), patterns: new Map<string, number>(), formats: new Map<string, number>() };
  const tally = (name: string, value: unknown) => {
    if (!isJsonObject(value)) return;
    const schema = value["type"] === "array" && isJsonObject(value["items"]) ? value["items"] : value;
    const vote = ID_LIKE.test(name) ? 1 : -1;
    const count = (map: Map<string, number>, key: unknown) => {
      if (typeof key === "string") map.set(key, (map.get(key) ?? 0) + vote);
    };
    const ref = typeof schema["$ref"] === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(schema["$ref"])?.[1] : undefined;
    count(tallies.refs, ref);
    count(tallies.patterns, schema["pattern"]);
    count(tallies.formats, schema["format"]);
  };
  const walk = (value: unknown, depth: number) => {
    if (depth > 64) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    if (!isJsonObject(value)) return;
    const properties = value["properties"];
    if (isJsonObject(properties)) for (const [name, schema] of Object.entries(properties)) tally(name, schema);
    if (typeof value["name"] === "string" && typeof value["in"] === "string") tally(value["name"], value["schema"]);
    for (const inner of Object.values(value)) walk(inner, depth + 1);
  };
  walk(reader.document, 0);
  const chosen = (map: Map<string, number>) => new Set([...map].filter(([, votes]) => votes >= 0).map(([key]) => key));
  const formats = chosen(tallies.formats);
  for (const format of PLAIN_FORMATS) formats.delete(format);
  formats.add("uuid");
  const found: IdSchemas = { refs: chosen(tallies.refs), patterns: chosen(tallies.patterns), formats };
  idSchemasByDocument.set(reader.document, found);
  return found;
}

/** Whether a string or integer is written with one of the spec's id schemas ({@link idSchemas}). */
export function isIdSchema(reader: SchemaReader, at: SchemaAt): boolean {
  const ids = idSchemas(reader);
  // Through a `$ref`, a nullable `oneOf` and a one-member `allOf` (a description beside the ref).
  let node: SchemaAt | undefined = at;
  for (let steps = 0; node !== undefined && steps < 8; steps++) {
    const name = reader.refName(node) ?? reader.refName(reader.unwrapNullable(node));
    if (name !== undefined && ids.refs.has(name)) return true;
    const wrapped = members(reader.unwrapNullable(node), "allOf");
    node = wrapped.length === 1 ? wrapped[0] : undefined;
  }
  const kind = reader.kind(at);
  if (kind !== "string" && kind !== "integer") return false;
  const schema = reader.unwrapNullable(at).schema;
  return (
    (typeof schema["pattern"] === "string" && ids.patterns.has(schema["pattern"])) ||
    (typeof schema["format"] === "string" && ids.formats.has(schema["format"]))
  );
}

/** A list whose items are ids by their schema (`mention_roles: [snowflake]`). */
function isIdList(reader: SchemaReader, at: SchemaAt): boolean {
  if (reader.kind(at) !== "array") return false;
  const items = reader.items(at);
  return items !== undefined && isIdSchema(reader, items);
}

/** How many carried paths of each kind a schema node keeps: a message names a few, and only emptiness decides. */
const CARRIED_SHOWN = 12;

interface Carried {
  ids: string[];
  urls: string[];
}

const carriedByDocument = new WeakMap<object, Map<string, Carried>>();

/**
 * Paths inside a schema, at any depth and through arrays, that hold ids (by their names or by the
 * spec's id schemas) or URLs. Each schema node is walked once per document, however many fields
 * share it: a spec whose records all embed one deep schema would otherwise be walked once a field.
 */
export function carriedIdsAndUrls(reader: SchemaReader, at: SchemaAt, name: string): { ids: string[]; urls: string[] } {
  const memo = carriedByDocument.get(reader.document) ?? new Map<string, Carried>();
  carriedByDocument.set(reader.document, memo);
  const found = carriedFrom(reader, at, memo);
  return { ids: found.ids.map((path) => name + path), urls: found.urls.map((path) => name + path) };
}

interface Edge {
  label: string;
  to: string;
}

/**
 * What a node carries, from the nodes it reaches. Nodes on a cycle (a user whose manager is a
 * user) reach each other, so they are settled together once the walk leaves their cycle, as
 * Tarjan's algorithm finds it: each then carries what it holds itself, or failing that, one path
 * through the cycle to a node that holds something.
 */
function carriedFrom(reader: SchemaReader, at: SchemaAt, memo: Map<string, Carried>): Carried {
  const start = reader.unwrapNullable(at);
  const done = memo.get(start.pointer);
  if (done) return done;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const edges = new Map<string, Edge[]>();
  const own = new Map<string, Carried>();
  const add = (into: Carried, label: string, from: Carried) => {
    for (const path of from.ids) if (into.ids.length < CARRIED_SHOWN) into.ids.push(label + path);
    for (const path of from.urls) if (into.urls.length < CARRIED_SHOWN) into.urls.push(label + path);
  };
  const visit = (node: SchemaAt) => {
    const pointer = node.pointer;
    index.set(pointer, index.size);
    low.set(pointer, index.get(pointer)!);
    stack.push(pointer);
    onStack.add(pointer);
    const held: Carried = { ids: [], urls: [] };
    const out: Edge[] = [];
    const follow = (label: string, target: SchemaAt) => {
      const next = reader.unwrapNullable(target);
      const settled = memo.get(next.pointer);
      if (settled) return add(held, label, settled);
      if (!index.has(next.pointer)) {
        visit(next);
        const after = memo.get(next.pointer);
        if (after) return add(held, label, after);
        low.set(pointer, Math.min(low.get(pointer)!, low.get(next.pointer)!));
      } else if (onStack.has(next.pointer)) low.set(pointer, Math.min(low.get(pointer)!, index.get(next.pointer)!));
      out.push({ label, to: next.pointer });
    };
    const kind = reader.kind(node);
    if (kind === "array") {
      const items = reader.items(node);
      if (items && isIdSchema(reader, items)) held.ids.push("[]");
      else if (items) follow("[]", items);
    } else if (kind === "object" || kind === undefined) {
      // A `oneOf`/`anyOf` of objects has no single type, but its branches' properties are still carried.
      for (const p of reader.properties(node)) {
        const label = `.${p.name}`;
        if (ID_LIKE.test(p.name) || isIdSchema(reader, p.at)) held.ids.push(label);
        else if (isIdList(reader, p.at)) held.ids.push(`${label}[]`);
        else if (isUrl(reader, p.name, p.at)) held.urls.push(label);
        else follow(label, p.at);
      }
    }
    own.set(pointer, held);
    edges.set(pointer, out);
    if (low.get(pointer) !== index.get(pointer)) return;
    const cycle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      cycle.push(member);
    } while (member !== pointer);
    settleCycle(cycle, own, edges, memo, add);
  };
  visit(start);
  return memo.get(start.pointer)!;
}

/**
 * Settles the nodes of one cycle (or a lone node): what each holds itself and through nodes
 * outside the cycle was gathered while walking; members with nothing of their own take one path
 * to a member that has something, found by walking the cycle's edges backwards from those members.
 */
function settleCycle(
  cycle: string[],
  own: Map<string, Carried>,
  edges: Map<string, Edge[]>,
  memo: Map<string, Carried>,
  add: (into: Carried, label: string, from: Carried) => void,
) {
  const members = new Set(cycle);
  const empty = (c: Carried) => c.ids.length === 0 && c.urls.length === 0;
  const into = new Map<string, { from: string; label: string }[]>();
  for (const member of cycle) {
    for (const edge of edges.get(member)!) {
      if (!members.has(edge.to)) continue;
      into.set(edge.to, [...(into.get(edge.to) ?? []), { from: member, label: edge.label }]);
    }
  }
  const queue = cycle.filter((member) => !empty(own.get(member)!));
  for (let i = 0; i < queue.length; i++) {
    const reached = queue[i]!;
    for (const { from, label } of into.get(reached) ?? []) {
      const carried = own.get(from)!;
      if (!empty(carried)) continue;
      add(carried, label, own.get(reached)!);
      queue.push(from);
    }
  }
  for (const member of cycle) memo.set(member, own.get(member)!);
}

const URL_FORMATS = new Set(["uri", "url", "uri-reference", "iri", "iri-reference", "uri-map"]);

/** Whether a property holds a URL, or a map or list of them (Twilio's `subresource_uris`), by its format or its name. */
export function isUrl(reader: SchemaReader, name: string, at: SchemaAt): boolean {
  const format = reader.unwrapNullable(at).schema["format"];
  return (
    (typeof format === "string" && URL_FORMATS.has(format)) || /(^|_)(url|uri|href|urls|uris|hrefs)$|(Url|Uri|Urls|Uris)$|^self$/.test(name)
  );
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
    joinedIdKind: () => handleIdKind(ctx, specField, resolverKeys(ctx, rule.join!).id),
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

  if (facts.role === "relationship") {
    const data = child(reader.unwrapNullable(specField.at), "properties", "data");
    const many = data !== undefined && reader.kind(data) === "array";
    if (rule.join)
      return ctx.diagnostics.length > errorsBefore
        ? undefined
        : {
            kind: "join",
            ...common,
            resolver: rule.join,
            many,
            via: "relationship",
            keys: resolverKeys(ctx, rule.join),
            textIds: declaresTextIds(ctx, specField, "id"),
            ...linkageTypes(ctx, specField, ctx.resolvers.get(rule.join)?.type),
          };
    if (rule.argument)
      return {
        kind: "related-id",
        ...common,
        many,
        argumentOf: [...rule.argument],
        shorten: rule.shorten === true,
        textIds: declaresTextIds(ctx, specField, "id"),
        ...linkageTypes(ctx, specField, undefined),
      };
    return undefined;
  }
  const kind = facts.kind;
  if (facts.role === "join key") {
    const keys = resolverKeys(ctx, rule.join!);
    return ctx.diagnostics.length > errorsBefore
      ? undefined
      : {
          kind: "join",
          ...common,
          resolver: rule.join!,
          many: kind === "array",
          via: "property",
          keys,
          textIds: declaresTextIds(ctx, specField, keys.id),
          ...(declaresPlainIds(ctx, specField) ? { plainIds: true as const } : {}),
        };
  }
  if (facts.role === "id") return undefined;

  let shape: Shape;
  let cutLevels: number | undefined;
  let legend: LegendModel | undefined;
  if (rule.legend) {
    const coded = {
      codes: reader.enumValues(specField.at) ?? [],
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
    shape =
      legend?.kind === "static" ? { type: "literal", values: [...new Set(legend.entries.map(([, word]) => word))] } : { type: "string" };
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
    ...(format ? { format: format.use } : {}),
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
    textIds: join.textIds,
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

/** Whether the spec declares a join key (or each item of a list of them) an id, and no record. */
function declaresPlainIds(ctx: ClassifyContext, specField: SpecField): boolean {
  const { reader } = ctx;
  let at = reader.unwrapNullable(specField.at);
  if (reader.kind(at) === "array") {
    const items = reader.items(at);
    if (!items) return false;
    at = reader.unwrapNullable(items);
  }
  const kind = reader.kind(at);
  return kind === "string" || kind === "integer" || kind === "number";
}

/**
 * Whether the spec declares a join key's or a relationship's ids text and nothing else: the key
 * itself or its embedded records' `idKey`, or a relationship's `data.id`, through a list. Ids it
 * declares as both text and numbers, or with no type, are read either way.
 */
function declaresTextIds(ctx: ClassifyContext, specField: SpecField, idKey: string): boolean {
  if (!specField.relationship) return handleIdKind(ctx, specField, idKey) === "string";
  const linkage = linkageSchema(ctx, specField);
  const id = linkage && ctx.reader.property(linkage, "id");
  return id !== undefined && ctx.reader.kind(id.at) === "string";
}

/** The schema of one resource identifier in a relationship's `data`. */
function linkageSchema(ctx: ClassifyContext, specField: SpecField): SchemaAt | undefined {
  const { reader } = ctx;
  const data = reader.property(reader.unwrapNullable(specField.at), "data");
  if (!data) return undefined;
  const linkage = reader.unwrapNullable(data.at);
  if (reader.kind(linkage) !== "array") return linkage;
  const items = reader.items(linkage);
  return items && reader.unwrapNullable(items);
}

/**
 * The JSON:API types a relationship's records may have: those the spec declares for `data.type`,
 * and of those, where the records are named through a resolver of a type, only that one. Undefined
 * where neither says: then any text type is read.
 */
function linkageTypes(ctx: ClassifyContext, specField: SpecField, resolverType: string | undefined): { linkageTypes?: string[] } {
  const linkage = linkageSchema(ctx, specField);
  const type = linkage && ctx.reader.property(linkage, "type");
  const declared = type && ctx.reader.enumValues(type.at)?.filter((value) => typeof value === "string");
  if (resolverType !== undefined) return { linkageTypes: declared === undefined || declared.includes(resolverType) ? [resolverType] : [] };
  return declared === undefined ? {} : { linkageTypes: declared };
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
