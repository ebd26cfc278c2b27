// The model's `next` read back into arguments: only the operation's own query parameters, those
// the model sets, each checked as the argument it stands for.

import { argumentProblem, coded, type InputSchema } from "./arguments.js";
import { asObject, setOwn } from "./json.js";
import {
  queryValueProblem,
  type QueryStyle,
  queryStringFor,
} from "./query-string.js";
import { described } from "./quoting.js";

/** The most characters of a `next`: a longer one is not made, and not taken back. */
export const MAX_NEXT_CHARACTERS = 2_000;

/** The part of a call's parameter a `next` is read against. */
export interface NextParameter {
  readonly name: string;
  readonly in: string;
  readonly argument?: string;
  readonly fixed?: { readonly value: unknown };
  /** Word to code: a `next` carries the code, the argument takes the word. */
  readonly legend?: ReadonlyArray<readonly [word: string, code: unknown]>;
  readonly style?: QueryStyle;
  readonly explode?: boolean;
}

/** The arguments a `next` stands for, merged over the others, and the names it set; or why it is refused. */
export type NextArguments =
  | { readonly values: unknown; readonly fromNext: readonly string[] }
  | { readonly error: string };

/** The arguments a `next` alone stands for, in the order it gives them; or what is wrong with it, said of the `next`. */
type NextReading =
  | {
      readonly values: Readonly<Record<string, unknown>>;
      readonly fromNext: readonly string[];
    }
  | { readonly problem: string };

/**
 * What parts an unexploded list's items in a query as it is written: the delimiter itself, never its
 * escape, which is part of an item (`ids=a%2Cb` is the one item `a,b`, as the tool sends it). A
 * space cannot stand in a query as itself, so its escape parts a space-delimited list.
 */
const DELIMITERS: Readonly<Record<string, RegExp>> = {
  form: /,/,
  spaceDelimited: /%20/i,
  pipeDelimited: /\|/,
};

/** What joins an unexploded list's items as the tool writes them. */
const WRITTEN_DELIMITERS: Readonly<Record<string, string>> = {
  form: ",",
  spaceDelimited: "%20",
  pipeDelimited: "|",
};

/**
 * An unexploded list parameter's value as a `next` writes it: the items the API wrote, each escaped
 * as the tool escapes an item, joined by the delimiter; undefined for another parameter.
 */
export function delimitedText(
  parameter: NextParameter | undefined,
  written: string,
): string | undefined {
  return delimitedItems(parameter, written)
    ?.map(encodeURIComponent)
    .join(WRITTEN_DELIMITERS[parameter?.style ?? "form"]);
}

/** The items of an unexploded list parameter, each decoded, from the text the query writes; undefined for another parameter. */
function delimitedItems(
  parameter: NextParameter | undefined,
  written: string,
): string[] | undefined {
  const style = parameter?.style ?? "form";
  const delimiter = DELIMITERS[style];
  if (delimiter === undefined || (parameter?.explode ?? style === "form"))
    return undefined;
  return written.split(delimiter).map(decodeURIComponent);
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A value of a `next` as the schema's argument takes it: a number or boolean where it takes one, a word for a code. */
function argumentValue(
  schema: InputSchema | undefined,
  text: string,
  legend: NextParameter["legend"],
): unknown {
  const word = legend?.find(([, code]) => String(code) === text)?.[0];
  if (word !== undefined) return word;
  const types = typesOf(schema);
  if (
    (types.includes("integer") || types.includes("number")) &&
    NUMBER.test(text)
  )
    return Number(text);
  if (types.includes("boolean") && (text === "true" || text === "false"))
    return text === "true";
  return text;
}

const typesOf = (schema: InputSchema | undefined): unknown[] =>
  ([] as unknown[]).concat(schema?.["type"] ?? []);

/**
 * Whether {@link argumentValue} would read `text` as an integer past 2^53 − 1, rounded to another
 * one: the refusal then quotes the digits as the API wrote them, not the rounded number.
 */
const readsRounded = (schema: InputSchema | undefined, text: string) =>
  typesOf(schema).includes("integer") &&
  !typesOf(schema).includes("number") &&
  /^-?\d+$/.test(text) &&
  !Number.isSafeInteger(Number(text));

/** The parameter a query name of a `next` sets: its own, or the object parameter whose member `name[member]` is. */
function settableName(
  settable: readonly string[],
  name: string,
): string | undefined {
  if (settable.includes(name)) return name;
  const member = /^(.+)\[[^\]]*\]$/.exec(name);
  return member && settable.includes(member[1]!) ? member[1] : undefined;
}

