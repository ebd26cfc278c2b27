import { resolversOf } from "../model/resource-needs.js";
import { leafFields } from "../rules/field.js";
import type { Field, ResourceModel, SourceRef, ValueField } from "../model/types.js";
import { relatedRead, relatedType } from "../rules/argument.js";
import { sendCondition, valueReading } from "../rules/field-rules.js";
import { joinRead, joinType, RECORD_KEYS, recordKeysOf } from "../rules/join.js";
import type { CallScope, ReaderCall, ValueScope } from "../rules/types.js";
import { resourceModule, resultSchemaName } from "../naming.js";
import { objectSchema, schemaCode, shapeSchema } from "./json-schema.js";
import { Locals, ModuleWriter, RESOLVERS_MODULE, SOURCE_TYPES_MODULE } from "./module.js";
import { capitalized, withArticle } from "../indefinite-article.js";
import { access, commentText, key, literal, typeOfShape } from "./ts.js";

/** A value whose reader checks it against its result schema, which a module constant holds for both. */
const keptWhole = (field: ValueField) => valueReading(field).sharesSchema?.(field) === true;

/**
 * What each value field's check reads: a module-level legend or enum constant, or for a value kept
 * whole, the constant holding its schema, which the resource's result schema refers to (one schema
 * serves both the model and the run time).
 */
function constNames(module: ModuleWriter, resource: ResourceModel): Map<string, string> {
  const names = new Map<string, string>();
  for (const field of leafFields(resource.fields)) {
    if (field.kind !== "value") continue;
    const base = `${resource.typeName}_${field.name}`
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .toUpperCase();
    names.set(field.name, module.local(base));
  }
  return names;
}

/** The schema of each value kept whole, as a constant the result schema and the value's check share. */
function wholeSchemaConstants(module: ModuleWriter, constants: Map<string, string>, fields: Field[]): string[] {
  return leafFields(fields).flatMap((field) => {
    if (field.kind !== "value" || !keptWhole(field)) return [];
    return [
      `/** The schema ${commentText(field.name)} is kept whole to. */`,
      `const ${constants.get(field.name)!} = ${schemaCode(shapeSchema(field.shape), () => module.runtimeType("JsonSchema"))} satisfies ${module.runtimeType("JsonSchema")};`,
      "",
    ];
  });
}

/** The result type of a field, naming the runtime's marker types through `module`. */
function fieldType(module: ModuleWriter, field: Field): string {
  const unusable = module.runtimeType("Unusable");
  switch (field.kind) {
    case "join":
      return joinType(field, (name) => module.runtimeType(name));
    case "related-id":
      return relatedType(field, unusable);
    case "object": {
      const object = `{ ${field.children.map((c) => `${key(c.out)}: ${fieldType(module, c)};`).join(" ")} }`;
      return field.many ? `Array<${object} | null | ${unusable}> | null | ${unusable}` : `${object} | null | ${unusable}`;
    }
    case "value": {
      const reading = valueReading(field);
      const markers = (reading.markers?.(field) ?? []).map((name) => module.runtimeType(MARKER_TYPES[name]));
      return [reading.type?.(field) ?? typeOfShape(field.shape), "null", ...markers, unusable].join(" | ");
    }
  }
}

/** The runtime's type of each marker. */
const MARKER_TYPES = { unresolved: "Unresolved", unknown_code: "UnknownCode", unusable: "Unusable" } as const;

/** The variable holding each base object, recorded as read when its name is taken. */
type Bases = Record<SourceRef["base"], () => string>;

/** What writing one function's expressions needs: the module, the field constants, and the base objects. */
interface Scope {
  module: ModuleWriter;
  constants: Map<string, string>;
  bases: Bases;
}

/** The module's runtime names and literals, as the rules write their readers' calls. */
const callScope = (module: ModuleWriter): CallScope => ({ runtime: (name) => module.runtime(name), literal });

/** A rule's reader call, its options named. */
const readerCall = (module: ModuleWriter, field: Field, { reader, typeArgument, value, options }: ReaderCall, required?: boolean) =>
  `${module.runtime(reader)}${typeArgument === undefined ? "" : `<${typeArgument}>`}(${value}, ${readOptions(field, options, required)})`;

/** What a value field's reading writes with: the module, the field's constant, and the values beside it. */
const valueScope = (scope: Scope, field: ValueField): ValueScope => ({
  ...callScope(scope.module),
  constant: scope.constants.get(field.name)!,
  type: typeOfShape,
  sibling: (path) => sourceExpression(scope, { base: field.source.base, path: [...field.source.path.slice(0, -1), ...path] }),
});

