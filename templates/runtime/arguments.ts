// Checking the model's arguments against a tool's input schema, with messages it can act on.

import { MAX_NESTING } from "./json.js";
import { PATTERN_STEPS, patternMatches, type StepBudget } from "./patterns.js";
import { clipped, printable } from "./quoting.js";

/** The JSON Schema subset tool definitions use, as data. */
export type InputSchema = { readonly [keyword: string]: unknown };

/** Words to codes, as a parameter or body property takes them. */
export type Legend = ReadonlyArray<readonly [word: string, code: unknown]>;

/** The code for a word, or the value as given when it is no word of the legend. */
export const codeOf = (legend: Legend, value: unknown): unknown =>
  legend.find(([word]) => word === value)?.[1] ?? value;

/** A parameter's value as the API takes it: a word its code, and a list of words the list of codes. */
export function coded(legend: Legend | undefined, value: unknown): unknown {
  if (!legend) return value;
  return Array.isArray(value)
    ? value.map((word) => codeOf(legend, word))
    : codeOf(legend, value);
}

const typeMatches = (type: unknown, value: unknown): boolean => {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return (
        typeof value === "object" && value !== null && !Array.isArray(value)
      );
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === type;
  }
};

/** The most characters of JSON text a tool call's arguments may take: 1 MiB. */
export const MAX_ARGUMENT_CHARACTERS = 1_048_576;

/**
 * Why the arguments are too large to check, or undefined: their JSON text would pass
 * {@link MAX_ARGUMENT_CHARACTERS}, counting each string by its length, or an argument nests lists
 * and objects past {@link MAX_NESTING}. The walk stops once the count passes the bound, so a huge or
 * cyclic value costs no more than one within it, and it never recurses, so no depth stops it.
 */
export function argumentsSizeProblem(args: unknown): string | undefined {
  let left = MAX_ARGUMENT_CHARACTERS;
  const waiting: unknown[] = [args];
  const depths: number[] = [0];
  // The argument each waiting value sits in, for the message; the arguments object itself is none.
  const names: (string | undefined)[] = [undefined];
  while (waiting.length > 0) {
    const value = waiting.pop();
    const depth = depths.pop()!;
    const name = names.pop();
    if (typeof value === "string") left -= value.length + 2;
    else if (typeof value === "object" && value !== null) {
      left -= 2;
      if (depth > MAX_NESTING)
        return `${name === undefined ? "the arguments" : shownName(name)} nests lists and objects more than ${MAX_NESTING} deep; pass a flatter value`;
      const wait = (item: unknown, key: string) => {
        waiting.push(item);
        depths.push(depth + 1);
        names.push(name ?? key);
      };
      if (Array.isArray(value)) {
        // Each item costs at least its comma, so a long or sparse array stops the walk as soon.
        for (let i = 0; i < value.length && left >= 0; i++) {
          left -= 1;
          wait(value[i], "the arguments");
        }
      } else {
        const object = value as Record<string, unknown>;
        for (const key of Object.keys(object)) {
          left -= key.length + 4;
          if (left < 0) break;
          wait(object[key], key);
        }
      }
    } else left -= String(value).length;
    if (left < 0)
      return `the arguments are too large: their JSON text is over ${MAX_ARGUMENT_CHARACTERS} characters; pass shorter values`;
  }
  return undefined;
}

