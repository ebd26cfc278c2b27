import type { Diagnostic } from "../diagnostics.js";
import { DiagnosticError, overflowedStack, refusal } from "../diagnostics.js";
import { withArticle } from "../indefinite-article.js";
import { DROP_NEEDS_REASON, parseDrop } from "../rules/drop.js";
import { KEEP_KEYS, parseKept, RULE_KEYS } from "../rules/field-rules.js";
import { parseLegend } from "../rules/legend.js";
import type { ParseProblem } from "../rules/types.js";
import { didYouMean } from "../suggest.js";
import { aliasesOverLimit, MAX_ALIAS_GROWTH } from "../yaml-aliases.js";
import { parseJson, parseYamlSource, type YamlSource } from "../yaml-source.js";
import { parseNext } from "./next-page.js";
import { parseServe } from "./serve.js";
import type {
  Annotation,
  FieldAnnotation,
  FieldRule,
  InputAnnotation,
  PageField,
  ResolverAnnotation,
  ResourceAnnotation,
  ToolAnnotation,
  YamlPath,
  CheckKeys,
  Problem,
} from "./types.js";

const TOP_KEYS = ["spec", "output", "resolvers", "resources", "tools", "serve"];
const RESOLVER_KEYS = ["type", "label", "id", "operation", "ids", "max", "concurrency"];
const RESOURCE_KEYS = ["schema", "fields"];
const TOOL_KEYS = ["operation", "list", "rows", "resource", "record", "page", "budget", "text", "description", "inputs", "title", "hints"];
const HINT_KEYS = ["readOnly", "destructive", "idempotent", "openWorld"] as const;
const INPUT_KEYS = ["as", "drop", "fixed", "description", "legend"];
const FIELD_HELP = `a field is \`keep\`, \`{ drop: "reason" }\`, or an object with ${KEEP_KEYS.join(", ")}`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is { [key: string]: Json } => typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: Json | undefined): value is number => typeof value === "number" && Number.isInteger(value) && value > 0;
const isText = (value: Json | undefined): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Reads `projector.yaml` (YAML or JSON) into a typed annotation. Every shape problem is collected,
 * not just the first, so one run shows a person everything to fix.
 */
