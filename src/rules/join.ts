// `join: resolver`: a relationship or a foreign key (an id, an embedded record, or a list of either)
// named through a resolver.

import { isIdentifier } from "../naming.js";
import { didYouMean } from "../suggest.js";
import { type Field, type FieldCommon, type JoinField, leafFields, marker, NULL } from "./field.js";
import { idsOption, relationshipIds } from "./ids.js";
import { textAt } from "./written.js";
import type { CallScope, IdFacts, ReaderCall, ResolverFacts, Rule, RuleProblem, Schema, SpecFacts } from "./types.js";

export const JOIN: Rule = {
  keys: ["join"],
  docsRows: [
    [
      "`{ join: resolver }`",
      'a relationship or foreign key (an id, an embedded record such as `{ "gid": "12345", "name": "Greg Sanchez" }`, or a list of either) resolved to a name: the one the embedded record carries under the resolver\'s `label`, else the resolver\'s; to-many gives an array',
    ],
  ],
  parse(written, problem) {
    const join = textAt(written, "join", problem, [
      "`join` must name a resolver",
      "write `join: users` with a resolver declared under resolvers",
    ]);
    return join === undefined ? {} : { join };
  },
  check(rule, field, problem) {
    if (rule.join !== undefined && (field.role === "relationship" || field.role === "join key"))
      undeclaredResolver(rule.join, "join", field, problem);
  },
};

/** A resolver named at `key` (`join`, `legend`) that the annotation does not declare. */
export function undeclaredResolver(resolver: string, key: "join" | "legend", field: SpecFacts, problem: RuleProblem): void {
  if (field.resolvers.includes(resolver)) return;
  const example =
    key === "legend"
      ? `\`${resolver}: {}\``
      : `\`${resolver}: { type: user, label: name }\` (or \`${resolver}: { label: name, id: gid }\` for plain REST)`;
  problem(
    "PRJ026",
    `resolver "${resolver}" is not declared${didYouMean(resolver, field.resolvers)}`,
    `declare it under \`resolvers:\`, e.g. ${example}`,
    key,
  );
}

/** A join's field: a relationship's ids, or a join key's ids or embedded records, named through `resolver`. */
export function joinField(common: FieldCommon, resolver: string, declared: ResolverFacts, relationship: boolean, ids: IdFacts): JoinField {
  const { keys } = declared;
  const property = relationship
    ? linkageTypes(ids, declared.type)
    : {
        ...(ids.idKind(keys.id) === "integer" ? { integerIds: true as const } : {}),
        ...(ids.plainIds() ? { plainIds: true as const } : {}),
      };
  const via = relationship ? "relationship" : "property";
  return { kind: "join", ...common, resolver, many: ids.many, via, keys, textIds: ids.textIds(relationship ? "id" : keys.id), ...property };
}

/**
 * The JSON:API types a relationship's records may have: those the spec declares for `data.type`,
 * and of those, where the records are named through a resolver of a type, only that one. Undefined
 * where neither says: then any text type is read.
 */
export function linkageTypes(ids: IdFacts, resolverType: string | undefined): { linkageTypes?: string[] } {
  const declared = ids.declaredTypes();
  if (resolverType !== undefined) return { linkageTypes: declared === undefined || declared.includes(resolverType) ? [resolverType] : [] };
  return declared === undefined ? {} : { linkageTypes: declared };
}

/** The resolver's labels a join or looked-up legend reads, and the key its label is filled in at later. */
export function labelsOptions(scope: CallScope, resolver: string, key?: string): [string, string][] {
  const labels = isIdentifier(resolver) ? `lookups.${resolver}` : `lookups[${scope.literal(resolver)}]`;
  return [
    ["labels", labels],
    ["resolver", scope.literal(resolver)],
    ...(key === undefined ? [] : [["key", scope.literal(key)] as [string, string]]),
  ];
}

/** The module constant holding how each resolver reads embedded records. */
export const RECORD_KEYS = "RECORD_KEYS";

const recordKeys = (scope: CallScope, resolver: string) =>
  isIdentifier(resolver) ? `${RECORD_KEYS}.${resolver}` : `${RECORD_KEYS}[${scope.literal(resolver)}]`;

/** A join's reader: a relationship's ids, or a foreign key's ids or embedded records, named through the resolver. */
export function joinRead(scope: CallScope, field: JoinField, value: string): ReaderCall {
  // A label the resolvers give after the walk is filled in at this key of the object built here.
  const labels = labelsOptions(scope, field.resolver, field.many ? undefined : field.out);
  if (field.via === "relationship")
    return { reader: field.many ? "joinMany" : "joinOne", value: relationshipIds(scope, field, value), options: labels };
  const keys: [string, string][] = field.plainIds ? [] : [["keys", recordKeys(scope, field.resolver)]];
  return { reader: field.many ? "refMany" : "refOne", value, options: [idsOption(scope, field), ...labels, ...keys] };
}

/** How each resolver a resource joins plain properties through reads an embedded record, by resolver. */
export function recordKeysOf(fields: readonly Field[]): [resolver: string, keys: JoinField["keys"]][] {
  const keys = new Map<string, JoinField["keys"]>();
  for (const field of leafFields(fields))
    if (field.kind === "join" && field.via === "property" && !field.plainIds) keys.set(field.resolver, field.keys);
  return [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A join's result type: a name, or a list of names, each unresolved or unusable where it could not be read; `type` names the runtime's. */
export function joinType(field: JoinField, type: (name: "Unresolved" | "Unusable") => string): string {
  const unusable = type("Unusable");
  const unresolved = type("Unresolved");
  return field.many ? `Array<string | ${unresolved} | ${unusable}> | null | ${unusable}` : `string | null | ${unresolved} | ${unusable}`;
}

/** A join's result schema, as {@link joinType}. */
export function joinSchema(field: JoinField): Schema {
  return field.many
    ? {
        anyOf: [
          { type: "array", items: { anyOf: [{ type: "string" }, marker("unresolved"), marker("unusable")] } },
          NULL,
          marker("unusable"),
        ],
      }
    : { anyOf: [{ type: "string" }, NULL, marker("unresolved"), marker("unusable")] };
}
