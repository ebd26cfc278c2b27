import type { Field, ResourceModel, SourceRef, ValueField } from "../model/types.js";
import { isIdentifier, resultSchemaName } from "../naming.js";
import { IMPORTS_PLACEHOLDER, withRuntimeImports, type RuntimeExports } from "./imports.js";
import { objectSchema, schemaCode } from "./json-schema.js";
import { withArticle } from "../indefinite-article.js";
import { access, commentText, key, literal, typeOfShape } from "./ts.js";

/** Resolver names a resource's fields look up, in field order. */
export function resolversOf(fields: Field[]): string[] {
  const names: string[] = [];
  const visit = (list: Field[]) => {
    for (const field of list) {
      if (field.kind === "join") names.push(field.resolver);
      else if (field.kind === "value" && field.legend?.kind === "resolver") names.push(field.legend.resolver);
      else if (field.kind === "object") visit(field.children);
    }
  };
  visit(fields);
  // Sorted, so the spec's property order never reorders a tool's lookups.
  return [...new Set(names)].sort();
}

/** How many ids one record gives the model in short form, counting a list as one. */
export function shortenedPerRecord(fields: Field[]): number {
  return fields.reduce((count, field) => {
    if (field.kind === "object") return count + shortenedPerRecord(field.children);
    const shortened = (field.kind === "related-id" || (field.kind === "value" && field.argumentOf !== undefined)) && field.shorten;
    return count + (shortened ? 1 : 0);
  }, 0);
}

/** A value kept as it is: checked against its place in the result schema, and trimmed to it. */
const keptWhole = (field: ValueField) =>
  !field.argumentOf &&
  !field.format &&
  !field.legend &&
  (field.shape.type === "array" || field.shape.type === "object" || field.shape.type === "unknown");

/**
 * What each value field's check reads: a module-level legend or enum constant, or for a value kept
 * whole, its schema inside the resource's result schema (one schema serves both the model and the
 * run time). Different field names can fold to the same constant (`foo-bar`, `foo_bar`), or to one
 * the runtime exports (resource `marker`, field `schemas`), so later ones get a number.
 */
function constNames(resource: ResourceModel, resultSchema: string, runtime: RuntimeExports): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>(runtime.constants);
  const visit = (fields: Field[], schema: string) => {
    for (const field of fields) {
      const at = `${schema}.properties${isIdentifier(field.out) ? `.${field.out}` : `[${literal(field.out)}]`}.anyOf[0]`;
      if (field.kind === "object") visit(field.children, field.many ? `${at}.items.anyOf[0]` : at);
      if (field.kind !== "value") continue;
      const base = `${resource.typeName}_${field.name}`
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .replace(/[^A-Za-z0-9]+/g, "_")
        .toUpperCase();
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
      taken.add(name);
      names.set(field.name, keptWhole(field) ? at : name);
    }
  };
  visit(resource.fields, resultSchema);
  return names;
}

export function fieldType(field: Field): string {
  switch (field.kind) {
    case "join":
      return field.many ? "Array<string | Unresolved | Unusable> | null | Unusable" : "string | null | Unresolved | Unusable";
    case "related-id":
      return field.many ? "Array<string | Unusable> | null | Unusable" : "string | null | Unusable";
    case "object": {
      const object = `{ ${field.children.map((c) => `${key(c.out)}: ${fieldType(c)};`).join(" ")} }`;
      return field.many ? `Array<${object} | null | Unusable> | null | Unusable` : `${object} | null | Unusable`;
    }
    case "value": {
      if (field.legend?.kind === "static") return `${typeOfShape(field.shape)} | null | UnknownCode | Unusable`;
      if (field.legend?.kind === "resolver") return "string | null | UnknownCode | Unusable";
      if (field.shape.type === "literal" && !field.format) return `${typeOfShape(field.shape)} | null | UnknownCode | Unusable`;
      return `${field.format ? "string" : typeOfShape(field.shape)} | null | Unusable`;
    }
  }
}