const schemaOf = (schema: InputSchema | undefined, key: string) => {
  const inner = asObject(schema?.[key]);
  return inner as InputSchema | undefined;
};

/**
 * The arguments with the model's `next` read into them: each of its query parameters must be one
 * the model sets (a fixed one only with its fixed value), and becomes that argument, over any the
 * model also passed, to be checked against the input schema like the rest. A `next` that is a URL,
 * names another parameter, or cannot be read is refused, so no request is sent.
 */
export function nextPageArguments(
  tool: string,
  parameters: readonly NextParameter[],
  schema: InputSchema,
  args: unknown,
): NextArguments {
  const given = asObject(args);
  if (!given || !Object.hasOwn(given, "next") || given["next"] === undefined)
    return { values: args, fromNext: [] };
  const token = given["next"];
  const reading =
    typeof token === "string"
      ? readNext(parameters, schema, token)
      : { problem: `must be text, not ${described(token)}` };
  if ("problem" in reading)
    return {
      error: `${tool}: next ${reading.problem}; pass the \`next\` of a ${tool} result as it was given, with the other arguments as before`,
    };
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given))
    if (key !== "next") setOwn(values, key, value);
  for (const argument of reading.fromNext)
    setOwn(values, argument, reading.values[argument]);
  return { values, fromNext: reading.fromNext };
}

/**
 * The arguments a `next` stands for, as the tool reads it back: the one reading of a `next`, which
 * the result's `next` is checked by before it is handed out (see {@link nextProblem}).
 */
function readNext(
  parameters: readonly NextParameter[],
  schema: InputSchema,
  token: string,
): NextReading {
  const refuse = (problem: string): NextReading => ({ problem });
  if (token === "") return refuse("is empty");
  if (token.length > MAX_NEXT_CHARACTERS)
    return refuse(`is longer than ${MAX_NEXT_CHARACTERS} characters`);
  if (token.includes("://") || token.startsWith("/"))
    return refuse(
      `${described(token)} is a URL; it takes only the query parameters of this tool's own operation`,
    );
  const query = parameters.filter((p) => p.in === "query");
  const settable = query
    .filter((p) => p.argument !== undefined && !p.fixed)
    .map((p) => p.name);
  const texts = new Map<
    string,
    { member?: string; text: string; written: string }[]
  >();
  for (const pair of token.split("&")) {
    const equals = pair.indexOf("=");
    let name: string;
    let text: string;
    try {
      name = decodeURIComponent(equals === -1 ? pair : pair.slice(0, equals));
      text = decodeURIComponent(equals === -1 ? "" : pair.slice(equals + 1));
    } catch {
      return refuse(`${described(token)} is not a query string`);
    }
    if (equals === -1 || name === "")
      return refuse(`${described(pair)} is not a name=value pair`);
    const fixed = query.find((p) => p.name === name && p.fixed);
    if (fixed) {
      const value = fixed.fixed!.value;
      const written = Array.isArray(value) ? value.join(",") : String(value);
      if (written === text) continue;
      return refuse(
        `would set ${described(name)}, which this tool fixes to ${described(written)}`,
      );
    }
    const owner = settableName(settable, name);
    if (owner === undefined)
      return refuse(
        `carries ${described(name)}, which is not a query parameter this tool takes`,
      );
    const items = texts.get(owner) ?? [];
    const member =
      owner === name ? undefined : name.slice(owner.length + 1, -1);
    // A member given twice would be read as its last value, a page the API did not name.
    if (member !== undefined && items.some((item) => item.member === member))
      return refuse(`gives ${described(name)} twice`);
    const written = equals === -1 ? "" : pair.slice(equals + 1);
    items.push(
      member === undefined ? { text, written } : { member, text, written },
    );
    texts.set(owner, items);
  }
  if (texts.size === 0)
    return refuse(`${described(token)} sets no parameter this tool takes`);
  const values: Record<string, unknown> = {};
  const fromNext: string[] = [];
  const properties = schemaOf(schema, "properties") ?? {};
  let rounded: string | undefined;
  const readValue = (
    declared: InputSchema | undefined,
    text: string,
    legend: NextParameter["legend"],
  ) => {
    if (rounded === undefined && readsRounded(declared, text)) rounded = text;
    return argumentValue(declared, text, legend);
  };
  for (const [name, items] of texts) {
    const parameter = query.find((p) => p.name === name)!;
    const argument = parameter.argument!;
    const shown = Object.hasOwn(properties, argument)
      ? (properties[argument] as InputSchema)
      : undefined;
    const members = items.filter((item) => item.member !== undefined);
    let value: unknown;
    if (members.length > 0) {
      if (members.length !== items.length)
        return refuse(`gives ${described(name)} both whole and by members`);
      const object: Record<string, unknown> = {};
      const memberSchemas = schemaOf(shown, "properties") ?? {};
      for (const { member, text } of members)
        setOwn(
          object,
          member!,
          readValue(
            Object.hasOwn(memberSchemas, member!)
              ? (memberSchemas[member!] as InputSchema)
              : undefined,
            text,
            undefined,
          ),
        );
      value = object;
    } else if (([] as unknown[]).concat(shown?.["type"]).includes("array")) {
      const listed = items.flatMap(
        (item) => delimitedItems(parameter, item.written) ?? [item.text],
      );
      const itemSchema = schemaOf(shown, "items");
      value = listed.map((text) =>
        readValue(itemSchema, text, parameter.legend),
      );
    } else {
      if (items.length > 1) return refuse(`gives ${described(name)} twice`);
      value = readValue(shown, items[0]!.text, parameter.legend);
    }
    if (rounded !== undefined)
      return refuse(
        `sets ${argument} to ${rounded}, past the integers from -(2^53 - 1) to 2^53 - 1 that JSON holds exactly`,
      );
    setOwn(values, argument, value);
    fromNext.push(argument);
  }
  return { values, fromNext };
}

