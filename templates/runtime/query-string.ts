// Query strings written as the spec declares each parameter's style, where openapi-fetch's default
// would explode every array.

import { LONE_SURROGATE } from "./arguments.js";
import { asObject } from "./json.js";
import { UNWRITABLE_SURROGATE } from "./path-segments.js";
import { described } from "./quoting.js";

/** How a query parameter is written in the URL (OpenAPI's `style`). */
export type QueryStyle =
  "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

/** A query parameter's name and how it is written; a parameter not listed is written as `form`, exploded. */
export interface QueryParameterStyle {
  readonly name: string;
  readonly in: string;
  readonly style?: QueryStyle;
  readonly explode?: boolean;
}

/** A parameter's name as the query carries it: escaped, but with the brackets of `filter[id]` as the spec writes them. */
export const queryName = (name: string) =>
  encodeURIComponent(name).replace(/%5B/gi, "[").replace(/%5D/gi, "]");

/** An object's member name, from the arguments: every reserved character escaped, brackets too. */
const memberName = (name: string) => encodeURIComponent(name);

const queryValue = (value: unknown) =>
  encodeURIComponent(
    typeof value === "object" && value !== null
      ? JSON.stringify(value)
      : String(value),
  );

/** What joins the items of an unexploded array, or the names and values of an unexploded object. */
const DELIMITERS: Readonly<Record<Exclude<QueryStyle, "deepObject">, string>> =
  {
    form: ",",
    spaceDelimited: "%20",
    pipeDelimited: "|",
  };

/**
 * The character an API splits an unexploded array's value at, once it has decoded it, and its
 * name: servers decode the value before splitting it (Spring's `List<String>`, Express and
 * `split(",")`), so an item's own escaped delimiter splits it too.
 */
const SPLIT_AT: Readonly<
  Record<Exclude<QueryStyle, "deepObject">, readonly [string, string]>
> = {
  form: [",", "a comma"],
  spaceDelimited: [" ", "a space"],
  pipeDelimited: ["|", "a pipe"],
};

/** A style and explode as the query writes them: `form` exploded unless the spec says otherwise. */
function writing(declared: QueryParameterStyle | undefined): {
  style: QueryStyle;
  explode: boolean;
} {
  const style = declared?.style ?? "form";
  return { style, explode: declared?.explode ?? style === "form" };
}

/**
 * Whether an API may read two query names as one parameter: the same letters in any case (some
 * servers fold case, and Java's `equalsIgnoreCase` also equates `ſ` with `s`, `ı` and `İ` with `i`,
 * the Kelvin sign with `k`), the same once PHP has read them (leading spaces dropped, the name cut
 * at its first NUL, `.` and space read as `_`), the same but for whitespace around them, or one the
 * other's base, before its first bracket (`account` beside `account[id]`, which PHP and Rails read
 * as one value and overwrite).
 */
function sameQueryName(declared: string, written: string): boolean {
  const [one, other] = [plainName(declared), plainName(written)];
  return (
    one === other || one.split("[")[0] === other || other.split("[")[0] === one
  );
}

/**
 * A name folded as loosely as any common server compares names: cut at its first NUL (PHP reads the
 * decoded name as C text), compatibility forms decomposed (`ＳＣＯＰＥ`, `ſ`, the Kelvin sign),
 * whitespace around it dropped (PHP drops leading spaces, a trimming server any), accents dropped
 * (`İ` is `I` with a dot above), then upper- and lower-cased (`ı`), a superset of Java's
 * per-character compare, .NET's ordinal one and full Unicode case folding. A name that folds onto a
 * parameter's is refused; an honest member's rarely does.
 */
const plainName = (name: string) =>
  name
    .split("\0")[0]!
    .normalize("NFKD")
    .replace(/^[\p{White_Space}\uFEFF]+|[\p{White_Space}\uFEFF]+$/gu, "")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .toLowerCase()
    .replace(/[. ]/g, "_");

const isLoneSurrogateText = (text: unknown) =>
  typeof text === "string" && LONE_SURROGATE.test(text);

/**
 * Whether text written as it is into the query holds a lone surrogate, which `encodeURIComponent`
 * throws on: the value itself, an item of an array, an object's member name or text value (a
 * nested value is written as JSON, which escapes it).
 */
function holdsLoneSurrogate(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isLoneSurrogateText);
  const object = asObject(value);
  return object
    ? Object.entries(object).some(
        ([member, inner]) =>
          isLoneSurrogateText(member) || isLoneSurrogateText(inner),
      )
    : isLoneSurrogateText(value);
}

/**
 * Why `value` cannot be written as the query parameter `name` of an operation with these
 * parameters, or undefined. Text holding a lone surrogate cannot be escaped at all. An item of an
 * unexploded array must not hold its delimiter (a comma for `form`, a space for `spaceDelimited`, a
 * pipe for `pipeDelimited`): escaped or not, `["red,green", "blue"]` would reach the API as three
 * items, past the `maxItems` the arguments were checked against. Otherwise only an object's
 * member names can go wrong, where they become names in the query (a `deepObject`'s
 * `name[member]`, an exploded object's `member`): a bracket in one would be read as another level
 * of the parameter, escaped or not (servers unescape a name before reading its brackets), and a
 * member written as the name of another query parameter would give that parameter, perhaps one the
 * call fixes, a second value.
 */
