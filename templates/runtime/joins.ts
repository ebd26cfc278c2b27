// Related records named through a resolver: JSON:API relationships, and labels in `included`.

import type { Context, FieldRead, LabelsRead } from "./context.js";
import {
  idOf,
  LIST_GOT_ONE,
  ONE_GOT_LIST,
  short,
  TEXT_IDS,
  Unreadable,
  type Ids,
} from "./ids.js";
import { report, unusable } from "./issues.js";
import { asObject } from "./json.js";
import { hold, later, LabelsLater, placesSoFar } from "./labels-later.js";
import type { Unresolved, Unusable } from "./markers.js";
import { clipped, ISSUE_VALUE_CHARACTERS, messageOf } from "./quoting.js";
import type { Labels } from "./resolvers.js";

/**
 * The label of `id`, or an unresolved marker with its issue. While a page is walked before its
 * resolvers answer, an id not yet named leaves a place at `key` of the object being built instead.
 */
export function label(
  id: string,
  labels: Labels,
  resolver: string,
  ctx: Context,
  field: string,
  key: string | number,
): string | Unresolved {
  return labels instanceof LabelsLater
    ? (later(id, labels, ctx, field, key, false) as string)
    : labelGiven(id, labels, resolver, ctx, field);
}

/** The label a resolver gave `id`, or an unresolved marker with its issue. */
function labelGiven(
  id: string,
  labels: Labels,
  resolver: string,
  ctx: Context,
  field: string,
): string | Unresolved {
  const found = labels.get(id);
  if (typeof found === "string") return found;
  const why =
    found instanceof Error
      ? `resolver "${resolver}" failed for it: ${messageOf(found)}`
      : `resolver "${resolver}" has no label for it`;
  report(
    ctx,
    "unresolved",
    field,
    id,
    `${ctx.resource}.${field}: ${clipped(id, ISSUE_VALUE_CHARACTERS)}: ${why}`,
    resolver,
  );
  return { unresolved: short(id, ctx, field) };
}

function labelOrMarker(
  id: string | Unreadable,
  labels: Labels,
  resolver: string,
  ctx: Context,
  field: string,
  key: string | number,
): string | Unresolved | Unusable {
  return typeof id === "string"
    ? label(id, labels, resolver, ctx, field, key)
    : unusable(ctx, field, id.value, id.reason);
}

export function joinOne(
  ids: Ids,
  at: FieldRead & LabelsRead,
): string | null | Unresolved | Unusable {
  return typeof ids === "string"
    ? label(ids, at.labels, at.resolver, at.ctx, at.field, at.key)
    : notOneId(ids, at.ctx, at.field);
}

/** No related record, a list, or an id that could not be read; kept apart so that {@link joinOne} inlines. */
function notOneId(
  ids: Exclude<Ids, string>,
  ctx: Context,
  field: string,
): null | Unusable {
  if (ids === null) return null;
  return Array.isArray(ids)
    ? unusable(ctx, field, ids, ONE_GOT_LIST)
    : unusable(ctx, field, ids.value, ids.reason);
}

export function joinMany(
  ids: Ids,
  { labels, resolver, ctx, field }: FieldRead & Omit<LabelsRead, "key">,
): (string | Unresolved | Unusable)[] | null | Unusable {
  if (ids === null) return null;
  if (ids instanceof Unreadable)
    return unusable(ctx, field, ids.value, ids.reason);
  // A to-many relationship holding one identifier is not read as a list of one: never a silent guess.
  if (typeof ids === "string") return unusable(ctx, field, ids, LIST_GOT_ONE);
  const from = placesSoFar();
  return hold(
    ids.map((id, i) => labelOrMarker(id, labels, resolver, ctx, field, i)),
    from,
  );
}

/**
 * Labels already present in a JSON:API `included` array, per resolver. JSON:API ids are text, so a
 * record whose id is a number labels nothing. An id two records of a type label differently is
 * ambiguous: `included` names it with neither, and the resolver is asked.
 */
export function includedLabels(
  response: unknown,
  sources: readonly { resolver: string; type: string; label: string }[],
): Map<string, Map<string, string>> {
  const result = new Map<string, Map<string, string>>();
  const ambiguous = new Map<string, Set<string>>();
  for (const source of sources) {
    result.set(source.resolver, new Map());
    ambiguous.set(source.resolver, new Set());
  }
  const included = asObject(response)?.["included"];
  if (!Array.isArray(included)) return result;
  for (const item of included) {
    const record = asObject(item);
    if (!record) continue;
    // Any text id the API labels is kept: a relationship's own ids are checked where they are read.
    const id = idOf(record["id"], TEXT_IDS);
    if (id === undefined) continue;
    for (const source of sources) {
      if (record["type"] !== source.type) continue;
      const text = asObject(record["attributes"])?.[source.label];
      // An empty label names nothing: the resolver is asked, as for an id `included` leaves out.
      if (typeof text !== "string" || text === "") continue;
      const labels = result.get(source.resolver)!;
      const unsure = ambiguous.get(source.resolver)!;
      if (unsure.has(id)) continue;
      const earlier = labels.get(id);
      if (earlier === undefined || earlier === text) labels.set(id, text);
      else {
        labels.delete(id);
        unsure.add(id);
      }
    }
  }
  return result;
}
