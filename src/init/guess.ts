import { carriedIdsAndUrls, type SpecField } from "../model/fields.js";
import { specLegend } from "../model/legend.js";
import { withArticle } from "../indefinite-article.js";
import { plural } from "../naming.js";
import { child, type SchemaReader } from "../openapi/schema.js";

/** A field rule as it is written in projector.yaml. */
export type RuleValue = "keep" | { [key: string]: unknown };

export interface Guess {
  rule: RuleValue;
  /** Why: written beside the field as a comment. */
  reason: string;
  /** An uncertain guess is written as a `todo`, which generate refuses until a person decides. */
  sure: boolean;
  /** A resolver the rule joins through, to declare. */
  resolver?: { name: string; type?: string };
}

export interface GuessContext {
  reader: SchemaReader;
  /** The property holding the record's own id (`id`, `gid`, `uuid`, `key`), if it has one. */
  identity: string | undefined;
  /** Tools that take an id of this resource's kind (a path or query parameter identifying one). */
  idTools: string[];
  /** Every kind of record some tool takes an id of (`conversation`), with those tools. */
  takers: ReadonlyMap<string, string[]>;
  /** Label attribute for each JSON:API type whose schema the spec declares. */
  labels: ReadonlyMap<string, string>;
}

const ID_LIKE = /^(id|ids|gid|gids|uuid|uuids)$|(_id|_ids|Id|Ids|_gid|_gids|Gid|_uuid|Uuid)$/;
const IDENTITY_NAMES = ["id", "gid", "uuid"];
/** `conversation_id`, `conversationGid` to `conversation`: the kind of record a foreign key names. */
const kindOfKey = (name: string) =>
  name
    .replace(/(_ids?|_gids?|_uuids?|Ids?|Gids?|Uuids?)$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/ies$/, "y")
    .replace(/(s|x|ch|sh)es$/, "$1")
    .replace(/([^s])s$/, "$1");
const LINK_NAME = /(^|_)(url|href|link|links|self|uri|permalink)$|Url$|Href$|^permalink$/;
const LABEL_NAMES = ["name", "display_name", "full_name", "title", "summary", "label", "handle", "email", "username", "slug"];

/** A list in a comment, short enough to read beside the rule that holds it whole. */
const someOf = (names: readonly string[]) =>
  names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;

/** The attribute most likely to name a record, for a resolver's `label`. */
export function labelAttribute(names: readonly string[]): string | undefined {
  return LABEL_NAMES.find((n) => names.includes(n));
}

const resolverFor = (name: string) =>
  /(^|_)by(_ids?)?$/.test(name)
    ? "users"
    : plural(name.replace(/(_ids?|Ids?|_gids?|Gids?|_uuids?|Uuids?)$/, "").replace(/_reference$/, ""));