export function parseAnnotation(text: string, file: string): Annotation {
  const json = file.toLowerCase().endsWith(".json");
  const parsed = json ? parseJson(text.replace(/^\uFEFF/, "")) : undefined;
  const jsonError = parsed && "error" in parsed ? parsed.error : undefined;
  if (jsonError) {
    throw refusal("PRJ001", `JSON syntax: ${jsonError.message}`, "fix the JSON at this position", {
      file,
      line: jsonError.line,
      column: jsonError.column,
    });
  }
  const source = parseYamlSource(text, file);
  const locate: Annotation["locate"] = (path, part) => source.locate(path, part);
  const root = readFully(source, file, json);
  const diagnostics: Diagnostic[] = [];
  const problem = (path: YamlPath, message: string, help: string, part: "key" | "value" = "value") =>
    diagnostics.push({ code: "PRJ002", severity: "error", message, help, location: locate(path, part) });

  const checkKeys: CheckKeys = (value, path, allowed, where) => {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) {
        problem(
          [...path, key],
          `unknown key "${key}" in ${where}${didYouMean(key, allowed)}`,
          `allowed here: ${allowed.join(", ")}`,
          "key",
        );
      }
    }
  };
  const text_ = (value: Json | undefined, path: YamlPath, what: string): string | undefined => {
    if (value === undefined || isText(value)) return value;
    problem(path, `${what} must be a non-empty string`, `write ${what} as text`);
    return undefined;
  };
  const map = (value: Json | undefined, path: YamlPath, what: string): { [key: string]: Json } => {
    if (value === undefined || value === null) return {};
    if (isObject(value)) return value;
    problem(path, `${what} must be a mapping`, `write ${what} as "name: value" lines`);
    return {};
  };

  if (!isObject(root)) {
    throw refusal(
      "PRJ002",
      "the annotation file must be a mapping with spec, output, resources and tools",
      "start from `projector init SPEC`, or see the README's annotation walkthrough",
      { file, line: 1, column: 1 },
    );
  }
  if ("openapi" in root || "swagger" in root) {
    throw refusal(
      "PRJ002",
      "this is an OpenAPI document, not an annotation file",
      "pass the annotation file to -c; it names the spec with `spec: path/to/this-file`",
      locate(["openapi" in root ? "openapi" : "swagger"], "key"),
    );
  }
  checkKeys(root, [], TOP_KEYS, "the annotation file");
  const spec = text_(root["spec"], ["spec"], "spec");
  const output = text_(root["output"], ["output"], "output");
  if (spec === undefined && root["spec"] === undefined)
    problem([], "missing `spec`: the OpenAPI document to read", "add `spec: specs/api.yaml`");
  if (output === undefined && root["output"] === undefined)
    problem([], "missing `output`: the folder generate writes", "add `output: generated/api`");

  const resolvers: ResolverAnnotation[] = Object.entries(map(root["resolvers"], ["resolvers"], "resolvers")).map(([name, value]) => {
    const path = ["resolvers", name];
    const entry = map(value, path, `resolver ${name}`);
    checkKeys(entry, path, RESOLVER_KEYS, `resolver "${name}"`);
    const resolver: ResolverAnnotation = { name, path };
    for (const key of ["type", "label", "id", "operation", "ids"] as const) {
      const found = text_(entry[key], [...path, key], key);
      if (found !== undefined) resolver[key] = found;
    }
    for (const key of ["max", "concurrency"] as const) {
      const value = entry[key];
      if (isCount(value)) resolver[key] = value;
      else if (value !== undefined)
        diagnostics.push({
          code: "PRJ069",
          severity: "error",
          message: `resolver ${name}: ${key} must be a whole number above 0, not ${JSON.stringify(value)}`,
          help: key === "max" ? "write `max: 100`: the most ids one request carries" : "write `concurrency: 4`: the most requests at once",
          location: locate([...path, key]),
        });
    }
    const needsOperation = (["ids", "max", "concurrency"] as const).find((key) => entry[key] !== undefined);
    if (needsOperation !== undefined && entry["operation"] === undefined)
      problem(
        [...path, needsOperation],
        `resolver "${name}" has \`${needsOperation}\` but no \`operation\``,
        'name the operation that gives the labels: `{ operation: listUsers, ids: "filter[id]" }` or `{ operation: getUser }`',
        "key",
      );
    else if (entry["max"] !== undefined && entry["ids"] === undefined)
      diagnostics.push({
        code: "PRJ069",
        severity: "error",
        message: `resolver ${name}: \`max\` applies to a list operation filtered by \`ids\`, and this one has none`,
        help: 'add `ids: "filter[id]"` naming the query parameter that takes the ids, or remove `max`: a get-by-id operation takes one id a request',
        location: locate([...path, "max"], "key"),
      });
    if (resolver.type !== undefined && resolver.label === undefined) {
      problem(
        path,
        `resolver "${name}" names a type but no label`,
        "type is the JSON:API type in `included`; label the attribute holding its name",
      );
    }
    return resolver;
  });

  const resources: ResourceAnnotation[] = Object.entries(map(root["resources"], ["resources"], "resources")).map(([name, value]) => {
    const path = ["resources", name];
    const entry = map(value, path, `resource ${name}`);
    checkKeys(entry, path, RESOURCE_KEYS, `resource "${name}"`);
    const resource: ResourceAnnotation = { name, path, fields: [] };
    const schema = text_(entry["schema"], [...path, "schema"], "schema");
    if (schema !== undefined) resource.schema = schema;
    for (const [field, rule] of Object.entries(map(entry["fields"], [...path, "fields"], "fields"))) {
      const fieldPath = [...path, "fields", field];
      const parsed = parseFieldRule(rule, fieldPath, problem, checkKeys);
      if (parsed) resource.fields.push({ name: field, rule: parsed, path: fieldPath } satisfies FieldAnnotation);
    }
    return resource;
  });

  const tools: ToolAnnotation[] = Object.entries(map(root["tools"], ["tools"], "tools")).map(([name, value]) => {
    const path = ["tools", name];
    const entry = map(value, path, `tool ${name}`);
    checkKeys(entry, path, TOOL_KEYS, `tool "${name}"`);
    const operation = text_(entry["operation"], [...path, "operation"], "operation");
    if (entry["operation"] === undefined)
      problem(path, `tool "${name}" has no operation`, 'add `operation: operationId` or `operation: "GET /path"`');
    const tool: ToolAnnotation = { name, path, operation: operation ?? "", page: [], inputs: [] };
    for (const key of ["description", "title"] as const) {
      const found = text_(entry[key], [...path, key], key);
      if (found !== undefined) tool[key] = found;
    }
    if (entry["hints"] !== undefined) {
      const hintsPath = [...path, "hints"];
      const hints = map(entry["hints"], hintsPath, "hints");
      checkKeys(hints, hintsPath, [...HINT_KEYS], "hints");
      tool.hints = {};
      for (const key of HINT_KEYS) {
        const value = hints[key];
        if (typeof value === "boolean") tool.hints[key] = value;
        else if (value !== undefined)
          problem([...hintsPath, key], `hints.${key} must be true or false`, `write \`hints: { ${key}: true }\``);
      }
    }
    for (const [input, rule] of Object.entries(map(entry["inputs"], [...path, "inputs"], "inputs"))) {
      const parsed = parseInput(input, rule, [...path, "inputs", input], problem, checkKeys);
      if (parsed) tool.inputs.push(parsed);
    }
    for (const key of ["list", "rows", "resource", "record"] as const) {
      const found = text_(entry[key], [...path, key], key);
      if (found !== undefined) tool[key] = found;
    }
    for (const [key, source] of Object.entries(map(entry["page"], [...path, "page"], "page"))) {
      const sourcePath = [...path, "page", key];
      if (key === "next") {
        const next = parseNext(source, sourcePath, problem, checkKeys);
        if (next) tool.next = next;
        continue;
      }
      if (isObject(source)) {
        checkKeys(source, sourcePath, ["present"], `page.${key}`);
        const dotted = text_(source["present"], [...sourcePath, "present"], `page.${key}.present`);
        if (source["present"] === undefined)
          problem(sourcePath, `page.${key} is a path, or \`{ present: PATH }\``, `write \`${key}: { present: links.next }\``);
        if (dotted !== undefined)
          tool.page.push({ key, source: dotted, present: true, path: [...sourcePath, "present"] } satisfies PageField);
        continue;
      }
      const dotted = text_(source, sourcePath, `page.${key}`);
      if (dotted !== undefined) tool.page.push({ key, source: dotted, present: false, path: sourcePath } satisfies PageField);
    }
    const text = entry["text"];
    if (text === "table" || text === "json") tool.text = text;
    else if (text !== undefined)
      problem(
        [...path, "text"],
        `text must be \`json\` or \`table\`, not ${JSON.stringify(text)}`,
        "write `text: table` to send a list tool's result as a table, or leave it out for compact JSON",
      );
    if (entry["budget"] !== undefined) {
      const budgetPath = [...path, "budget"];
      const budget = map(entry["budget"], budgetPath, "budget");
      checkKeys(budget, budgetPath, ["tokens", "rows"], "a budget");
      const limits: { tokens?: number; rows?: number } = {};
      for (const key of ["tokens", "rows"] as const) {
        const value = budget[key];
        if (isCount(value)) limits[key] = value;
        else if (value !== undefined)
          problem([...budgetPath, key], `budget ${key} must be a whole number above 0`, `write \`budget: { ${key}: 4000 }\``);
      }
      if (budget["tokens"] === undefined && budget["rows"] === undefined)
        problem(budgetPath, "a budget needs tokens, rows, or both", "write `budget: { tokens: 4000 }`");
      tool.budget = limits;
    }
    return tool;
  });

  const serve = root["serve"] === undefined ? undefined : parseServe(root["serve"], problem, checkKeys);

  if (diagnostics.length > 0) throw new DiagnosticError(diagnostics);
  return { file, spec: spec ?? "", output: output ?? "", resolvers, resources, tools, ...(serve ? { serve } : {}), locate };
}