const withBase = (scope: Scope, base: SourceRef["base"], variable: string): Scope => ({
  ...scope,
  bases: { ...scope.bases, [base]: () => variable },
});

/** The expression reading a field's source value from the variables holding each base object. */
function sourceExpression(scope: Scope, source: SourceRef, depth = source.path.length): string {
  let expression = scope.bases[source.base]();
  source.path.slice(0, depth).forEach((segment, i) => {
    expression =
      i === 0
        ? access(scope.module, expression, segment)
        : access(scope.module, `${scope.module.runtime("asObject")}(${expression})`, segment);
  });
  return expression;
}

/**
 * A reader's options, named: what the rule gives it first, then the field as the annotation names
 * it, and the record's context. Each reader is always given the same keys in the same order.
 */
function readOptions(field: Field, own: [name: string, code: string][], required?: boolean): string {
  const named = [...own, ["field", literal(field.name)], ...(required === undefined ? [] : [["required", String(required)]])];
  return `{ ${named.map(([name, code]) => `${name}: ${code}`).join(", ")}, ctx }`;
}

function valueExpression(scope: Scope, field: ValueField, value: string): string {
  return readerCall(scope.module, field, valueReading(field).read(field, value, valueScope(scope, field)), field.required);
}

function projectExpression(scope: Scope, field: Field): string {
  const depth = field.source.path.length;
  // A part lifted to the top reads through the objects on its way, which may be absent or broken.
  if (depth > 1) {
    const variable = `lift${depth}`;
    const base = scope.bases[field.source.base]();
    const inner = projectValue(scope, field, variable);
    return `${scope.module.runtime("lifted")}(${base}, ${readOptions(field, [["path", literal(field.source.path)]])}, (${variable}) => ${inner})`;
  }
  return projectValue(scope, field, sourceExpression(scope, field.source));
}

function projectValue(scope: Scope, field: Field, value: string): string {
  switch (field.kind) {
    case "join":
      return readerCall(scope.module, field, joinRead(callScope(scope.module), field, value));
    case "related-id":
      return readerCall(scope.module, field, relatedRead(callScope(scope.module), field, value));
    case "value":
      return valueExpression(scope, field, value);
    case "object":
      return nestedExpression(scope, field, value);
  }
}

/** Nested objects (and each item of a list of them) project their parts from the object itself, so children read relative to it. */
function nestedExpression(scope: Scope, field: Field & { kind: "object" }, value: string): string {
  const depth = field.source.path.length;
  const variable = `part${depth}`;
  const parts = field.children.map((child) => {
    const relative = rebase(child, depth);
    return `${key(child.out)}: ${projectExpression(withBase(scope, child.source.base, variable), relative)}`;
  });
  const keys: [string, string][] = field.keys.length > 0 ? [["keys", literal(field.keys)]] : [];
  return `${scope.module.runtime(field.many ? "objects" : "nested")}(${value}, ${readOptions(field, keys, false)}, (${variable}) => ({ ${parts.join(", ")} }))`;
}

/** The field with `depth` leading segments cut from its source path and its parts'. */
function rebase(field: Field, depth: number): Field {
  const source = { base: field.source.base, path: field.source.path.slice(depth) };
  return field.kind === "object" ? { ...field, source, children: field.children.map((c) => rebase(c, depth)) } : { ...field, source };
}

/** The module constants the value fields' readers read: a legend's words, an enum's members. */
function valueConstants(scope: Scope, fields: Field[]): string[] {
  return leafFields(fields).flatMap((field) => {
    const constant = field.kind === "value" ? valueReading(field).constant?.(field, valueScope(scope, field)) : undefined;
    return constant === undefined ? [] : [constant];
  });
}

/** The resolvers a resource joins plain properties through, with how each reads embedded records. */
function recordKeysConstant(module: ModuleWriter, fields: Field[]): string[] {
  const entries = recordKeysOf(fields);
  if (entries.length === 0) return [];
  return [
    `/** How each resolver reads an embedded record: the key of its id, and of the name it carries. */`,
    `const ${module.local(RECORD_KEYS)} = ${JSON.stringify(Object.fromEntries(entries))} as const;`,
    "",
  ];
}

/**
 * The base objects the projection reads, each declared only when read: JSON:API sections come
 * from the record object, which is checked even when nothing reads it.
 */