/** A guessed role for one field, with the reason a person reviewing it would want. */
export function guessField(field: SpecField, ctx: GuessContext): Guess {
  const { reader } = ctx;
  if (field.base === "record" && field.name === ctx.identity && field.path.length === 1) {
    if (ctx.idTools.length > 0)
      return { rule: { argument: ctx.idTools }, reason: `an id the model passes to ${someOf(ctx.idTools)}`, sure: true };
    return { rule: { drop: "no tool takes this id" }, reason: "no GET operation takes an id of this kind of record", sure: true };
  }
  if (field.relationship) {
    const data = child(reader.unwrapNullable(field.at), "properties", "data");
    const target = data ? (reader.kind(data) === "array" ? reader.items(data) : data) : undefined;
    const type = target ? reader.property(target, "type") : undefined;
    const values = type ? reader.enumValues(type.at) : undefined;
    const targetType = values?.length === 1 && typeof values[0] === "string" ? values[0] : undefined;
    const resolver = resolverFor(targetType ?? field.name);
    const label = targetType ? ctx.labels.get(targetType) : undefined;
    return {
      rule: { join: resolver },
      reason: `relationship to ${targetType ?? "another record"}: resolved to its name${label ? ` (${label})` : ""}`,
      sure: label !== undefined,
      resolver: { name: resolver, ...(targetType ? { type: targetType } : {}) },
    };
  }
  const kind = reader.kind(field.at);
  const schema = reader.unwrapNullable(field.at).schema;
  const values = reader.enumValues(field.at);
  // Box's `is_accessible_via_shared_link` is a boolean about a link, not one.
  if ((LINK_NAME.test(field.name) && kind !== "boolean") || schema["format"] === "uri" || schema["format"] === "url") {
    return { rule: { drop: "a link the model cannot open" }, reason: "a URL", sure: true };
  }
  if (ID_LIKE.test(field.name)) {
    const tools = ctx.takers.get(kindOfKey(field.name)) ?? [];
    const scalar = reader.kind(field.at) === "string" || reader.kind(field.at) === "integer";
    if (tools.length > 0 && scalar && !IDENTITY_NAMES.includes(field.name)) {
      return {
        rule: { argument: tools },
        reason: `the id of ${withArticle(kindOfKey(field.name))}, which the model passes to ${someOf(tools)}`,
        sure: true,
      };
    }
    const resolver = resolverFor(field.name);
    return {
      rule: { join: resolver },
      reason: "looks like a foreign key: join it to a name, make it an argument, or drop it",
      sure: false,
      resolver: { name: resolver },
    };
  }
  if (values && values.length > 0 && values.every((v) => typeof v === "number")) {
    if (specLegend(reader, field.at)) return { rule: { legend: "spec" }, reason: "integer enum; the spec names its codes", sure: true };
    return {
      rule: { drop: "coded values with no words in the spec" },
      reason: `integer enum ${JSON.stringify(values)} with no words in the spec: write \`legend: { ${values.map((v) => `${v}: WORD`).join(", ")} }\` to keep it`,
      sure: false,
    };
  }
  const timestamp = timestampGuess(field.name, kind, schema);
  if (timestamp) return timestamp;
  if (reader.objectLike(field.at)) {
    const properties = reader.properties(field.at).map((p) => p.name);
    if (properties.some((p) => IDENTITY_NAMES.includes(p))) {
      const resolver = resolverFor(field.name);
      return {
        rule: { join: resolver },
        reason: "a reference to another record: joined to its name",
        sure: false,
        resolver: { name: resolver },
      };
    }
    if (properties.some((p) => ID_LIKE.test(p)))
      return { rule: { drop: "holds opaque ids" }, reason: "an object holding ids: classify its parts to keep any of it", sure: false };
    const deeper = keptWholeRefusal(reader, field);
    if (deeper) return deeper;
    return { rule: "keep", reason: properties.length ? "an object, kept whole" : "free-form data", sure: properties.length > 0 };
  }
  if (kind === "array") {
    const items = reader.items(field.at);
    if (items && reader.objectLike(items) && reader.properties(items).some((p) => ID_LIKE.test(p.name))) {
      return {
        rule: { drop: "a list of records with opaque ids" },
        reason: "a list of nested records: keep it only if the model needs them",
        sure: false,
      };
    }
    return keptWholeRefusal(reader, field) ?? { rule: "keep", reason: "a list of values", sure: true };
  }
  if (values && values.length > 0) return { rule: "keep", reason: "an enum of readable values", sure: true };
  if (kind === undefined) return { rule: "keep", reason: "no declared type", sure: false };
  return { rule: "keep", reason: kind === "string" ? "text" : kind, sure: true };
}

/** Generate refuses a value kept whole that carries an id or a URL at any depth, so init never drafts one. */
function keptWholeRefusal(reader: SchemaReader, field: SpecField): Guess | undefined {
  const carried = carriedIdsAndUrls(reader, field.at, field.name);
  const first = carried.ids[0] ?? carried.urls[0];
  if (first === undefined) return undefined;
  return {
    rule: { drop: carried.ids.length ? "holds opaque ids" : "holds links the model cannot open" },
    reason: `kept whole it would carry ${first}: classify its parts to keep any of it`,
    sure: false,
  };
}

const DATE_NAME = /(_on|On|_date|Date)$|^date$/;
const DATETIME_NAME = /(_at|At|_time|Time|timestamp|Timestamp)$|^(time|timestamp)$/;
const EPOCH_TEXT = /\b(unix|epoch|posix)\b/i;
const DURATION_TEXT = /\b(duration|elapsed|how long|took|interval|timeout|ttl)\b/i;

/**
 * `format: date | datetime` for a field that holds a point in time: an ISO string the spec says
 * is one, a string named like one, or an integer of epoch seconds or milliseconds (named like a
 * timestamp, or described as unix time). A duration named `*_time` is left alone.
 */
function timestampGuess(name: string, kind: string | undefined, schema: Record<string, unknown>): Guess | undefined {
  const description = typeof schema["description"] === "string" ? schema["description"] : "";
  if (kind === "string") {
    if (schema["format"] === "date-time") return { rule: { format: "datetime" }, reason: "a timestamp, to the minute in UTC", sure: true };
    if (schema["format"] === "date") return { rule: { format: "date" }, reason: "a date", sure: true };
    if (schema["format"] !== undefined || schema["enum"] !== undefined || DURATION_TEXT.test(description)) return undefined;
    if (DATETIME_NAME.test(name))
      return { rule: { format: "datetime" }, reason: "named like a timestamp: to the minute in UTC", sure: true };
    if (DATE_NAME.test(name)) return { rule: { format: "date" }, reason: "named like a date", sure: false };
    return undefined;
  }
  if (kind !== "integer" || DURATION_TEXT.test(description)) return undefined;
  const described = EPOCH_TEXT.test(description);
  const date = DATE_NAME.test(name);
  if (!described && !date && !DATETIME_NAME.test(name)) return undefined;
  return {
    rule: { format: date ? "date" : "datetime" },
    reason: `an integer timestamp (unix seconds or milliseconds)${described ? "" : ", by its name"}: ${date ? "a date" : "to the minute"} in UTC`,
    sure: described,
  };
}