/**
 * The annotation as plain values, read by the full parser: its first syntax error, if any, is
 * thrown; its aliases must name anchors before them and stay small.
 */
function readFully(source: YamlSource, file: string, json: boolean): unknown {
  const firstError = source.errors[0];
  if (firstError) {
    const tooDeep = overflowedStack(firstError.message);
    // Later parse errors are almost always echoes of the first; one precise message is more useful.
    throw refusal(
      "PRJ001",
      tooDeep ? "the annotation nests more levels deep than can be read" : `${json ? "JSON" : "YAML"} syntax: ${firstError.message}`,
      tooDeep ? DEEP_HELP : json ? "fix the JSON at this position" : "fix the YAML at this position (JSON is accepted too)",
      // Where the reader ran out of stack depends on how deep the stack already was: the line is told, not the column.
      { file, line: firstError.line, column: tooDeep ? 1 : firstError.column },
    );
  }
  const aliases = source.aliases();
  const broken = aliases.find((alias) => alias.problem !== undefined);
  if (broken) {
    throw refusal(
      "PRJ001",
      broken.problem === "undefined"
        ? `YAML alias *${broken.name} names no anchor before it`
        : `YAML alias *${broken.name} stands inside the node it names, which makes an endless value`,
      `define \`&${broken.name}\` on a node above this line, outside it, or write the value out`,
      broken.location,
    );
  }
  // Every alias of an anchor shares one value, so reading is linear however many aliases there are.
  const root = source.document.toJS({ maxAliasCount: -1 }) as unknown;
  // Without aliases the value is as large as the text: nothing to count.
  if (aliases.length > 0 && aliasesOverLimit(root)) {
    throw refusal(
      "PRJ056",
      `YAML aliases expand the annotation by more than ${MAX_ALIAS_GROWTH.toLocaleString("en-US")} values`,
      "write the repeated blocks out, or use fewer levels of aliases inside anchors",
      aliases[0]!.location,
    );
  }
  const deep = deeperThan(root, MAX_ANNOTATION_DEPTH);
  if (deep)
    throw refusal(
      "PRJ001",
      `the annotation nests more than ${MAX_ANNOTATION_DEPTH} levels deep`,
      `${DEEP_HELP}, or aliases inside anchors`,
      source.locate(deep),
    );
  return root;
}