function baseLocals(module: ModuleWriter, jsonapi: boolean) {
  const locals: Locals<"root" | "attributes" | "relationships"> = new Locals({
    root: {
      declare: () => `const root = ${module.runtime("recordObject")}(record, ctx);`,
      otherwise: () => `${module.runtime("recordObject")}(record, ctx);`,
    },
    attributes: { declare: () => sectionLocal(module, locals, "attributes") },
    relationships: { declare: () => sectionLocal(module, locals, "relationships") },
  });
  const bases: Bases = {
    record: () => locals.use("root"),
    attributes: () => locals.use(jsonapi ? "attributes" : "root"),
    relationships: () => locals.use("relationships"),
  };
  return { locals, bases };
}

function sectionLocal(
  module: ModuleWriter,
  locals: Locals<"root" | "attributes" | "relationships">,
  section: "attributes" | "relationships",
): string {
  return `const ${section} = ${module.runtime("section")}(${locals.use("root")}?.[${literal(section)}], ${literal(section)}, ctx);`;
}

export function emitResource(resource: ResourceModel): string {
  const module = new ModuleWriter(resourceModule(resource.name).path);
  const resolvers = resolversOf(resource.fields);
  const lookups =
    resolvers.length > 0
      ? `Pick<${module.type(RESOLVERS_MODULE, "Lookups")}, ${resolvers.map(literal).join(" | ")}>`
      : "Record<never, never>";
  const jsonapi = resource.style === "jsonapi";
  const T = resource.typeName;
  const resultSchema = resultSchemaName(resource.typeName);
  // Declared first, so a field constant that folds to its name takes a number instead.
  const recordKeysLines = recordKeysConstant(module, resource.fields);
  const constants = constNames(module, resource);
  const project = baseLocals(module, jsonapi);
  const scope: Scope = { module, constants, bases: project.bases };
  const values = resource.fields.map((field) => projectExpression(scope, field));
  const conditions = resource.fields.map(sendCondition);
  const locals = [...new Set(conditions.filter((condition) => condition !== undefined))];
  const dropped = resource.dropped.map(
    (d) => ` * - \`${commentText(d.name)}\`${d.by === undefined ? "" : ` (by \`${commentText(d.by)}\`)`}: ${commentText(d.reason)}`,
  );
  const components = resource.schemaNames.length > 0 ? module.type(SOURCE_TYPES_MODULE, "components") : undefined;
  const recordType = components ? resource.schemaNames.map((name) => `${components}["schemas"][${literal(name)}]`).join(" | ") : "unknown";
  const code = [
    `/** ${capitalized(withArticle(commentText(resource.name)))} record as the API sends it. */`,
    `export type ${T}Record = ${recordType};`,
    "",
    `/** ${capitalized(withArticle(commentText(resource.name)))} record as the model reads it.${dropped.length ? `\n *\n * Dropped:\n${dropped.join("\n")}` : ""} */`,
    `export interface ${T}Result { ${resource.fields.map((f, i) => `${key(f.out)}${conditions[i] ? "?" : ""}: ${fieldType(module, f)};`).join(" ")} }`,
    "",
    ...wholeSchemaConstants(module, constants, resource.fields),
    `/** JSON Schema of {@link ${T}Result}; its markers are in the tool schemas' \`$defs\`. */`,
    `export const ${resultSchema} = ${schemaCode(
      objectSchema(resource.fields, (field) => (field.kind === "value" && keptWhole(field) ? constants.get(field.name) : undefined)),
      () => module.runtimeType("JsonSchema"),
    )} satisfies ${module.runtimeType("JsonSchema")};`,
    "",
    `/** The labels projecting ${withArticle(commentText(resource.name))} reads, already resolved. */`,
    `export type ${T}Lookups = ${lookups};`,
    "",
    ...valueConstants(scope, resource.fields),
    "",
    ...recordKeysLines,
    `/** Projects one record: synchronous and pure; every kept field is present, absence is \`null\`. */`,
    `export function project${T}(record: ${T}Record, ${resolvers.length ? "lookups" : "_lookups"}: ${T}Lookups${resolvers.length ? "" : " = {}"}, options: ${module.runtimeType("RecordOptions")} = {}): ${T}Result {`,
    `  const ctx = ${module.runtime("context")}(${literal(resource.name)}, options);`,
    ...locals.map((condition) => `  const ${condition.local} = ${condition.test};`),
    ...project.locals.statements().map((s) => `  ${s}`),
    `  return { ${resource.fields.map((field, i) => (conditions[i] ? `...(${conditions[i].local} ? { ${key(field.out)}: ${values[i]} } : {}),` : `${key(field.out)}: ${values[i]},`)).join(" ")} };`,
    `}`,
    "",
  ].join("\n");
  return module.render(code);
}