/**
 * Why the tool would not take a `next` back and send the page it names: what it refuses reading it
 * ({@link readNext}), a value its input schema refuses, a query object the query would not carry,
 * or a value that would be sent otherwise than the `next` writes it (`page=1e3` sent as
 * `page=1000`, a list's items given apart that the query joins). Undefined for a `next` the tool
 * takes back and sends as it is written. `parameters` are the query parameters the model sets, and
 * `schema` holds their arguments' schemas.
 */
export function nextProblem(
  parameters: readonly NextParameter[],
  schema: InputSchema,
  token: string,
): string | undefined {
  const reading = readNext(parameters, schema, token);
  if ("problem" in reading) return reading.problem;
  const properties = schemaOf(schema, "properties") ?? {};
  const names = parameters.map((p) => p.name);
  const written = queryPairs(token);
  const sending = queryStringFor(parameters);
  for (const argument of reading.fromNext) {
    const parameter = parameters.find((p) => p.argument === argument)!;
    const value = reading.values[argument];
    const sent = coded(parameter.legend, value);
    const problem =
      argumentProblem(
        Object.hasOwn(properties, argument)
          ? (properties[argument] as InputSchema)
          : {},
        value,
        argument,
      ) ?? queryValueProblem(parameters, parameter.name, sent);
    if (problem) return `is not a page this tool can ask for: ${problem}`;
    const query = queryText(
      queryPairs(sending({ [parameter.name]: sent })),
      parameter,
    );
    const named = queryText(
      written.filter(([name]) => settableName(names, name) === parameter.name),
      parameter,
    );
    if (query !== named)
      return `would be sent as ${described(query)}, not as the API named it, ${described(named)}`;
  }
  return undefined;
}

/** A query's `name=value` pairs, the name decoded, the value as written. */
function queryPairs(query: string): [name: string, written: string][] {
  return query
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const equals = pair.indexOf("=");
      return [
        decodeURIComponent(pair.slice(0, equals)),
        pair.slice(equals + 1),
      ];
    });
}

/**
 * A parameter's pairs as one text, in order of their text (the same pairs in any order are the same
 * query), each value as the API reads it: an unexploded list as its items escaped and joined, so
 * that a delimiter stays apart from an escaped one, anything else decoded.
 */
const queryText = (
  pairs: readonly (readonly [string, string])[],
  parameter: NextParameter,
) =>
  pairs
    .map(
      ([name, written]) =>
        `${name}=${delimitedText(parameter, written) ?? decodeURIComponent(written)}`,
    )
    .sort()
    .join("&");
