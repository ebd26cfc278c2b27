// `id_as`: for a join key that is also an argument, the output name of the id kept beside the
// joined name (the handle the model passes back).

import { textAt } from "./written.js";
import type { JoinField, RelatedIdField } from "./field.js";
import type { KeepRule, Rule } from "./types.js";

export const HANDLE: Rule = {
  keys: ["id_as"],
  docsRows: [
    [
      "`{ join: users, argument: [get_user] }`",
      "a name and a handle: the resolver's label under the field's output name, and beside it, under `<name>_id`, the id the model passes to those tools (with `shorten: true`, in short form; an integer id stays an integer); a list gives a list of each",
    ],
    ["`id_as: assignee_ref`", "beside `join` and `argument`: the output name of that id instead of `<name>_id`; anywhere else PRJ029"],
  ],
  parse(written, problem) {
    const idAs = textAt(written, "id_as", problem, [
      "`id_as` must be a non-empty name",
      "write the output name of the id, e.g. `id_as: assignee_ref`",
    ]);
    return idAs === undefined ? {} : { id_as: idAs };
  },
  check(rule, field, problem) {
    if (rule.id_as !== undefined && !(rule.join && rule.argument))
      problem(
        "PRJ029",
        "`id_as` names the id kept beside a joined name, and this field is not both a join key and an argument",
        `write \`${field.name}: { join: RESOLVER, argument: [tool], id_as: ${rule.id_as} }\`, or remove \`id_as\``,
        "id_as",
      );
  },
};

/**
 * The id kept beside a joined name (`assignee_id` beside `assignee`), read from the same value, for
 * a join key that is also an argument: the model reads the name and passes the id. `integer`: a
 * plain join key's ids are integers, which stay integers and are never shortened.
 */
export function handleField(rule: KeepRule & { argument: readonly string[] }, join: JoinField, integer: boolean): RelatedIdField {
  return {
    kind: "related-id",
    out: rule.id_as ?? `${join.out}_id`,
    name: join.name,
    source: join.source,
    description: `The id of ${join.many ? "each record" : "the record"} named in ${join.out}.`,
    ...(join.detail ? { detail: join.detail } : {}),
    many: join.many,
    argumentOf: [...rule.argument],
    shorten: rule.shorten === true && !integer,
    beside: join.out,
    textIds: join.textIds,
    // Read with the join's types: an identifier the join refuses gives no id to pass back either.
    ...(join.linkageTypes === undefined ? {} : { linkageTypes: join.linkageTypes }),
    ...(join.via === "property" ? { property: { keys: join.plainIds ? null : { id: join.keys.id }, integer } } : {}),
  };
}
