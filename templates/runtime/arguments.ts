// Checking the model's arguments against a tool's input schema, with messages it can act on.

/** The JSON Schema subset tool definitions use, as data. */
export type InputSchema = { readonly [keyword: string]: unknown };

const typeMatches = (type: unknown, value: unknown): boolean => {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === type;
  }
};

/** A pattern JavaScript cannot compile is left to the API to check, rather than refusing every value. */
function patternRejects(pattern: string, value: string): boolean {
  try {
    return !new RegExp(pattern, "u").test(value);
  } catch {
    return false;
  }
}

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

/**
 * What is wrong with `value` against `schema`, said so the model can correct it, or undefined when
 * it fits. Checks the keywords tool definitions carry; others (format) are left to the API.
 */
export function argumentProblem(schema: InputSchema, value: unknown, at: string): string | undefined {
  const types = schema["type"] === undefined ? undefined : ([] as unknown[]).concat(schema["type"]);
  if (types && !types.some((type) => typeMatches(type, value))) return `${at} must be ${types.join(" or ")}, not ${shown(value)}`;
  const allowed = schema["enum"];
  if (Array.isArray(allowed) && !allowed.includes(value))
    return `${at} must be one of ${allowed.map(shown).join(", ")}, not ${shown(value)}`;
  if ("const" in schema && schema["const"] !== value) return `${at} must be ${shown(schema["const"])}`;
  const branches = schema["anyOf"];
  if (Array.isArray(branches) && !branches.some((branch: InputSchema) => argumentProblem(branch, value, at) === undefined)) {
    return argumentProblem(branches[0] as InputSchema, value, at);
  }
  const limit = (keyword: string) => (typeof schema[keyword] === "number" ? (schema[keyword] as number) : undefined);
  if (typeof value === "number") {
    const [min, max, above, below] = [limit("minimum"), limit("maximum"), limit("exclusiveMinimum"), limit("exclusiveMaximum")];
    if (min !== undefined && value < min) return `${at} must be at least ${min}`;
    if (max !== undefined && value > max) return `${at} must be at most ${max}`;
    if (above !== undefined && value <= above) return `${at} must be above ${above}`;
    if (below !== undefined && value >= below) return `${at} must be below ${below}`;
  }
  if (typeof value === "string") {
    const [min, max] = [limit("minLength"), limit("maxLength")];
    const length = [...value].length;
    if (min !== undefined && length < min) return `${at} must have at least ${min} characters`;
    if (max !== undefined && length > max) return `${at} must have at most ${max} characters`;
    if (typeof schema["pattern"] === "string" && patternRejects(schema["pattern"], value)) return `${at} must match ${schema["pattern"]}`;
  }
  if (Array.isArray(value)) {
    const [min, max] = [limit("minItems"), limit("maxItems")];
    if (min !== undefined && value.length < min) return `${at} must have at least ${min} items`;
    if (max !== undefined && value.length > max) return `${at} must have at most ${max} items`;
    const items = schema["items"];
    if (typeof items === "object" && items !== null) {
      for (const [i, item] of value.entries()) {
        const problem = argumentProblem(items as InputSchema, item, `${at}[${i}]`);
        if (problem) return problem;
      }
    }
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema["properties"] ?? {}) as Record<string, InputSchema>;
    const inner = (name: string) => (at === "" ? name : `${at}.${name}`);
    for (const name of Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []) {
      if (!Object.hasOwn(object, name) || object[name] === undefined) return `${inner(name)} is required`;
    }
    for (const [name, item] of Object.entries(object)) {
      if (item === undefined) continue;
      if (!Object.hasOwn(properties, name)) {
        if (schema["additionalProperties"] === false)
          return `${inner(name)} is not an argument here; accepted: ${Object.keys(properties).join(", ") || "none"}`;
        continue;
      }
      const problem = argumentProblem(properties[name]!, item, inner(name));
      if (problem) return problem;
    }
  }
  return undefined;
}
