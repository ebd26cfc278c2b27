import type { SpecField } from "../model/fields.js";
import { isIdSchema } from "../model/spec-ids.js";
import { operationParameters, type DeclaredParameter, type Operation } from "../model/operations.js";
import { isJsonObject, members, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { withArticle } from "../indefinite-article.js";
import { singular } from "../naming.js";
import { kindOfKey, someOf, type ArgumentGuess, type Guess } from "./guess.js";

/** `GetTeamMemberships`, `listIncidents`, `get /users/{id}` to `get_team_memberships`, `list_incidents`, `get_users_id`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

/** The kind of record a word names: `Agents`, `agent_pools` to `agent`, `agent_pool`. */
export const kindOf = (word: string) => singular(snakeCase(word));
const IDENTITY_PARAMETER = /^(id|gid|uuid|sid|key|slug|number)$/i;
const KIND_PARAMETER = /^(.+?)(?:_id_or_slug|_id_or_key|_id_or_name|_ids?|_gid|_uuid|_sid|_key|_slug|_number|Id|Gid|Uuid|Sid|Key)$/;

/** A path's segments, a file extension taken off (Twilio's `/Accounts/{Sid}.json` is the account `{Sid}`). */
const segmentsOf = (path: string) =>
  path
    .split("/")
    .filter(Boolean)
    .map((segment) => segment.replace(/^(\{[^{}]+\}|[^{}.]+)\.[A-Za-z]{2,5}$/, "$1"));
const parameterOf = (segment: string) => /^\{(.+)\}$/.exec(segment)?.[1];

/** The kind of record a GET answering one object at a path naming none reads: `agent` for `/fleet/agents` or `/fleet/agent`. */
export function kindAnsweredWhole(op: Pick<Operation, "method" | "path">, many: boolean): string | undefined {
  const last = segmentsOf(op.path).at(-1);
  if (many || op.method !== "get" || last === undefined || parameterOf(last) !== undefined) return undefined;
  return kindOf(last);
}

/** The kind of record the path parameter `name`, at `i`, takes an id of: the collection before it names it (`/tests/{public_id}`), or else its own name (`{ticket_id}`). */
function parameterKind(segments: readonly string[], i: number, name: string): string | undefined {
  const before = segments[i - 1];
  if (before !== undefined && parameterOf(before) === undefined) return kindOf(before);
  const named = KIND_PARAMETER.exec(name);
  return named ? kindOf(named[1]!) : undefined;
}

/** The kind of record an operation returns: `/users/{id}/tickets` lists tickets, `/tickets/{ticket_id}` gets one. */
export function recordKindOfPath(path: string, many: boolean, collections: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  const segments = segmentsOf(path);
  const last = segments[segments.length - 1];
  if (last === undefined) return undefined;
  const parameter = parameterOf(last);
  if (!many && parameter !== undefined) return parameterKind(segments, segments.length - 1, parameter);
  if (parameter !== undefined || /^\{/.test(last)) return undefined;
  const kind = kindOf(last);
  // A word in the singular after a collection, where the spec lists that kind elsewhere, scopes the
  // list to one of those: `/metadata_templates/enterprise` lists an enterprise's templates, no enterprises.
  const before = segments[segments.length - 2];
  const scoping =
    many &&
    kind === snakeCase(last) &&
    before !== undefined &&
    parameterOf(before) === undefined &&
    [...(collections.get(kind) ?? [])].some((collection) => collection !== pathShape(`/${segments.join("/")}`));
  return scoping ? undefined : kind;
}

/** A tool that takes an id of some kind of record, and the parameter it takes it in. */
export interface Taker {
  tool: string;
  kind: string;
  parameter: DeclaredParameter;
  /** The parameter ends the path: the tool reads the one record it names (`/tickets/{ticket_id}`). */
  fetches: boolean;
  /** The parameter's name says it takes an id (`{ticket_id}`, `{id}`), not some other key of the record (`{username}`). */
  namedAsId: boolean;
  /** The collection the parameter names one record of: the path before it (`/aws/accounts` for `/aws/accounts/{account_id}/...`). */
  collection: string;
  reads: string;
}

/** A path with its parameters unnamed and a trailing extension left out (`/Accounts/{}` for `/Accounts/{Sid}.json`), so that two writings of one collection compare equal. */
export const pathShape = (path: string) => path.replace(/\{[^}/]*\}/g, "{}").replace(/\.[a-z]+$/i, "");

/**
 * The id an operation takes in its path to say what it reads: its last path parameter
 * (`{ticket_id}`, or `{id}` after `/tickets/`). The parameters before the last only scope it
 * (`/organizations/{org}/...`): every call under an organization takes one, and naming them all
 * would bury the tool that reads the record. A query parameter (`?service_id=`) narrows a list
 * and reads no record: an id is never drafted as an argument of one.
 */
export function takerOf(
  reader: SchemaReader,
  op: Operation,
  tool: { name: string; lists: boolean; reads: string },
  collections: ReadonlyMap<string, ReadonlySet<string>>,
): Taker | undefined {
  const segments = segmentsOf(op.path);
  const last = segments.map((segment) => parameterOf(segment) !== undefined).lastIndexOf(true);
  if (last === -1) return undefined;
  const name = parameterOf(segments[last]!)!;
  const named = KIND_PARAMETER.exec(name);
  const namedKind = named ? kindOf(named[1]!) : undefined;
  // The collection a parameter follows names the kind: `/synthetics/tests/{public_id}` takes a test's id.
  const collection = last > 0 && parameterOf(segments[last - 1]!) === undefined ? kindOf(segments[last - 1]!) : undefined;
  // Unless a list's parameter names another kind the spec has a collection of: `/servicenow/users/{instance_id}`
  // lists the users of an instance, and takes an instance's id, of the one collection of instances,
  // or of none where the spec has a few (a workflow's instances too).
  const scopes =
    tool.lists && collection !== undefined && namedKind !== undefined && !sameKind(collection, namedKind) && collections.has(namedKind);
  const scoped = scopes ? [...collections.get(namedKind!)!] : undefined;
  if (scoped && scoped.length !== 1) return undefined;
  const kind = scopes ? namedKind : (collection ?? namedKind);
  const parameter = operationParameters(reader, op).find((p) => p.name === name && p.in === "path");
  if (kind === undefined || !parameter) return undefined;
  return {
    tool: tool.name,
    kind,
    parameter,
    fetches: !scopes && last === segments.length - 1,
    namedAsId: named !== null || IDENTITY_PARAMETER.test(name),
    collection: scoped?.[0] ?? pathShape(`/${segments.slice(0, last).join("/")}`),
    reads: tool.reads,
  };
}

/** Whether two kinds are one, told in more or fewer words or by a lossy singular: `escalation_policy` and `policy`, `enterpris` and `enterprise`. */
const sameKind = (a: string, b: string) => a.startsWith(b) || b.startsWith(a) || a.endsWith(b) || b.endsWith(a);

/**
 * The collections of each kind of record the spec has: a path's last segment (`/instances`) and
 * every segment a parameter follows (`/instances/{id}`), by kind (`instance`), each as the path to it.
 */
export function collectionKinds(operations: readonly Operation[]): Map<string, Set<string>> {
  const kinds = new Map<string, Set<string>>();
  for (const op of operations) {
    const segments = segmentsOf(op.path);
    segments.forEach((segment, i) => {
      const next = segments[i + 1];
      if (parameterOf(segment) !== undefined || (next !== undefined && parameterOf(next) === undefined)) return;
      const kind = kindOf(segment);
      kinds.set(kind, (kinds.get(kind) ?? new Set()).add(pathShape(`/${segments.slice(0, i + 1).join("/")}`)));
    });
  }
  return kinds;
}

/** The ways a schema writes an id that can tell two kinds of id apart: its `$ref` and its `pattern`. */
function writings(reader: SchemaReader, at: SchemaAt): string[] {
  const { ref, pattern } = idWriting(reader, at);
  return [...(ref !== undefined ? [`$ref ${ref}`] : []), ...(pattern !== undefined ? [`pattern ${pattern}`] : [])];
}

const writingIndexes = new WeakMap<readonly Taker[], Map<string, Taker[]>>();

/** The takers by each writing of their parameter, made once for a draft's takers. */
function takersByWriting({ reader }: Matching, takers: readonly Taker[]): Map<string, Taker[]> {
  let index = writingIndexes.get(takers);
  if (!index) {
    index = new Map();
    for (const taker of takers) for (const w of writings(reader, taker.parameter.at)) index.set(w, [...(index.get(w) ?? []), taker]);
    writingIndexes.set(takers, index);
  }
  return index;
}

/** How fields are matched to parameters: the reader, and the writings of ids that say which kind of record. */
export interface Matching {
  reader: SchemaReader;
  /** Writings ({@link writings}) only ever used by path parameters of one kind: Twilio's `^CA…` is a call's. */
  distinctive: ReadonlySet<string>;
  /** The kinds of record path parameters of each writing take ids of: Twilio's `^PN…`, incoming phone numbers' and outgoing caller ids'. */
  kindsByWriting: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The writings of ids that say which kind of record they name: those every path parameter using
 * them takes one kind of id in (Twilio's `^AC[0-9a-fA-F]{32}$`, an account's sid, whether the
 * parameter is `{AccountSid}` or an account's `{Sid}`). A spec that writes every id alike
 * (Discord's snowflakes) has none, and then the writing of a field says nothing of its kind.
 */
export function matchingOf(reader: SchemaReader, operations: readonly Operation[]): Matching {
  const kinds = new Map<string, Set<string>>();
  for (const op of operations) {
    const segments = segmentsOf(op.path);
    const parameters = operationParameters(reader, op);
    segments.forEach((segment, i) => {
      const name = parameterOf(segment);
      if (name === undefined) return;
      const kind = parameterKind(segments, i, name);
      const parameter = parameters.find((p) => p.name === name && p.in === "path");
      if (kind === undefined || !parameter) return;
      for (const writing of writings(reader, parameter.at)) kinds.set(writing, (kinds.get(writing) ?? new Set()).add(kind));
    });
  }
  return { reader, distinctive: new Set([...kinds].filter(([, of]) => of.size === 1).map(([writing]) => writing)), kindsByWriting: kinds };
}

/** Last words that all say "the id": `{database_cluster_uuid}` takes a cluster's `id`, `{ssh_key_identifier}` a key's. */
const ID_WORDS = new Set(["id", "uuid", "gid", "sid", "identifier"]);

/**
 * `issue_number`, `IssueNumber` and `issue-number` as the words `issue`, `number`, a last word
 * that says "the id" read as `id`. A name of alternatives (`{team_id_or_slug}`) is each of them.
 */
const alternatives = (name: string): string[][] =>
  snakeCase(name.replace(/\[\]$/, ""))
    .split("_or_")
    .map((alternative) => alternative.split("_").map((word, i, all) => (i === all.length - 1 && ID_WORDS.has(word) ? "id" : word)));

/** Whether a list of words ends with another. */
const wordsEndWith = (whole: readonly string[], tail: readonly string[]) =>
  tail.length <= whole.length && tail.every((word, i) => word === whole[whole.length - tail.length + i]);

/** Whether one name ends with another, word for word: `issue_number` ends with `number`, `AccountSid` with `sid`'s `id`. */
const endsWith = (name: string, end: string) =>
  alternatives(name).some((whole) => alternatives(end).some((tail) => wordsEndWith(whole, tail)));

/** Whether one name, or one of its alternatives, ends with another's words as written: `thing_uuid` with `uuid`, not with `id`. */
const endsWithWords = (name: string, end: string) => {
  const tail = snakeCase(end).split("_");
  return snakeCase(name)
    .split("_or_")
    .some((alternative) => wordsEndWith(alternative.split("_"), tail));
};

/** What a schema says of an id's writing: its component, pattern, type and format. */
function idWriting(reader: SchemaReader, at: SchemaAt) {
  const node = reader.unwrapNullable(at);
  const { pattern, format } = node.schema;
  return {
    ref: reader.refName(at) ?? reader.refName(node),
    pattern: typeof pattern === "string" ? pattern : undefined,
    kind: reader.kind(at),
    format: typeof format === "string" ? format : undefined,
  };
}

/** How a field fits a parameter taking an id of `kind`: by name, by schema, both or neither; undefined where the two cannot be one id. */
interface Fit {
  byName: boolean;
  /** The names are one and the same (`user_id` for `{user_id}`), which beats a shorter name they end with (`id`). */
  sameName: boolean;
  bySchema: boolean;
  /** The field's type can be sent as the parameter's: an integer id passes as text, but not as a `uuid`; text does not pass as an integer. */
  typesAgree: boolean;
  /** The names end alike as written, not only once a last `uuid` or `sid` is read as `id`: `{thing_uuid}` takes a `uuid` before an `id`. */
  sameWords: boolean;
  /** Both declare one `format` (`uuid`). */
  sameFormat: boolean;
  /** The parameter's example is this field's, and no other field's of the record: DigitalOcean's `{namespace_id}` takes a namespace's `fn-...` `namespace`, not its `uuid`. */
  sameExample?: boolean;
  /** Another field has the parameter's example, this one's is written otherwise: the name and the example disagree. */
  exampleIsOf?: string;
}

/**
 * The record's own field: the one the parameter's name ends with (`issue_number` takes the
 * issue's `number`, `{Sid}` its `sid`), or the one the collection before it names
 * (`/shortids/{issue_id}` takes the issue's `shortId`, not its `id`); another record's id: a field whose name ends with the
 * parameter's (`ticket_id` for a `/tickets/{id}`); for either, the same `$ref` or `pattern` as
 * the parameter's (Twilio's `^CA[0-9a-fA-F]{32}$` is a call's sid, whatever the field is named).
 * Two patterns that differ are two kinds of id, whatever the names say.
 */
function fitOf({ reader, distinctive }: Matching, field: SpecField, taker: Taker, own: boolean): Fit | undefined {
  const words = snakeCase(field.name).split("_");
  const byCollection = own && words.length > 1 && ID_WORDS.has(words.at(-1)!) && taker.kind.replace(/_/g, "") === words.join("");
  const byName = byCollection || (own ? endsWith(taker.parameter.name, field.name) : endsWith(field.name, taker.parameter.name));
  const ours = idWriting(reader, field.at);
  const theirs = idWriting(reader, taker.parameter.at);
  if (ours.pattern !== undefined && theirs.pattern !== undefined && ours.pattern !== theirs.pattern) return undefined;
  const shared = writings(reader, field.at).filter((w) => writings(reader, taker.parameter.at).includes(w));
  const bySchema = shared.some((w) => distinctive.has(w));
  const typesAgree =
    ours.kind === undefined ||
    theirs.kind === undefined ||
    ours.kind === theirs.kind ||
    (ours.kind === "integer" && theirs.kind === "string" && theirs.format !== "uuid");
  return {
    byName,
    sameName: byCollection || snakeCase(field.name) === snakeCase(taker.parameter.name),
    bySchema,
    typesAgree,
    sameWords: own ? endsWithWords(taker.parameter.name, field.name) : endsWithWords(field.name, taker.parameter.name),
    sameFormat: ours.format !== undefined && ours.format === theirs.format,
  };
}

// A name written as the parameter's ends (`id` for `{thing_id}`) outranks a shared example; one
// read alike only once its last word is taken for `id` (`uuid` for `{namespace_id}`) does not.
const rank = (f: Fit) =>
  // A field that cannot be sent as the parameter (an integer for a `format: uuid`) comes after every one that can.
  (f.typesAgree ? 256 : 0) +
  (f.sameName ? 128 : 0) +
  (f.byName && f.sameWords ? 64 : 0) +
  (f.sameExample ? 32 : 0) +
  (f.byName ? 16 : 0) +
  (f.bySchema ? 8 : 0) +
  (f.sameWords ? 2 : 0) +
  (f.sameFormat ? 1 : 0);

/** A text example long enough not to be shared by chance (`fn-xxxxxxxx-...`, not `123` or `abc`). */
const MIN_TELLING_EXAMPLE = 8;

/**
 * The one field whose example is the parameter's, where the example is telling and no other field's
 * is even written alike: a deployment's `cloned_from` shares the example of `{deployment_id}`,
 * but its `id` is a UUID too, and stays the one taken.
 */
function onlyExampleOf(reader: SchemaReader, parameter: DeclaredParameter, fields: readonly SpecField[]): SpecField | undefined {
  const example = textExample(parameter.declaration) ?? textExample(parameter.at);
  if (example === undefined) return undefined;
  const alike = fields.filter((field) => shapeOf(textExample(reader.unwrapNullable(field.at)) ?? "") === shapeOf(example));
  return alike.length === 1 && textExample(reader.unwrapNullable(alike[0]!.at)) === example ? alike[0] : undefined;
}

/** How a text is written, its letters and digits aside: `fn-xxxxxxxx-xxxx` and `xxxxxxxx-xxxx` differ, two UUIDs do not. */
const shapeOf = (text: string) => text.replace(/[A-Za-z0-9]/g, "x");

/** A schema's or parameter's example, written as 3.0's `example`, 3.1's `examples` list, or a parameter's `examples` map. */
const textExample = (at: SchemaAt): string | undefined => {
  const { example, examples } = at.schema;
  const named = isJsonObject(examples) ? Object.values(examples)[0] : undefined;
  const text = example ?? (Array.isArray(examples) ? examples[0] : isJsonObject(named) ? named["value"] : undefined);
  return typeof text === "string" && text.length >= MIN_TELLING_EXAMPLE && !/^\d+$/.test(text) ? text : undefined;
};
export const unique = <T>(value: T, index: number, all: T[]) => all.indexOf(value) === index;
const scalar = (reader: SchemaReader, field: SpecField) => ["string", "integer", undefined].includes(reader.kind(field.at));

/**
 * The tools taking an id of a record's kind; the record's kind where they were found by the end of
 * its name alone; whether they read a variant of it, from a collection it is never read from.
 */
export interface OwnTakers {
  takers: Taker[];
  likeKind?: string;
  elsewhere?: boolean;
}

/**
 * The tools that take an id of a record of these kinds (its own, its path's, and for a union those
 * of its branches: a queue of tracks and episodes) that name a record of a collection it is read
 * from; else, as a guess, those naming a record of a collection only a variant of it is read from
 * (Spotify's `simplified_track` and `/tracks/{id}`), never those of a collection another kind of
 * record is read from (`/aws/accounts/{account_id}` and `/okta/accounts/{account_id}` both take an
 * account's id, each of its own kind); where no tool takes one of these kinds at all, those taking
 * an id of a kind its own kind ends with, word for word (`private_user`, `user`), a guess by name alone.
 */
export function ownTakers(
  kinds: readonly string[],
  takersByKind: ReadonlyMap<string, Taker[]>,
  reads: (taker: Taker) => "this" | "a variant" | "another",
): OwnTakers {
  const taking = kinds.flatMap((kind) => takersByKind.get(kind) ?? []).filter(unique);
  const readings = new Map(taking.map((taker) => [taker, reads(taker)]));
  const reading = (what: string) => taking.filter((taker) => readings.get(taker) === what);
  const own = reading("this");
  if (own.length > 0) return { takers: own };
  const variants = reading("a variant");
  if (variants.length > 0) return { takers: variants, elsewhere: true };
  if (taking.length > 0) return { takers: [] };
  for (const kind of kinds) {
    const like = [...takersByKind].filter(([taken]) => kind.endsWith(`_${taken}`)).flatMap(([, of]) => of);
    if (like.length > 0) return { takers: like, likeKind: kind };
  }
  return { takers: [] };
}

/** The component schemas a union record's branches are (`oneOf: [TrackObject, EpisodeObject]`). */
export function unionBranches(reader: SchemaReader, record: SchemaAt): string[] {
  const union = reader.unwrapNullable(record);
  return ["oneOf", "anyOf"].flatMap((key) => members(union, key).flatMap((branch) => reader.refName(branch) ?? []));
}

/**
 * The record's own fields that the tools taking an id of its kind take, each tool matched to the
 * field its parameter names: GitHub's `/issues/{issue_number}` takes the issue's `number`, not
 * its global `id`. A tool no field matches is left out, and the record's identity says so in a
 * `todo`: an argument that fetches another record, or none, is worse than no argument.
 */
export function ownArguments(
  matching: Matching,
  fields: SpecField[],
  { takers, likeKind, elsewhere }: OwnTakers,
  identity: string | undefined,
): Map<string, Guess> {
  const guessed = likeKind !== undefined || elsewhere === true;
  const matched = new Map<string, { taker: Taker; fit: Fit }[]>();
  const unmatched: Taker[] = [];
  const { reader } = matching;
  // Found by the record's name alone, the tools take its own id at most: its other ids are another record's (a participant's `conversation_sid`).
  const candidates = fields.filter((f) => f.path.length === 1 && !f.relationship && scalar(reader, f) && (!guessed || f.name === identity));
  for (const taker of takers) {
    let best: { field: SpecField; fit: Fit } | undefined;
    const shown = onlyExampleOf(reader, taker.parameter, candidates);
    for (const field of candidates) {
      const fit = fitOf(matching, field, taker, true);
      const found = fit && { ...fit, sameExample: field === shown };
      if (found && (found.byName || found.bySchema || found.sameExample) && (!best || rank(found) > rank(best.fit)))
        best = { field, fit: found };
    }
    if (!best) unmatched.push(taker);
    else {
      const disagrees = shown !== undefined && shown !== best.field;
      const fit = disagrees ? { ...best.fit, exampleIsOf: shown.name } : best.fit;
      matched.set(best.field.name, [...(matched.get(best.field.name) ?? []), { taker, fit }]);
    }
  }
  const guesses = new Map<string, Guess>();
  for (const [name, found] of matched) {
    const tools = found.map((m) => m.taker.tool).filter(unique);
    const odd = found.find((m) => !m.fit.typesAgree);
    const taken = found[0]!.taker.parameter.name;
    const disputed = found.find((m) => m.fit.exampleIsOf !== undefined);
    const reason = odd
      ? `passed to ${odd.taker.tool} as \`${odd.taker.parameter.name}\`, declared ${idWriting(reader, odd.taker.parameter.at).kind} where the field is ${idWriting(reader, candidates.find((c) => c.name === name)!.at).kind}: check the tool takes this value`
      : likeKind !== undefined
        ? `passed to ${someOf(tools)} as \`${taken}\`, the id of ${withArticle(found[0]!.taker.kind)}, by the record's name alone (${withArticle(likeKind)}): check ${tools.length === 1 ? "it takes" : "they take"} this one`
        : elsewhere
          ? `passed to ${someOf(tools)} as \`${taken}\`, the id of ${withArticle(found[0]!.taker.kind)} of a collection this record is never read from: check ${tools.length === 1 ? "it takes" : "they take"} this one`
          : name === identity
            ? `an id the model passes to ${someOf(tools)}`
            : `the id ${someOf(tools)} ${tools.length === 1 ? "takes" : "take"} as \`${taken}\`${found[0]!.fit.sameExample && !found[0]!.fit.byName ? ", the spec's example of both the same: check it takes this one" : ": the model passes it"}`;
    // Taken by the example alone, it is a guess to check: the spec may have copied one example into two fields.
    const byExampleAlone = found.some((m) => m.fit.sameExample && !m.fit.byName && !m.fit.bySchema);
    guesses.set(name, {
      rule: { argument: tools },
      reason: disputed
        ? `passed to ${disputed.taker.tool} as \`${disputed.taker.parameter.name}\` by its name, though the spec's example of it is \`${disputed.fit.exampleIsOf}\`'s: check which the tool takes`
        : reason,
      sure: odd === undefined && !guessed && !byExampleAlone && disputed === undefined,
    });
  }
  // Tools found by the record's name alone that no field matches say nothing of it.
  if (identity !== undefined && !guesses.has(identity) && unmatched.length > 0 && !guessed) {
    const tools = unmatched.map((t) => t.tool).filter(unique);
    const parameters = unmatched.map((t) => `\`${t.parameter.name}\``).filter(unique);
    guesses.set(identity, {
      rule: { drop: "no tool takes this id" },
      reason: `${someOf(tools)} ${tools.length === 1 ? "takes" : "take"} ${someOf(parameters)}, which no field of this record matches by name or schema: make the field that holds it an argument`,
      sure: false,
    });
  }
  return guesses;
}

/**
 * The tools another record's id is an argument of: those taking an id of the kind its name says
 * (`ticket_id`), or written the same way (`$ref`, `pattern`) as their parameter. The tools that
 * read that one record come first and alone when there are any: every Twilio list under an
 * account takes its sid, and naming them all beside each `account_sid` would bury `fetch_account`.
 */
export function foreignArgument(
  matching: Matching,
  field: SpecField,
  takersByKind: ReadonlyMap<string, Taker[]>,
  allTakers: readonly Taker[],
  nearer: (kind: string, takers: readonly Taker[]) => OtherCollection | undefined = () => undefined,
  siblings: readonly SpecField[] = [],
): ArgumentGuess | undefined {
  const { reader } = matching;
  const kind = kindOfKey(field.name);
  const byKind = takersByKind.get(kind) ?? [];
  // Only a taker whose parameter is written the same distinctive way can match by schema: found by that writing, not by trying all.
  const bySchema = isIdSchema(reader, field.at)
    ? writings(reader, field.at)
        .filter((w) => matching.distinctive.has(w))
        .flatMap((w) => takersByWriting(matching, allTakers).get(w) ?? [])
        .filter((t) => !byKind.includes(t))
    : [];
  const fits = [...byKind, ...bySchema].flatMap((taker) => {
    const found = fitOf(matching, field, taker, false);
    // A taker of the kind the field's name says takes it in a parameter of a name it ends with; any other, written the same way.
    return found && (found.bySchema || (byKind.includes(taker) && found.byName)) ? [{ taker, fit: found }] : [];
  });
  if (fits.length === 0) return writtenAlike(matching, field, allTakers);
  const fetching = fits.filter((m) => m.taker.fetches);
  const chosen = (fetching.length > 0 ? fetching : fits).sort((a, b) => allTakers.indexOf(a.taker) - allTakers.indexOf(b.taker));
  const tools = chosen.map((m) => m.taker.tool).filter(unique);
  const odd = chosen.find((m) => !m.fit.typesAgree);
  const named = chosen.some((m) => byKind.includes(m.taker));
  // Matched by name only, `id` standing for another word of the parameter's, where the record holds
  // a field named as the parameter is: an invoice's `invoice_id`, its number, beside its `invoice_uuid`.
  const reworded = chosen.find(
    (m) =>
      !m.fit.bySchema &&
      !IDENTITY_PARAMETER.test(m.taker.parameter.name) &&
      snakeCase(field.name) !== snakeCase(m.taker.parameter.name) &&
      siblings.some((s) => s !== field && s.path.length === field.path.length && snakeCase(s.name) === snakeCase(m.taker.parameter.name)),
  );
  const of = named ? withArticle(kind) : withArticle(chosen[0]!.taker.kind);
  // Tools that each fetch another record of the kind (an AWS account, an Okta account): the name does not say whose id it is.
  const records = chosen.flatMap((m) => (m.taker.fetches ? [m.taker.reads] : [])).filter(unique);
  const closer = named
    ? nearer(
        kind,
        chosen.map((m) => m.taker),
      )
    : undefined;
  return {
    tools,
    sure: odd === undefined && records.length < 2 && closer === undefined && reworded === undefined,
    reason: odd
      ? `the id of ${of}, passed to ${odd.taker.tool} as \`${odd.taker.parameter.name}\`, which is declared ${idWriting(reader, odd.taker.parameter.at).kind}: check the tool takes this value`
      : records.length > 1
        ? `the id of ${of}, which ${someOf(tools)} fetch as ${records.length} kinds of record (${someOf(records)}): keep the tools that take this one`
        : reworded !== undefined
          ? `the id of ${of}, passed to ${reworded.taker.tool} as \`${reworded.taker.parameter.name}\`, though this record has a field of that name: check the tool takes this one`
          : closer !== undefined
            ? `the id of ${of}, which ${someOf(tools)} ${tools.length === 1 ? "reads" : "read"} from ${someOf(chosen.map((m) => m.taker.collection).filter(unique))}, though the spec lists another kind of record as ${kind} at ${closer.collection}, ${closer.nearer ? "nearer this record" : "as near this record"}: keep the tools that take this one`
            : `the id of ${of}${named ? "" : ` (written as ${someOf(tools)} ${tools.length === 1 ? "takes" : "take"} it)`}, which the model passes to ${someOf(tools)}`,
  };
}

/** A collection of another kind of record than a tool's, and whether it is nearer the record than the tool's, or as near. */
export interface OtherCollection {
  collection: string;
  nearer: boolean;
}

/**
 * A collection of a kind of record read as another kind of record than the tools taking an id of
 * that kind read, and nearer a record's own collections than theirs: where a ServiceNow user's
 * `instance_id` names an instance of `/integration/servicenow/instances`, the one tool taking an
 * instance's id reads a workflow's (`/workflows/{}/instances`). A collection of its own (no record's
 * part) as near as theirs leaves the kind as open: a GCP config's `project_id` is no more a case
 * project of `/cases/projects` than an LLM project of `/llm-obs/v1/projects`. Read as a kind of
 * theirs in more words (a playlist's `/playlists/{}/tracks` and `/tracks/{id}`), it is no other.
 */
export function nearerCollection(
  record: ReadonlySet<string>,
  ofKind: ReadonlySet<string>,
  takers: readonly Taker[],
  readersOf: ReadonlyMap<string, readonly string[]>,
): OtherCollection | undefined {
  if (record.size === 0) return undefined;
  const shared = (a: string, b: string) => {
    const [x, y] = [a.split("/"), b.split("/")];
    let i = 0;
    while (i < x.length && i < y.length && x[i] === y[i]) i++;
    return i;
  };
  const nearness = (collection: string) => Math.max(...[...record].map((path) => shared(path, collection)));
  const theirs = Math.max(...takers.map((taker) => nearness(taker.collection)));
  const read = takers.map((taker) => taker.reads);
  const theirCollections = new Set(takers.map((taker) => taker.collection));
  const others = [...ofKind].filter((collection) => {
    const readers = readersOf.get(collection) ?? [];
    // A record of a collection of its own named as a kind of theirs in more words (`llm_project`) is another kind still.
    const ofItsOwn = !collection.includes("{}");
    const ours = (reader: string) => read.some((kind) => reader === kind || (!ofItsOwn && reader.endsWith(`_${kind}`)));
    return !theirCollections.has(collection) && readers.length > 0 && !readers.some(ours);
  });
  const nearer = others.find((collection) => nearness(collection) > theirs);
  if (nearer !== undefined) return { collection: nearer, nearer: true };
  const asNear = others.find((collection) => nearness(collection) === theirs && !collection.includes("{}"));
  return asNear === undefined ? undefined : { collection: asNear, nearer: false };
}

/** How many kinds of record may share a writing of ids for a field written so to be offered the tools of each: more says nothing of the kind. */
const FEW_KINDS = 3;

/**
 * The tools taking ids written as the field is (`pattern`, `$ref`) where the spec gives that
 * writing to a few kinds of record, one of them the kind the field's name ends (Twilio's
 * `phone_number_sid`, `^PN…`, an incoming phone number's sid and an outgoing caller id's alike):
 * which of them the field holds its name does not settle, so the guess names them all and is a
 * todo, never a drop saying no tool takes it.
 */
function writtenAlike(matching: Matching, field: SpecField, allTakers: readonly Taker[]): ArgumentGuess | undefined {
  const { reader, kindsByWriting } = matching;
  const named = kindOfKey(field.name);
  for (const writing of writings(reader, field.at)) {
    const kinds = [...(kindsByWriting.get(writing) ?? [])];
    // A name that ends none of the kinds (a snowflake `pinned_by`) says nothing of which it is.
    if (kinds.length < 2 || kinds.length > FEW_KINDS || !kinds.some((kind) => kind === named || kind.endsWith(`_${named}`))) continue;
    const alike = takersByWriting(matching, allTakers).get(writing) ?? [];
    const fetching = alike.filter((t) => t.fetches);
    const tools = (fetching.length > 0 ? fetching : alike).map((t) => t.tool).filter(unique);
    if (tools.length === 0) continue;
    return {
      tools,
      sure: false,
      reason: `written as ${someOf(tools)} ${tools.length === 1 ? "takes" : "take"} ids (${writing}), which the spec gives ${kinds.length} kinds of record (${kinds.join(", ")}) and its name does not tell apart: keep the tools that take this one`,
    };
  }
  return undefined;
}
