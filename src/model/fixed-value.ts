import type { JsonSchema } from "./types.js";

const MAX_SHOWN = 8;
const shown = (values: unknown[]) =>
  values
    .slice(0, MAX_SHOWN)
    .map((v) => JSON.stringify(v))
    .join(", ") + (values.length > MAX_SHOWN ? ", ..." : "");

/** Each JSON Schema type: how a message names it, and whether a value is of it. A type not named here takes any value. */
const TYPES = new Map<unknown, { word: string; has: (value: unknown) => boolean }>([
  ["string", { word: "text", has: (value) => typeof value === "string" }],
  ["integer", { word: "a whole number", has: (value) => typeof value === "number" && Number.isInteger(value) }],
  ["number", { word: "a number", has: (value) => typeof value === "number" && Number.isFinite(value) }],
  ["boolean", { word: "true or false", has: (value) => typeof value === "boolean" }],
  ["array", { word: "a list", has: (value) => Array.isArray(value) }],
  ["object", { word: "an object", has: (value) => typeof value === "object" && value !== null && !Array.isArray(value) }],
  ["null", { word: "null", has: (value) => value === null }],
]);
const hasType = (value: unknown, type: unknown): boolean => TYPES.get(type)?.has(value) ?? true;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Why a `fixed:` value does not fit the parameter's schema (a definition's schema: `$ref`s
 * inlined), or undefined when it fits. The value is sent on every call as written, so the API
 * would refuse each of them: better said once, at generate time.
 */
export function fixedValueProblem(value: unknown, schema: JsonSchema, where = "it"): string | undefined {
  const types = schema["type"] === undefined ? [] : ([] as unknown[]).concat(schema["type"]);
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    // YAML reads `fixed: 20` as a number: for a text parameter, the fix is quotes.
    const quote = types.includes("string") && (typeof value === "number" || typeof value === "boolean") ? ` (quote it: "${value}")` : "";
    return `${where} must be ${types.map((t) => TYPES.get(String(t))?.word ?? String(t)).join(" or ")}, not ${JSON.stringify(value)}${quote}`;
  }
  const values = schema["enum"];
  if (Array.isArray(values) && !values.some((v) => same(v, value)))
    return `${where} is ${JSON.stringify(value)}, not one of the spec's values (${shown(values)})`;
  if ("const" in schema && !same(schema["const"], value)) return `${where} must be ${JSON.stringify(schema["const"])}`;
  if (typeof value === "number") {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
    if (typeof minimum === "number" && value < minimum) return `${where} is ${value}, below the minimum ${minimum}`;
    if (typeof maximum === "number" && value > maximum) return `${where} is ${value}, above the maximum ${maximum}`;
    if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum) return `${where} must be above ${exclusiveMinimum}`;
    if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum) return `${where} must be below ${exclusiveMaximum}`;
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (typeof schema["minLength"] === "number" && length < schema["minLength"])
      return `${where} is shorter than ${schema["minLength"]} characters`;
    if (typeof schema["maxLength"] === "number" && length > schema["maxLength"])
      return `${where} is longer than ${schema["maxLength"]} characters`;
    if (typeof schema["pattern"] === "string" && !matches(schema["pattern"], value))
      return `${where} does not match the pattern ${schema["pattern"]}`;
  }
  if (Array.isArray(value)) {
    if (typeof schema["minItems"] === "number" && value.length < schema["minItems"])
      return `${where} has fewer than ${schema["minItems"]} items`;
    if (typeof schema["maxItems"] === "number" && value.length > schema["maxItems"])
      return `${where} has more than ${schema["maxItems"]} items`;
    const items = schema["items"];
    if (typeof items === "object" && items !== null)
      for (let i = 0; i < value.length; i++) {
        const problem = fixedValueProblem(value[i], items as JsonSchema, `item ${i + 1}`);
        if (problem) return problem;
      }
  }
  const branches = schema["anyOf"];
  if (
    Array.isArray(branches) &&
    branches.length > 0 &&
    branches.every((b) => fixedValueProblem(value, b as JsonSchema, where) !== undefined)
  )
    return `${where} fits none of the spec's alternatives`;
  return undefined;
}

/** A pattern the spec writes in a syntax JavaScript cannot read is not held against the value. */
function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return true;
  }
}
