// `argument: [tools]` with `shorten`: an id the model can pass to those tools, whole or in short form.

import { type FieldCommon, marker, NULL, type RelatedIdField } from "./field.js";
import { idsOption, refusedOnIds, relationshipIds } from "./ids.js";
import { linkageTypes } from "./join.js";
import type { CallScope, IdFacts, KeepRule, ReaderCall, Rule, Schema } from "./types.js";

export const ARGUMENT: Rule = {
  keys: ["argument", "shorten"],
  docsRows: [
    [
      "`{ argument: [tools], shorten: true }`",
      "an id the model can pass to those tools (of the annotation, or of your own; a name a letter or two from one of the annotation's is a warning, PRJ092); `shorten` cuts a long opaque id (`tkt_9f3a71c4-2d18-…` to `tkt_9f3a71c4`, `ch_3KpXb2Lkd9cQ2Tfa1B5e7LmN` to `ch_3KpXb2Lk`; the rule is below), longer where two ids in one result would collide",
    ],
  ],
  parse(written, problem) {
    const parsed: { argument?: string[]; shorten?: boolean } = {};
    const argument = written["argument"];
    if (argument !== undefined) {
      const tools = typeof argument === "string" ? [argument] : argument;
      if (Array.isArray(tools) && tools.length === 0)
        problem(
          ["argument"],
          "`argument` must name at least one tool, and names none",
          "list the tools that take this id, `argument: [get_ticket]`, or remove `argument`",
        );
      else if (Array.isArray(tools) && tools.every((tool) => typeof tool === "string" && tool !== "")) parsed.argument = tools as string[];
      else problem(["argument"], "`argument` must list the tools that take this id", "write `argument: [get_ticket, add_comment]`");
    }
    const shorten = written["shorten"];
    if (shorten !== undefined) {
      if (typeof shorten === "boolean") parsed.shorten = shorten;
      else problem(["shorten"], "`shorten` must be true or false", "write `shorten: true`");
    }
    return parsed;
  },
  check(rule, field, problem) {
    if (field.role === "relationship" || field.role === "join key") {
      // Beside `argument`, a relationship's or a join key's id is kept, and may be shortened.
      if (rule.shorten !== undefined && !rule.argument) refusedOnIds(field.role, "shorten", problem);
      if (field.role === "join key" && rule.shorten && rule.argument && field.joinedIdKind() === "integer")
        problem("PRJ029", "`shorten` applies to string ids only, and this join key's ids are integers", "remove `shorten`", "shorten");
      return;
    }
    if (field.role !== "value") return;
    if (rule.shorten && !rule.argument)
      problem("PRJ029", "`shorten` applies to argument ids only", "add `argument: [tool]` or remove `shorten`", "shorten");
    if (rule.shorten && field.kind !== "string") problem("PRJ029", "`shorten` applies to string ids only", "remove `shorten`", "shorten");
  },
  // An id the model passes back is read as one, whatever else its rule says of the value: an
  // integer stays one, and any other id is text, not one of an enum's codes.
  value: {
    reads: (field) => field.argumentOf !== undefined,
    // Its reader by the type the spec declares: an integer, text, or either.
    read({ shape, shorten }, value) {
      if (shape.type === "integer") return { reader: "integerId", value, options: [] };
      const text = shape.type === "string" || (shape.type === "literal" && shape.values.every((v) => typeof v === "string"));
      const reader = text ? "ArgumentId" : "TextOrNumberId";
      return { reader: shorten ? `short${reader}` : reader[0]!.toLowerCase() + reader.slice(1), value, options: [] };
    },
    type: (field) => (field.shape.type === "integer" ? "number" : "string"),
    schema: (field) => ({ type: field.shape.type === "integer" ? "integer" : "string" }),
  },
  note: (field) =>
    (field.kind === "value" || field.kind === "related-id") && field.argumentOf ? `Pass to ${field.argumentOf.join(", ")}.` : undefined,
};

/**
 * The reader of a relationship's ids kept as arguments, or of the id kept beside the name a plain
 * property joins to: the property's id, or its embedded record's.
 */
export function relatedRead(scope: CallScope, field: RelatedIdField, value: string): ReaderCall {
  const { property } = field;
  if (!property)
    return {
      reader: `${field.shorten ? "shortRelated" : "related"}${field.many ? "Many" : "One"}`,
      value: relationshipIds(scope, field, value),
      options: [],
    };
  return {
    reader: `${property.integer ? "integerRefId" : "refId"}${field.many ? "Many" : "One"}`,
    value,
    options: [
      ...(property.keys === null ? [] : [["idKey", scope.literal(property.keys.id)] as [string, string]]),
      ...(property.integer ? [] : [idsOption(scope, field), ["shorten", String(field.shorten)] as [string, string]]),
    ],
  };
}

/** A relationship's ids kept as arguments to `rule.argument`'s tools. */
export function relatedField(common: FieldCommon, rule: KeepRule & { argument: readonly string[] }, ids: IdFacts): RelatedIdField {
  return {
    kind: "related-id",
    ...common,
    many: ids.many,
    argumentOf: [...rule.argument],
    shorten: rule.shorten === true,
    textIds: ids.textIds("id"),
    ...linkageTypes(ids, undefined),
  };
}

/** The result type of related ids kept as arguments: text, or the integers a plain join key holds; `unusable` names the runtime's marker type. */
export function relatedType(field: RelatedIdField, unusable: string): string {
  const id = field.property?.integer ? "number" : "string";
  return field.many ? `Array<${id} | ${unusable}> | null | ${unusable}` : `${id} | null | ${unusable}`;
}

/** The result schema of related ids kept as arguments, as {@link relatedType}. */
export function relatedSchema(field: RelatedIdField): Schema {
  const id = { type: field.property?.integer ? "integer" : "string" };
  return field.many
    ? { anyOf: [{ type: "array", items: { anyOf: [id, marker("unusable")] } }, NULL, marker("unusable")] }
    : { anyOf: [id, NULL, marker("unusable")] };
}