/** The expression reading a field's source value, given the variables holding each base object. */
function sourceExpression(source: SourceRef, bases: Record<SourceRef["base"], string>, depth = source.path.length): string {
  let expression = bases[source.base];
  source.path.slice(0, depth).forEach((segment, i) => {
    expression = i === 0 ? access(expression, segment) : access(`asObject(${expression})`, segment);
  });
  return expression;
}

function valueExpression(constants: Map<string, string>, field: ValueField, value: string): string {
  const args = `ctx, ${literal(field.name)}, ${field.required ? "REQUIRED" : "OPTIONAL"}`;
  if (field.argumentOf)
    return `${field.shape.type === "integer" ? "integerId" : field.shorten ? "shortArgumentId" : "argumentId"}(${value}, ${args})`;
  if (field.format) return `${field.format}(${value}, ${args})`;
  if (field.legend?.kind === "static") return `legend(${value}, ${constants.get(field.name)!}, ${args})`;
  if (field.legend?.kind === "resolver")
    return `legendLookup(${value}, lookups[${literal(field.legend.resolver)}], ${literal(field.legend.resolver)}, ${args})`;
  const shape = field.shape;
  switch (shape.type) {
    case "string":
      return `string(${value}, ${args})`;
    case "number":
    case "integer":
      return `${shape.type}(${value}, ${args})`;
    case "boolean":
      return `boolean(${value}, ${args})`;
    case "literal":
      return `member<${typeOfShape(shape)}>(${value}, ${constants.get(field.name)!}, ${args})`;
    case "array":
    case "object":
    case "unknown":
      return `whole<${typeOfShape(shape)}>(${value}, ${args}, ${constants.get(field.name)!})`;
  }
}

const relatedReader = (field: Field & { kind: "related-id" }) =>
  `${field.shorten ? "shortRelated" : "related"}${field.many ? "Many" : "One"}`;

/** The constant holding how a resolver reads embedded records. */
const recordKeys = (resolver: string) => `RECORD_KEYS[${literal(resolver)}]`;

function projectExpression(constants: Map<string, string>, field: Field, bases: Record<SourceRef["base"], string>): string {
  const depth = field.source.path.length;
  // A part lifted to the top reads through the objects on its way, which may be absent or broken.
  if (depth > 1) {
    const variable = `lift${depth}`;
    const inner = projectValue(constants, field, variable, bases);
    return `lifted(${bases[field.source.base]}, ${literal(field.source.path)}, ctx, ${literal(field.name)}, (${variable}) => ${inner})`;
  }
  return projectValue(constants, field, sourceExpression(field.source, bases), bases);
}

function projectValue(constants: Map<string, string>, field: Field, value: string, bases: Record<SourceRef["base"], string>): string {
  switch (field.kind) {
    case "join": {
      const args = `lookups[${literal(field.resolver)}], ${literal(field.resolver)}`;
      if (field.via === "property")
        return `${field.many ? "refMany" : "refOne"}(${value}, ${args}, ${recordKeys(field.resolver)}, ctx, ${literal(field.name)})`;
      return `${field.many ? "joinMany" : "joinOne"}(relationshipIds(${value}), ${args}, ctx, ${literal(field.name)})`;
    }
    case "related-id":
      return `${relatedReader(field)}(relationshipIds(${value}), ctx, ${literal(field.name)})`;
    case "value":
      return valueExpression(constants, field, value);
    case "object":
      return nestedExpression(constants, field, value, bases);
  }
}