const DEEP_HELP =
  "an annotation goes a few levels deep (resources, a resource's fields, a field's rule): look here for brackets left open or a value pasted in";

/** How deep an annotation's values may nest: a fixed request body a few levels deep is far within it, and what is written from it compiles. */
const MAX_ANNOTATION_DEPTH = 64;

/** The path to the first value nested deeper than `depth`, aliases written out; undefined where none is. */
export function deeperThan(root: unknown, depth: number): YamlPath | undefined {
  const pending: [unknown, YamlPath][] = [[root, []]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value !== "object" || value === null) continue;
    if (path.length > depth) return path;
    for (const [key, inner] of Object.entries(value)) pending.push([inner, [...path, Array.isArray(value) ? Number(key) : key]]);
  }
  return undefined;
}

function parseFieldRule(value: Json, path: YamlPath, problem: Problem, checkKeys: CheckKeys): FieldRule | undefined {
  if (value === "keep") return { kind: "keep" };
  if (value === "drop") {
    problem(path, DROP_NEEDS_REASON.message, DROP_NEEDS_REASON.help);
    return undefined;
  }
  if (!isObject(value)) {
    problem(path, `cannot read ${JSON.stringify(value)} as a field rule`, FIELD_HELP);
    return undefined;
  }
  if ("todo" in value) {
    return { kind: "todo", note: typeof value["todo"] === "string" ? value["todo"] : "" };
  }
  const at: ParseProblem = (relative, message, help, part) => problem([...path, ...relative], message, help, part);
  if ("drop" in value) return parseDrop(value, at, (key) => RULE_KEYS.includes(key));
  checkKeys(value, path, [...RULE_KEYS], "a field rule");
  return parseKept(value, at);
}

function parseInput(name: string, value: Json, path: YamlPath, problem: Problem, checkKeys: CheckKeys): InputAnnotation | undefined {
  if (!isObject(value)) {
    problem(
      path,
      `cannot read ${JSON.stringify(value)} as an input rule`,
      "an input is an object with as, drop, fixed, description or legend, e.g. `{ as: query }`",
    );
    return undefined;
  }
  checkKeys(value, path, INPUT_KEYS, `input "${name}"`);
  const input: InputAnnotation = { name, path };
  const as = value["as"];
  if (as !== undefined) {
    if (typeof as === "string" && /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(as)) input.as = as;
    else
      problem(
        [...path, "as"],
        "`as` must be a name of letters, digits, _ . - (at most 64)",
        "write the argument name the model sees, e.g. `as: query`",
      );
  }
  const drop = value["drop"];
  if (isText(drop)) input.drop = drop;
  else if (drop !== undefined) problem([...path, "drop"], "a drop needs its reason", 'write `{ drop: "why the model never sets this" }`');
  if ("fixed" in value) input.fixed = value["fixed"];
  const description = value["description"];
  if (isText(description)) input.description = description;
  else if (description !== undefined)
    problem([...path, "description"], "`description` must be non-empty text", "write what the model should know about this argument");
  if (value["legend"] !== undefined) {
    const legend = parseLegend(value["legend"], [...path, "legend"], problem);
    if (legend?.source === "inline") input.legend = legend.words;
    else if (legend)
      problem(
        [...path, "legend"],
        "an input's legend is written inline",
        "write `legend: { 1: open, 2: pending }`; the spec's own legend is used without asking",
      );
  }
  const kinds = ["drop", "fixed"].filter((key) => key in value);
  if (kinds.length === 2 || (kinds.length === 1 && Object.keys(value).length > 1)) {
    problem(path, `${withArticle(`${kinds[0]} input`)} takes no other options`, "keep only `drop` or only `fixed`");
  }
  return input;
}