export function queryValueProblem(
  parameters: readonly QueryParameterStyle[],
  name: string,
  value: unknown,
): string | undefined {
  if (holdsLoneSurrogate(value)) return UNWRITABLE_SURROGATE;
  const { style, explode } = writing(
    parameters.find((p) => p.in === "query" && p.name === name),
  );
  if (style !== "deepObject" && !explode && Array.isArray(value)) {
    const [delimiter, named] = SPLIT_AT[style];
    const holding = value.find(
      (item) => typeof item === "string" && item.includes(delimiter),
    );
    if (holding !== undefined)
      return `cannot have an item holding ${named} (${described(holding)}): the API reads it as the break between two items; give ${style === "spaceDelimited" ? "each word" : "each part"} as an item of its own`;
  }
  const object = asObject(value);
  if (!object) return undefined;
  if (style !== "deepObject" && !explode) return undefined;
  for (const [member, inner] of Object.entries(object)) {
    if (inner === undefined || inner === null) continue;
    if (member.includes("[") || member.includes("]"))
      return `cannot have a member named ${described(member)}: the API would read its bracket as another level of the parameter; leave that member out`;
    if (member === "")
      return `cannot have a member with an empty name: the API would read it as a list; leave that member out`;
    const written = style === "deepObject" ? `${name}[${member}]` : member;
    const other =
      written !== name &&
      parameters.find(
        (p) =>
          p.in === "query" && p.name !== name && sameQueryName(p.name, written),
      );
    if (other)
      return `cannot have a member named ${described(member)}: it would be sent as ${other.name === written ? written : `${described(written)}, which the API may read as ${other.name}`}, another parameter of this operation; leave that member out`;
  }
  const members = sentMembers(object);
  for (const [index, member] of members.entries()) {
    const twin = members
      .slice(index + 1)
      .find((later) => sameQueryName(member, later));
    if (twin !== undefined)
      return `cannot have both a member named ${described(member)} and one named ${described(twin)}: the API may read them as one; give only one of them`;
  }
  return undefined;
}

/** The names of an object's members that are written into the query: those with a value. */
const sentMembers = (object: Record<string, unknown>) =>
  Object.entries(object)
    .filter(([, inner]) => inner !== undefined && inner !== null)
    .map(([member]) => member);

/**
 * Why the query parameters of `query` cannot be sent together, or undefined: two exploded objects
 * each write their members as query parameters of their own, so a member of one named as a member
 * of the other (under the folding of {@link sameQueryName}) would give the API one parameter twice,
 * each object's value checked but not the pair. Parameters are named in the answer by `label`.
 */
export function queryMembersProblem(
  parameters: readonly QueryParameterStyle[],
  query: Record<string, unknown>,
  label: (name: string) => string = (name) => name,
): string | undefined {
  const written: { name: string; member: string }[] = [];
  for (const [name, value] of Object.entries(query)) {
    const { style, explode } = writing(
      parameters.find((p) => p.in === "query" && p.name === name),
    );
    const object = asObject(value);
    if (!object || style === "deepObject" || !explode) continue;
    for (const member of sentMembers(object)) {
      const earlier = written.find(
        (other) => other.name !== name && sameQueryName(other.member, member),
      );
      if (earlier)
        return `${label(earlier.name)}'s member ${described(earlier.member)} and ${label(name)}'s member ${described(member)} would both be sent as a query parameter of their own, which the API may read as one parameter given twice; give it in only one of them`;
      written.push({ name, member });
    }
  }
  return undefined;
}

function queryPart(
  name: string,
  value: unknown,
  style: QueryStyle,
  explode: boolean,
): string[] {
  const key = queryName(name);
  if (Array.isArray(value)) {
    const items = value.filter((item) => item !== undefined && item !== null);
    if (items.length === 0) return [];
    // A deepObject array, which OpenAPI leaves undefined, is sent as the APIs declaring one read it: `expand[]=a&expand[]=b`.
    if (style === "deepObject")
      return items.map((item) => `${key}[]=${queryValue(item)}`);
    return explode
      ? items.map((item) => `${key}=${queryValue(item)}`)
      : [`${key}=${items.map(queryValue).join(DELIMITERS[style])}`];
  }
  const object = asObject(value);
  if (object) {
    const entries = Object.entries(object).filter(
      ([, inner]) => inner !== undefined && inner !== null,
    );
    if (style === "deepObject")
      return entries.map(
        ([member, inner]) =>
          `${key}[${memberName(member)}]=${queryValue(inner)}`,
      );
    if (explode)
      return entries.map(
        ([member, inner]) => `${memberName(member)}=${queryValue(inner)}`,
      );
    return entries.length
      ? [
          `${key}=${entries.flatMap(([member, inner]) => [memberName(member), queryValue(inner)]).join(DELIMITERS[style])}`,
        ]
      : [];
  }
  return [`${key}=${queryValue(value)}`];
}

/**
 * openapi-fetch's `querySerializer` for one operation: each query parameter written by its own
 * style and explode (`filter[id]=a,b` for `form` unexploded), where the client's default would
 * write every array exploded and every object as `deepObject`. A value {@link queryValueProblem}
 * refuses, or a query {@link queryMembersProblem} refuses, throws, so the request is not sent.
 */
export function queryStringFor(
  parameters: readonly QueryParameterStyle[],
): (query: Record<string, unknown>) => string {
  const styles = new Map(
    parameters.filter((p) => p.in === "query").map((p) => [p.name, p]),
  );
  return (query) => {
    const parts: string[] = [];
    const clash = queryMembersProblem(parameters, query ?? {});
    if (clash) throw new Error(`query parameter ${clash}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      const problem = queryValueProblem(parameters, name, value);
      if (problem) throw new Error(`query parameter ${name} ${problem}`);
      const { style, explode } = writing(styles.get(name));
      parts.push(...queryPart(name, value, style, explode));
    }
    return parts.join("&");
  };
}