/** A string's length in characters (code points), as minLength and maxLength count it. */
function characterCount(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++, count++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

/** The most characters of an argument a message echoes: the model wrote it, and need not read it back whole. */
const SHOWN_CHARACTERS = 80;

/**
 * A value as a message echoes it: JSON, bounded and {@link printable}, since JSON leaves the
 * bidirectional and zero-width characters as they are; a number JSON cannot write as itself
 * (`Infinity`, `NaN`).
 */
function shown(value: unknown): string {
  const text =
    typeof value === "number" && !Number.isFinite(value)
      ? String(value)
      : (JSON.stringify(value) ?? String(value));
  return printable(clipped(text, SHOWN_CHARACTERS));
}

/** A member's name as a message echoes it: the model chose it, so it is bounded and {@link printable} like a value. */
const shownName = (name: string): string =>
  printable(clipped(name, SHOWN_CHARACTERS));

/** Whether two JSON values are equal, objects and arrays by content, as `const` and `enum` compare them. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const [left, right] = [
    a as Record<string, unknown>,
    b as Record<string, unknown>,
  ];
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every(
      (key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]),
    )
  );
}

/** A string that is not well-formed UTF-16 (a lone surrogate) cannot be sent in a URL or as JSON text. */
export const LONE_SURROGATE = /\p{Cs}/u;

/**
 * What is wrong with `value` against `schema`, said so the model can correct it, or undefined when
 * it fits. Checks the keywords tool definitions carry; others (format) are left to the API, and so
 * is a pattern once the call's {@link PATTERN_STEPS} are spent.
 */
export function argumentProblem(
  schema: InputSchema,
  value: unknown,
  at: string,
): string | undefined {
  return problemAt(schema, value, at === "" ? "the arguments" : at, at, {
    left: PATTERN_STEPS,
  });
}

/**
 * `schema` with `checks` laid over it: objects merged member by member, any other value replaced.
 * A tool checks the full ids the id book expands against the spec's own constraints, which its
 * input schema leaves out so that the short forms pass.
 */
export function overlaid(
  schema: InputSchema,
  checks: InputSchema,
): InputSchema {
  const merged: Record<string, unknown> = { ...schema };
  for (const [keyword, value] of Object.entries(checks)) {
    const base = merged[keyword];
    const nested =
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      typeof base === "object" &&
      base !== null &&
      !Array.isArray(base);
    Object.defineProperty(merged, keyword, {
      value: nested
        ? overlaid(base as InputSchema, value as InputSchema)
        : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}

/**
 * Every branch's problem, since the first may not be the form the model meant; branches that only
 * differ in type (a nullable value) are said as one: "must be string or null, not 3".
 */
function anyOfProblem(
  problems: string[],
  subject: string,
  value: unknown,
): string {
  const [prefix, suffix] = [`${subject} must be `, `, not ${shown(value)}`];
  const wanted = problems.map((p) =>
    p.startsWith(prefix) && p.endsWith(suffix)
      ? p.slice(prefix.length, -suffix.length)
      : undefined,
  );
  if (!wanted.includes(undefined))
    return `${prefix}${wanted.join(" or ")}${suffix}`;
  return problems.length === 1
    ? problems[0]!
    : `${subject} fits none of its forms: ${problems.join("; or ")}`;
}

/** {@link argumentProblem}: `subject` names the value in a message, `at` is the path inner names extend. */
function problemAt(
  schema: InputSchema,
  value: unknown,
  subject: string,
  at: string,
  budget: StepBudget,
): string | undefined {
  const types =
    schema["type"] === undefined
      ? undefined
      : ([] as unknown[]).concat(schema["type"]);
  if (types && !types.some((type) => typeMatches(type, value)))
    return `${subject} must be ${types.join(" or ")}, not ${shown(value)}`;
  // JSON numbers past 2^53 are rounded as they are parsed: the model may have meant another one.
  if (
    types?.includes("integer") &&
    !types.includes("number") &&
    Number.isInteger(value) &&
    !Number.isSafeInteger(value)
  )
    return `${subject} must be an integer from -(2^53 - 1) to 2^53 - 1, which JSON holds exactly, not ${shown(value)}`;
  const allowed = schema["enum"];
  if (
    Array.isArray(allowed) &&
    !allowed.some((member) => sameJson(member, value))
  )
    return `${subject} must be one of ${allowed.map(shown).join(", ")}, not ${shown(value)}`;
  if ("const" in schema && !sameJson(schema["const"], value))
    return `${subject} must be ${shown(schema["const"])}`;
  const every = schema["allOf"];
  if (Array.isArray(every))
    for (const part of every as InputSchema[]) {
      const problem = problemAt(part, value, subject, at, budget);
      if (problem) return problem;
    }
  const branches = schema["anyOf"];
  if (Array.isArray(branches)) {
    const problems = branches.map((branch: InputSchema) =>
      problemAt(branch, value, subject, at, budget),
    );
    if (!problems.includes(undefined))
      return anyOfProblem(problems as string[], subject, value);
  }
  const limit = (keyword: string) =>
    typeof schema[keyword] === "number"
      ? (schema[keyword] as number)
      : undefined;
  if (typeof value === "number") {
    const [min, max, above, below] = [
      limit("minimum"),
      limit("maximum"),
      limit("exclusiveMinimum"),
      limit("exclusiveMaximum"),
    ];
    if (min !== undefined && value < min)
      return `${subject} must be at least ${min}`;
    if (max !== undefined && value > max)
      return `${subject} must be at most ${max}`;
    if (above !== undefined && value <= above)
      return `${subject} must be above ${above}`;
    if (below !== undefined && value >= below)
      return `${subject} must be below ${below}`;
  }
  if (typeof value === "string") {
    const [min, max] = [limit("minLength"), limit("maxLength")];
    const length = characterCount(value);
    if (min !== undefined && length < min)
      return `${subject} must have at least ${min} characters`;
    if (max !== undefined && length > max)
      return `${subject} must have at most ${max} characters`;
    if (
      typeof schema["pattern"] === "string" &&
      patternMatches(schema["pattern"], value, budget) === false
    )
      return `${subject} must match ${schema["pattern"]}`;
    if (LONE_SURROGATE.test(value))
      return `${subject} holds a lone surrogate (half of a character), which cannot be sent`;
  }
  if (Array.isArray(value)) {
    const [min, max] = [limit("minItems"), limit("maxItems")];
    if (min !== undefined && value.length < min)
      return `${subject} must have at least ${min} items`;
    if (max !== undefined && value.length > max)
      return `${subject} must have at most ${max} items`;
    const items = schema["items"];
    if (typeof items === "object" && items !== null) {
      for (const [i, item] of value.entries()) {
        const problem = problemAt(
          items as InputSchema,
          item,
          `${at}[${i}]`,
          `${at}[${i}]`,
          budget,
        );
        if (problem) return problem;
      }
    }
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema["properties"] ?? {}) as Record<
      string,
      InputSchema
    >;
    const inner = (name: string) =>
      at === "" ? shownName(name) : `${at}.${shownName(name)}`;
    for (const name of Array.isArray(schema["required"])
      ? (schema["required"] as string[])
      : []) {
      if (!Object.hasOwn(object, name) || object[name] === undefined)
        return `${inner(name)} is required`;
    }
    const additional = schema["additionalProperties"];
    for (const [name, item] of Object.entries(object)) {
      if (item === undefined) continue;
      const declared = Object.hasOwn(properties, name);
      if (!declared && additional === false)
        return `${inner(name)} is not an argument here; accepted: ${Object.keys(properties).join(", ") || "none"}`;
      // A member the schema does not name is checked against `additionalProperties`, when that is a schema.
      const memberSchema = declared
        ? properties[name]!
        : typeof additional === "object" && additional !== null
          ? (additional as InputSchema)
          : undefined;
      const problem =
        memberSchema &&
        problemAt(memberSchema, item, inner(name), inner(name), budget);
      if (problem) return problem;
    }
  }
  return undefined;
}
