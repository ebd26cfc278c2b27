import type { SpecField } from "../model/fields.js";
import { carriedIdsAndUrls, ID_LIKE, ID_SUFFIX, isIdList, isIdSchema, isUrl } from "../model/spec-ids.js";
import { classifiedWhole } from "../rules/keep.js";
import { carriedCredential, credentialReason, isCredential } from "../model/credentials.js";
import { specLegend } from "../model/legend.js";
import { plural, singular } from "../naming.js";
import { child, members, type SchemaAt, type SchemaReader } from "../openapi/schema.js";

/** A field rule as it is written in projector.yaml. */
export type RuleValue = "keep" | { [key: string]: unknown };

/** A resolver a guessed join goes through, as it is declared under `resolvers:`. */
export interface ResolverGuess {
  name: string;
  type?: string;
  /** The key of the name in the records the API embeds (`login`), which makes asking the resolver needless. */
  label?: string;
  /** The key of their id, where it is not `id`. */
  id?: string;
  /** Why the label: written beside the resolver. */
  reason?: string;
}

export interface Guess {
  rule: RuleValue;
  /** Why: written beside the field as a comment. */
  reason: string;
  /** An uncertain guess is written as a `todo`, which generate refuses until a person decides. */
  sure: boolean;
  /** A resolver the rule joins through, to declare. */
  resolver?: ResolverGuess;
  /** Set where the field is classified by its parts instead: each part's dotted name under the field, with its guess. */
  parts?: [name: string, guess: Guess][];
}

/** The tools a field holding an id is an argument of, and how sure the match of field to parameter is. */
export interface ArgumentGuess {
  tools: string[];
  sure: boolean;
  reason: string;
}

export interface GuessContext {
  reader: SchemaReader;
  /** The property holding the record's own id (`id`, `gid`, `uuid`, `key`, `sid`), if it has one. */
  identity: string | undefined;
  /**
   * The record's own fields that tools take, matched to the tools' parameters by name and schema
   * (`number` for `{issue_number}`, `sid` for `{Sid}`); a field that is a record's identity and is
   * taken by no tool can carry a `todo` here saying which tools take what instead.
   */
  arguments: ReadonlyMap<string, Guess>;
  /** The tools that take the id a field holds, by its name (`ticket_id`) or by the schema of the parameter. */
  takersOf(field: SpecField): ArgumentGuess | undefined;
  /** Label attribute for each JSON:API type whose schema the spec declares. */
  labels: ReadonlyMap<string, string>;
  /** The record's name, which says what its own parts hold: an `api_keys` record's `key` is one. */
  record: string;
  /** The list the record holds when it answers about its collection's records (`agents` for `/fleet/agents`), none of them. */
  holdsItsCollection: string | undefined;
}

/** The keys an embedded record keeps its own id under. */
const IDENTITY_KEYS = ["id", "gid", "uuid", "sid"];