/** Nested objects (and each item of a list of them) project their parts from the object itself, so children read relative to it. */
function nestedExpression(
  constants: Map<string, string>,
  field: Field & { kind: "object" },
  value: string,
  bases: Record<SourceRef["base"], string>,
): string {
  const depth = field.source.path.length;
  const variable = `part${depth}`;
  const parts = field.children.map((child) => {
    const relative = rebase(child, depth);
    return `${key(child.out)}: ${projectExpression(constants, relative, { ...bases, [child.source.base]: variable })}`;
  });
  return `${field.many ? "objects" : "nested"}(${value}, ctx, ${literal(field.name)}, OPTIONAL, (${variable}) => ({ ${parts.join(", ")} }))`;
}

/** The field with `depth` leading segments cut from its source path and its parts'. */
function rebase(field: Field, depth: number): Field {
  const source = { base: field.source.base, path: field.source.path.slice(depth) };
  return field.kind === "object" ? { ...field, source, children: field.children.map((c) => rebase(c, depth)) } : { ...field, source };
}

function legendConstants(constants: Map<string, string>, fields: Field[]): string[] {
  return fields.flatMap((field): string[] => {
    if (field.kind === "object") return legendConstants(constants, field.children);
    if (field.kind !== "value" || field.format || field.argumentOf) return [];
    if (field.legend?.kind === "static") {
      const words = typeOfShape(field.shape);
      return [
        `const ${constants.get(field.name)!} = new Map<unknown, ${words}>([${field.legend.entries.map(([code, word]) => `[${literal(code)}, ${literal(word)}]`).join(", ")}]);`,
      ];
    }
    if (!field.legend && field.shape.type === "literal") {
      return [`const ${constants.get(field.name)!} = new Set<unknown>([${field.shape.values.map(literal).join(", ")}]);`];
    }
    return [];
  });
}

/**
 * Statements that add every id the record's joins need, and every code a looked-up legend needs.
 * The items of a list of objects are walked in a loop; `level` keeps the loops' variables apart.
 */
function collectStatements(fields: Field[], bases: Record<SourceRef["base"], string>, level = 0): string[] {
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch returns for every field kind, which TypeScript checks
  return fields.flatMap((field): string[] => {
    const value = sourceExpression(field.source, bases);
    switch (field.kind) {
      case "join":
        return field.via === "property"
          ? [`addRefs(wanted[${literal(field.resolver)}], ${value}, ${recordKeys(field.resolver)});`]
          : [`addIds(wanted[${literal(field.resolver)}], relationshipIds(${value}));`];
      case "value":
        return field.legend?.kind === "resolver" ? [`addCode(wanted[${literal(field.legend.resolver)}], ${value});`] : [];
      case "object": {
        if (!field.many) return collectStatements(field.children, bases, level);
        const variable = `item${level}`;
        const depth = field.source.path.length;
        const inner = collectStatements(
          field.children.map((child) => rebase(child, depth)),
          { ...bases, [field.source.base]: variable },
          level + 1,
        );
        return inner.length ? [`for (const ${variable} of objectsIn(${value})) {`, ...inner.map((line) => `  ${line}`), `}`] : [];
      }
      case "related-id":
        return [];
    }
  });
}

/** The resolvers a resource joins plain properties through, with how each reads embedded records. */
function recordKeysConstant(fields: Field[]): string[] {
  const keys = new Map<string, { id: string; label?: string }>();
  const visit = (list: Field[]) => {
    for (const field of list) {
      if (field.kind === "join" && field.via === "property") keys.set(field.resolver, field.keys);
      else if (field.kind === "object") visit(field.children);
    }
  };
  visit(fields);
  if (keys.size === 0) return [];
  const entries = [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    `/** How each resolver reads an embedded record: the key of its id, and of the name it carries. */`,
    `const RECORD_KEYS = ${JSON.stringify(Object.fromEntries(entries))} as const;`,
    "",
  ];
}

export function emitResource(resource: ResourceModel, runtime: RuntimeExports): string {
  const resolvers = resolversOf(resource.fields);
  const lookups = resolvers.length > 0 ? `Pick<Lookups, ${resolvers.map(literal).join(" | ")}>` : "Record<never, never>";
  const jsonapi = resource.style === "jsonapi";
  const bases = { record: "root", attributes: jsonapi ? "attributes" : "root", relationships: "relationships" };
  const usesRelationships = JSON.stringify(resource.fields).includes('"base":"relationships"');
  const usesAttributes = JSON.stringify(resource.fields).includes('"base":"attributes"');
  const sections = [
    usesAttributes && jsonapi ? `const attributes = section(root?.["attributes"], "attributes", ctx);` : "",
    usesRelationships ? `const relationships = section(root?.["relationships"], "relationships", ctx);` : "",
  ].filter(Boolean);
  const T = resource.typeName;
  const resultSchema = resultSchemaName(resource.typeName);
  const constants = constNames(resource, resultSchema, runtime);
  const body = resource.fields.map((field) => `${key(field.out)}: ${projectExpression(constants, field, bases)},`);
  const collect = collectStatements(resource.fields, bases);
  const dropped = resource.dropped.map((d) => ` * - \`${commentText(d.name)}\`: ${commentText(d.reason)}`);
  const collectText = collect.join("\n");
  const collectSections = [
    jsonapi && /\battributes\b/.test(collectText) ? `const attributes = asObject(root?.["attributes"]);` : "",
    /\brelationships\b/.test(collectText) ? `const relationships = asObject(root?.["relationships"]);` : "",
  ].filter(Boolean);
  const code = [
    IMPORTS_PLACEHOLDER,
    "",
    `/** ${withArticle(commentText(resource.name))} record as the API sends it. */`,
    `export type ${T}Record = ${resource.schemaName === undefined ? "unknown" : `components["schemas"][${literal(resource.schemaName)}]`};`,
    "",
    `/** ${withArticle(commentText(resource.name))} record as the model reads it.${dropped.length ? `\n *\n * Dropped:\n${dropped.join("\n")}` : ""} */`,
    `export interface ${T}Result { ${resource.fields.map((f) => `${key(f.out)}: ${fieldType(f)};`).join(" ")} }`,
    "",
    `/** JSON Schema of {@link ${T}Result}; its markers are in the tool schemas' \`$defs\`. */`,
    `export const ${resultSchema} = ${schemaCode(objectSchema(resource.fields))} as const;`,
    "",
    `/** The labels projecting ${withArticle(commentText(resource.name))} reads, already resolved. */`,
    `export type ${T}Lookups = ${lookups};`,
    "",
    ...legendConstants(constants, resource.fields),
    "",
    ...recordKeysConstant(resource.fields),
    `/** Projects one record: synchronous and pure; every kept field is present, absence is \`null\`. */`,
    `export function project${T}(record: ${T}Record, ${resolvers.length ? "lookups" : "_lookups"}: ${T}Lookups${resolvers.length ? "" : " = {}"}, options: RecordOptions = {}): ${T}Result {`,
    `  const ctx = context(${literal(resource.name)}, options);`,
    /\broot\b/.test(body.join(" ") + sections.join(" ")) ? `  const root = recordObject(record, ctx);` : `  recordObject(record, ctx);`,
    ...sections.map((s) => `  ${s}`),
    `  return { ${body.join(" ")} };`,
    `}`,
    "",
    ...(collect.length
      ? [
          `/** Adds the ids ${withArticle(commentText(resource.name))} record needs resolved. */`,
          `export function collect${T}(record: unknown, wanted: Readonly<Record<${resolvers.map(literal).join(" | ")}, Set<string>>>): void {`,
          `  const root = asObject(record);`,
          ...collectSections.map((s) => `  ${s}`),
          ...collect.map((s) => `  ${s}`),
          `}`,
          "",
        ]
      : []),
  ].join("\n");
  const others = resource.schemaName === undefined ? [] : [`import type { components } from "../openapi.js";`];
  if (resolvers.length > 0) others.push(`import type { Lookups } from "../resolvers.js";`);
  return withRuntimeImports(code, runtime, others);
}