/** `conversation_id`, `conversationGid` to `conversation`: the kind of record a foreign key names. */
export const kindOfKey = (name: string): string =>
  singular(
    name
      .replace(ID_SUFFIX, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase(),
  );
const LINK_NAME = /(^|[_-])(url|href|link|links|self|uri|permalink|URL|URI|HREF)$|Url$|Href$|[a-z0-9](URL|URI|HREF)$|^permalink$/;
const LABEL_NAMES = ["name", "display_name", "full_name", "title", "summary", "label", "login", "handle", "email", "username", "slug"];
/** Parts of an object or list are classified this many levels below the field at most, and this many entries in all. */
const PART_DEPTH = 3;
const MOST_PARTS = 24;
/** Names of list members that say nothing of what the items are: a join through `tracks.items` is named for `tracks`. */
const GENERIC_MEMBERS = new Set(["items", "data", "results", "entries", "nodes", "values", "records", "list"]);

/** A list in a comment, short enough to read beside the rule that holds it whole. */
export const someOf = (names: readonly string[]): string =>
  names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;

/** The attribute most likely to name a record, for a resolver's `label`. */
export function labelAttribute(names: readonly string[]): string | undefined {
  return LABEL_NAMES.find((n) => names.includes(n));
}

const resolverFor = (name: string) =>
  /(^|_)by(_ids?)?$/.test(name) ? "users" : plural(name.replace(ID_SUFFIX, "").replace(/_reference$/, ""));

/** The name a join through a field's resolver takes: the field's, or its list's where the field only says "items". */
function resolverName(field: SpecField, reader: SchemaReader): string {
  const named = [...field.path].reverse().find((segment) => !GENERIC_MEMBERS.has(segment));
  if (named !== undefined) return resolverFor(named);
  // A page's `items` say nothing: the schema of what they hold does (`SimplifiedPlaylistObject`).
  const items = reader.kind(field.at) === "array" ? reader.items(field.at) : field.at;
  const schema = items ? (reader.refName(items) ?? reader.refName(reader.unwrapNullable(items))) : undefined;
  const kind = schema
    ?.replace(/[_-]?(Resource[_-]?Object|Resource|Object|Data)$/i, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toLowerCase();
  return resolverFor(kind || field.name);
}

/** An object schema that is a record of its own: the key of its id and of its name, where it has them. */
interface Embedded {
  id?: string;
  label?: string;
}

/**
 * The id and the name an embedded record carries. The name is the first label-like text the
 * record always has (required, never null), else one every branch of a `oneOf` has (PagerDuty's
 * reference or full record both have `summary`), else the first there is.
 */
function embeddedRecord(reader: SchemaReader, at: SchemaAt): Embedded {
  const properties = reader.properties(at);
  const scalar = (p: { at: SchemaAt }) => ["string", "integer"].includes(reader.kind(p.at) ?? "");
  const id = IDENTITY_KEYS.find((key) => properties.some((p) => p.name === key && scalar(p)));
  const labels = LABEL_NAMES.flatMap((name) => properties.filter((p) => p.name === name && reader.kind(p.at) === "string"));
  const branches = ["oneOf", "anyOf"].flatMap((key) => members(reader.unwrapNullable(at), key));
  const inEveryBranch = (name: string) => branches.every((branch) => reader.property(branch, name) !== undefined);
  const label =
    labels.find((p) => p.required && !reader.nullable(p.at)) ??
    labels.find((p) => branches.length > 0 && inEveryBranch(p.name)) ??
    labels[0];
  return { ...(id !== undefined ? { id } : {}), ...(label ? { label: label.name } : {}) };
}

/** How many more parts one field's classification may look at: a schema wide at every level stops it early. */
interface Budget {
  left: number;
}

/** A guessed role for one field, with the reason a person reviewing it would want; a part of one at `depth` below it. */
export function guessField(field: SpecField, ctx: GuessContext, depth = 0, budget: Budget = { left: MOST_PARTS * 2 }): Guess {
  const { reader } = ctx;
  // A credential is never shown, whatever else it could be: an argument, a join key, text.
  const holder = field.path.at(-2) ?? ctx.record;
  if (!field.relationship && isCredential(reader, field.name, field.at, holder))
    return {
      rule: { drop: "a credential, never shown to the model" },
      reason: credentialReason(reader, field.name, field.at, holder),
      sure: true,
    };
  const top = field.path.length === 1;
  const decided = top ? ctx.arguments.get(field.name) : undefined;
  if (decided) return decided;
  if (top && field.base === "record" && field.name === ctx.identity)
    return {
      rule: { drop: "no tool takes this id" },
      reason:
        ctx.holdsItsCollection === undefined
          ? "no GET operation takes an id of this kind of record"
          : `the id of the answer around the \`${ctx.holdsItsCollection}\` list, not of one of them: no GET operation takes it`,
      sure: true,
    };
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
  const inner = reader.unwrapNullable(field.at);
  const kind = reader.kind(inner);
  const schema = inner.schema;
  // Box's `is_accessible_via_shared_link` is a boolean about a link, not one.
  if (
    kind !== "boolean" &&
    (LINK_NAME.test(field.name) || isUrl(reader, field.name, field.at) || urlMap(reader, field.at) || linkByWords(kind, schema))
  ) {
    return { rule: { drop: "a link the model cannot open" }, reason: kind === "object" ? "a map of URLs" : "a URL", sure: true };
  }
  const links = linksIn(reader, field.at);
  if (links.length > 0)
    return { rule: { drop: "a link the model cannot open" }, reason: `holds nothing but links (${someOf(links)})`, sure: true };
  const scalarOrList = kind !== "object" && !reader.objectLike(inner);
  if (scalarOrList && (ID_LIKE.test(field.name) || isIdSchema(reader, field.at) || isIdList(reader, inner)))
    return foreignKey(field, kind, ctx);
  const coded = codedGuess(reader, field.at);
  if (coded) return coded;
  const timestamp = timestampGuess(field.name, kind, schema);
  if (timestamp) return timestamp;
  if (reader.objectLike(inner)) return objectGuess(field, ctx, depth, budget);
  if (kind === "array") return listGuess(field, ctx, depth, budget);
  const values = reader.enumValues(field.at);
  if (values && values.length > 0) return { rule: "keep", reason: "an enum of readable values", sure: true };
  if (kind === undefined) return { rule: "keep", reason: "no declared type", sure: false };
  return { rule: "keep", reason: kind === "string" ? "text" : kind, sure: true };
}

/** Text its description calls a URL (Spotify's paging `next`: "URL to the next page of items"). */
function linkByWords(kind: string | undefined, schema: Record<string, unknown>): boolean {
  const description = typeof schema["description"] === "string" ? schema["description"] : "";
  return kind === "string" && /^\s*(the |an? )?(full |absolute |relative )?(url|uri|link|href)\b/i.test(description);
}

/** The properties of an object, or of a list's items, all of them links (PokeAPI's `evolution_chain: { url }`); none where one is not. */
function linksIn(reader: SchemaReader, at: SchemaAt): string[] {
  const items = reader.kind(at) === "array" ? reader.items(at) : at;
  if (!items || !reader.objectLike(items)) return [];
  const properties = reader.properties(items);
  return properties.every((p) => isUrl(reader, p.name, p.at) || LINK_NAME.test(p.name)) ? properties.map((p) => p.name) : [];
}

/** A free-form map whose values are URLs (`additionalProperties: { format: uri }`). */
function urlMap(reader: SchemaReader, at: SchemaAt): boolean {
  const values = child(reader.unwrapNullable(at), "additionalProperties");
  return values !== undefined && isUrl(reader, "", values);
}

/** An id of another record: an argument of the tools that take it, else a join to guess at. */
function foreignKey(field: SpecField, kind: string | undefined, ctx: GuessContext): Guess {
  const { reader } = ctx;
  const scalar = kind === "string" || kind === "integer";
  const taken = scalar && !IDENTITY_KEYS.includes(field.name) ? ctx.takersOf(field) : undefined;
  if (taken) return { rule: { argument: taken.tools }, reason: taken.reason, sure: taken.sure };
  // Joined through a resolver nobody has written, every value would read `{ "unresolved": ... }`: dropped until someone writes one.
  const what = ID_LIKE.test(field.name) ? "named like" : `written with the spec's id schema (${schemaWords(reader, field.at)}) as`;
  return {
    rule: { drop: scalar ? "no tool takes this id" : "no tool takes these ids" },
    reason: `${what} ${scalar ? "an id" : "a list of ids"} no drafted tool takes: write a resolver and \`join: ${resolverName(field, reader)}\` to name ${scalar ? "it" : "them"}, or keep the drop`,
    sure: false,
  };
}

/** `$ref SnowflakeType`, `pattern ^CA[0-9a-fA-F]{32}$`, `format uuid`: what makes a value an id, for a reason. */
function schemaWords(reader: SchemaReader, at: SchemaAt): string {
  const items = reader.kind(at) === "array" ? reader.items(at) : undefined;
  const node = items ?? at;
  const ref = reader.refName(node) ?? reader.refName(reader.unwrapNullable(node));
  if (ref !== undefined) return ref;
  const schema = reader.unwrapNullable(node).schema;
  if (typeof schema["pattern"] === "string") return `pattern ${schema["pattern"]}`;
  return `format ${String(schema["format"])}`;
}

/** An integer enum: expanded with the spec's words where it gives them, else dropped until someone writes them. */
function codedGuess(reader: SchemaReader, at: SchemaAt): Guess | undefined {
  const values = reader.enumValues(at);
  if (!values?.length || !values.every((v) => typeof v === "number")) return undefined;
  if (specLegend(reader, at)) return { rule: { legend: "spec" }, reason: "integer enum; the spec names its codes", sure: true };
  return {
    rule: { drop: "coded values with no words in the spec" },
    reason: `integer enum ${JSON.stringify(values)} with no words in the spec: write \`legend: { ${values.map((v) => `${v}: WORD`).join(", ")} }\` to keep it`,
    sure: false,
  };
}

function objectGuess(field: SpecField, ctx: GuessContext, depth: number, budget: Budget): Guess {
  const { reader } = ctx;
  const properties = reader.properties(field.at).map((p) => p.name);
  const embedded = embeddedRecord(reader, field.at);
  if (embedded.id !== undefined) return joinGuess(reader, field, embedded, false);
  // Spotify's `external_ids` (`isrc`, `upc`): named like ids, and generate takes no object by that name whole.
  if (ID_LIKE.test(field.name))
    return {
      rule: { drop: "holds opaque ids" },
      reason: `an object named like ids (${someOf(properties)}): classify its parts to keep any of it`,
      sure: false,
    };
  const refusal = keptWholeRefusal(reader, field);
  if (!refusal)
    return { rule: "keep", reason: properties.length ? "an object, kept whole" : "free-form data", sure: properties.length > 0 };
  return partsGuess(field, ctx, depth, budget, false) ?? refusal;
}

function listGuess(field: SpecField, ctx: GuessContext, depth: number, budget: Budget): Guess {
  const { reader } = ctx;
  const items = reader.items(field.at);
  // Twilio's `media: { items: {} }` holds whatever the API puts there: ids and links as likely as not.
  if (items && reader.kind(items) === undefined && !reader.objectLike(items))
    return { rule: "keep", reason: "a list of values of no declared type", sure: false };
  if (!items || !reader.objectLike(items))
    return keptWholeRefusal(reader, field) ?? { rule: "keep", reason: "a list of values", sure: true };
  const embedded = embeddedRecord(reader, items);
  if (embedded.id !== undefined && embedded.label !== undefined) return joinGuess(reader, field, embedded, true);
  const refusal = keptWholeRefusal(reader, field);
  if (!refusal) return { rule: "keep", reason: "a list of values", sure: true };
  const parts = partsGuess(field, ctx, depth, budget, true);
  if (parts) return parts;
  if (embedded.id !== undefined)
    return {
      rule: { drop: "a list of records with opaque ids" },
      reason: "a list of nested records: keep it only if the model needs them",
      sure: false,
    };
  return refusal;
}

/** An embedded record, or a list of them, joined to its name: the one it carries where it has one. */
function joinGuess(reader: SchemaReader, field: SpecField, embedded: Embedded, many: boolean): Guess {
  const resolver = resolverName(field, reader);
  // Joined through a resolver nobody has written, every value would read `{ "unresolved": ... }`.
  if (embedded.label === undefined)
    return {
      rule: { drop: "a reference to another record with no name in it" },
      reason: `a reference to another record that carries no name: write a resolver and \`join: ${resolver}\` to name it, or keep the drop`,
      sure: false,
    };
  return {
    rule: { join: resolver },
    reason: `${many ? "embedded records that carry" : "an embedded record that carries"} ${many ? "their" : "its"} name: joined to it`,
    sure: true,
    resolver: {
      name: resolver,
      label: embedded.label,
      ...(embedded.id !== "id" && embedded.id !== undefined ? { id: embedded.id } : {}),
      reason: `\`${field.path.join(".")}\` embeds ${many ? "them" : "one"} with ${many ? "their" : "its"} name in \`${embedded.label}\``,
    },
  };
}

/**
 * An object or a list of objects that cannot be kept whole, classified by its parts instead: a
 * reference with a name and a link but no id (PokeAPI's `{ name, url }`) keeps the name, lifted
 * to the field's place where no list holds it, and the link is dropped; the other parts are
 * guessed as fields are. Only where some part is worth reading and there are not too many of
 * them: else undefined, and the whole is dropped for a person to decide.
 */
function partsGuess(field: SpecField, ctx: GuessContext, depth: number, budget: Budget, many: boolean): Guess | undefined {
  const { reader } = ctx;
  const at = many ? reader.items(field.at) : field.at;
  if (!at || depth >= PART_DEPTH) return undefined;
  const embedded = embeddedRecord(reader, at);
  // A record of its own is joined, or dropped whole: its id is no part to keep.
  if (embedded.id !== undefined) return undefined;
  const properties = reader.properties(at);
  const reference = embedded.label !== undefined && properties.some((p) => isUrl(reader, p.name, p.at) || LINK_NAME.test(p.name));
  budget.left -= properties.length;
  if (budget.left < 0) return undefined;
  const lifted = field.path.join("_");
  // `as` lifts a part to the top of the result only where no list holds it.
  const liftable = !many && field.path.length === 1;
  const parts: [string, Guess][] = [];
  let worthReading = false;
  for (const p of properties) {
    const part: SpecField = { ...p, base: field.base, path: [...field.path, p.name], relationship: false };
    const guess: Guess =
      reference && p.name === embedded.label
        ? { rule: "keep", reason: `the name of the ${field.name.replace(/_/g, " ")} it refers to`, sure: true }
        : guessField(part, ctx, depth + 1, budget);
    if (budget.left < 0) return undefined;
    worthReading ||= readable(reader, part, guess);
    parts.push([p.name, guess]);
  }
  // The name alone stands for the reference: lifted to its place, where nothing else of it is kept beside it.
  const name = parts.find(([part]) => reference && part === embedded.label);
  const alone = parts.every(([part, g]) => part === embedded.label || (typeof g.rule === "object" && "drop" in g.rule));
  if (name && liftable && alone) name[1] = { ...name[1], rule: { as: lifted }, reason: `${name[1].reason}, as \`${lifted}\`` };
  if (!worthReading || parts.reduce((n, [, g]) => n + countEntries(g), 0) > MOST_PARTS) return undefined;
  return { rule: "keep", reason: "classified by its parts: kept whole it would carry ids or links", sure: true, parts };
}

const countEntries = (guess: Guess): number => (guess.parts ? guess.parts.reduce((n, [, g]) => n + countEntries(g), 0) : 1);

/** Whether a part's guess keeps something a model reads: text, a name, a word for a code, a date (numbers alone are not worth the parts). */
function readable(reader: SchemaReader, part: SpecField, guess: Guess): boolean {
  if (guess.parts) return true;
  const rule = guess.rule;
  if (rule === "keep") return reader.kind(part.at) === "string";
  return "as" in rule || ("join" in rule && guess.sure) || "legend" in rule || "format" in rule;
}

/**
 * Generate refuses a value kept whole that carries an id or a URL at any depth, so init never
 * drafts one; nor one that carries a credential (`sip: { username, password }`), which generate
 * would take and show the model.
 */
function keptWholeRefusal(reader: SchemaReader, field: SpecField): Guess | undefined {
  const credential = carriedCredential(reader, field.at, field.name);
  if (credential !== undefined)
    return {
      rule: { drop: "holds a credential" },
      reason: `kept whole it would carry ${credential}, a credential: ${
        classifiedWhole(credential) ? "its values have no names to classify, so it goes whole" : "classify its parts to keep the rest"
      }`,
      sure: false,
    };
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
/** A point in time by its name: `created_at`, `createdAt`, `timestamp`. */
const INSTANT_NAME = /(_at|At|timestamp|Timestamp)$|^timestamp$/;
/** `start_time`: a point in time as text, but as an integer as often a duration (PokeAPI's `growth_time`, in hours). */
const TIME_NAME = /(_time|Time)$|^time$/;
const EPOCH_TEXT = /\b(unix|epoch|posix)\b/i;
const DURATION_TEXT =
  /\b(duration|elapsed|how long|took|interval|timeout|ttl|wait time|(number of|in|of) (milli|micro|nano)?(seconds|minutes|hours|days))\b/i;
/** Formats specs declare for integer epoch times: Stripe's `unix-time`, and the like. */
const EPOCH_FORMATS =
  /^(unix[-_]?time(stamp)?|unix|epoch|unix[-_]?epoch|epoch[-_]?(seconds|millis|milliseconds)|unix[-_]?(ms|millis)|timestamp)$/i;
/** Formats of date-times written as RFC 2822 (`Thu, 30 Jul 2015 20:12:31 +0000`, Twilio's), which the runtime's date readers do not read. */
const RFC_2822_FORMATS = /rfc[-_]?(2822|822|1123|7231)|^http-date$/i;

/**
 * `format: date | datetime` for a field that holds a point in time: what its declared format says
 * first (`date-time`, `date`, Stripe's `unix-time`), then its description (unix time), and only
 * then its name, which makes the guess a `todo`. A duration is left alone, and so is text the
 * runtime cannot read as a date.
 */
function timestampGuess(name: string, kind: string | undefined, schema: Record<string, unknown>): Guess | undefined {
  const description = typeof schema["description"] === "string" ? schema["description"] : "";
  const format =
    typeof schema["format"] === "string" ? schema["format"] : typeof schema["x-format"] === "string" ? schema["x-format"] : undefined;
  if (kind === "string") {
    if (format === "date-time") return { rule: { format: "datetime" }, reason: "a timestamp, to the minute in UTC", sure: true };
    if (format === "date") return { rule: { format: "date" }, reason: "a date", sure: true };
    if (format !== undefined && RFC_2822_FORMATS.test(format))
      return {
        rule: "keep",
        reason: `a date-time declared \`format: ${format}\` (\`Thu, 30 Jul 2015 20:12:31 +0000\`): \`format: datetime\` reads ISO 8601 text and epoch times only and would mark every value unusable, so it is kept as the text it is`,
        sure: false,
      };
    if (format !== undefined || schema["enum"] !== undefined || DURATION_TEXT.test(description)) return undefined;
    if (INSTANT_NAME.test(name) || TIME_NAME.test(name))
      return { rule: { format: "datetime" }, reason: "named like a timestamp, by its name alone: to the minute in UTC", sure: false };
    if (DATE_NAME.test(name)) return { rule: { format: "date" }, reason: "named like a date", sure: false };
    return undefined;
  }
  if (kind !== "integer") return undefined;
  if (format !== undefined && EPOCH_FORMATS.test(format))
    return { rule: { format: "datetime" }, reason: `declared \`format: ${format}\`: unix time, to the minute in UTC`, sure: true };
  if (DURATION_TEXT.test(description)) return undefined;
  const date = DATE_NAME.test(name);
  // A description saying unix time settles it; a name alone makes it a guess.
  const described = EPOCH_TEXT.test(description);
  if (described || date || INSTANT_NAME.test(name))
    return {
      rule: { format: date ? "date" : "datetime" },
      reason: `an integer timestamp (unix seconds or milliseconds)${described ? "" : ", by its name"}: ${date ? "a date" : "to the minute"} in UTC`,
      sure: described,
    };
  if (TIME_NAME.test(name))
    return {
      rule: "keep",
      reason: "named like a time, but an integer so named is as often a duration: write `format: datetime` if it holds unix seconds",
      sure: false,
    };
  return undefined;
}
