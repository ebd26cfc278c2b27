import { createRequire } from "node:module";
import type { OpenAPI3 } from "openapi-typescript";
import type TypeScript from "typescript";
import { escapeHiddenCharacters } from "../control-characters.js";
import { overflowedStack, refusal, type SourceLocation } from "../diagnostics.js";
import type { Model } from "../model/types.js";
import { decodePointer, escapePointer, fragmentPointer, isJsonObject, SchemaReader, type JsonObject } from "../openapi/schema.js";
import { refSites, selfMadeRef } from "../openapi/refs.js";
import { TOO_DEEP_HELP } from "../openapi/too-deep.js";

// openapi-typescript's side of a generate, in a module of its own.
/**
 * The document as openapi-typescript should see it. Examples never affect types, and `externalValue`
 * ones make it try to read files. Maps of Example Objects (a media type's, parameter's or header's
 * `examples`, and `components.examples`) and an operation's code samples (`x-codeSamples`, which
 * openapi-typescript never reads, as it reads no extension but `x-enum-*`) are left out whole, unless
 * a `$ref` elsewhere leads into one: a quarter of some specs, which openapi-typescript's validator
 * and bundler would only walk. A `$ref` deeper than a whole component (`schemas/X/allOf/0`,
 * `parameters/p/schema`) becomes an indexed access type that does not compile, so its target is
 * inlined (once; a cycle keeps its `$ref`). A discriminator mapping to what the document does not hold is left out. Property names an object inherits (`valueOf`,
 * `hasOwnProperty`) crash its resolver, so they travel under a placeholder that is swapped back in
 * the printed types. Only the placeholders made here are swapped back, and their prefix is one no
 * string of the spec starts with: a spec's own name is never taken for one, nor printed as code.
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
/** The placeholders' prefix; a spec with a string that starts with it has the next one tried. */
const placeholderPrefix = (attempt: number) => (attempt === 0 ? "__projector_inherited_" : `__projector_inherited_${attempt}_`);

/** Keys an Example Object holds besides extensions. */
const EXAMPLE_KEYS = new Set(["summary", "description", "value", "externalValue", "$ref"]);
const isExampleMap = (value: unknown): boolean =>
  isJsonObject(value) &&
  Object.values(value).every(
    (example) => isJsonObject(example) && Object.keys(example).every((key) => EXAMPLE_KEYS.has(key) || key.startsWith("x-")),
  );
/** Each `%XX` of a `$ref` decoded, even where others are malformed: the bundler keeps a `$ref`'s encoding (`%65xamples`). */
const percentDecoded = (ref: string) => ref.replace(/%[0-9a-f]{2}/gi, (code) => String.fromCharCode(Number.parseInt(code.slice(1), 16)));

/** Redoc's names for an operation's code samples. */
const CODE_SAMPLES = new Set(["x-codeSamples", "x-code-samples"]);
const INTO_LEFT_OUT = /\/(?:examples|x-codeSamples|x-code-samples)(\/|$)/;

/**
 * What a value is, told by where it stands in the document rather than by the keys it holds, so that
 * a schema or header a spec happens to name `examples` or `x-codeSamples` is never taken for one.
 */
type Place =
  | "root"
  | "components"
  | "pathItems"
  | "pathItem"
  | "operation"
  | "parameters"
  | "parameter"
  | "responses"
  | "response"
  | "requestBodies"
  | "requestBody"
  | "content"
  | "mediaType"
  | "headers"
  | "header"
  | "other";

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const IN_COMPONENTS: Partial<Record<string, Place>> = {
  pathItems: "pathItems",
  parameters: "parameters",
  responses: "responses",
  requestBodies: "requestBodies",
  headers: "headers",
};

function placeOf(parent: Place, key: string): Place {
  switch (parent) {
    case "root":
      return key === "paths" || key === "webhooks" ? "pathItems" : key === "components" ? "components" : "other";
    case "components":
      return IN_COMPONENTS[key] ?? "other";
    case "pathItems":
      return "pathItem";
    case "pathItem":
      return METHODS.has(key) ? "operation" : key === "parameters" ? "parameters" : "other";
    case "operation":
      return key === "parameters" ? "parameters" : key === "responses" ? "responses" : key === "requestBody" ? "requestBody" : "other";
    case "parameters":
      return "parameter";
    case "responses":
      return "response";
    case "requestBodies":
      return "requestBody";
    case "response":
      return key === "content" ? "content" : key === "headers" ? "headers" : "other";
    case "requestBody":
    case "parameter":
    case "header":
      return key === "content" ? "content" : "other";
    case "content":
      return "mediaType";
    case "headers":
      return "header";
    default:
      return "other";
  }
}

/** Where a value's examples are a map of Example Objects, which openapi-typescript never reads. */
const HOLDS_EXAMPLES = new Set<Place>(["mediaType", "parameter", "header"]);

/** What openapi-typescript reads of a spec, and whether any property name travels under a placeholder. */
export interface SourceTypesInput {
  /** The copy. */
  document: unknown;
  /** Each placeholder the copy holds, with the property name it stands for. */
  placeholders: [placeholder: string, name: string][];
}

export function forSourceTypes(document: JsonObject, leaveOut = true, attempt = 0): SourceTypesInput {
  const prefix = placeholderPrefix(attempt);
  const placeholders = new Map<string, string>();
  let refIntoLeftOut = false;
  let prefixTaken = false;
  const inherited = (name: string) => {
    const placeholder = `${prefix}${name}__`;
    placeholders.set(placeholder, name);
    return placeholder;
  };
  const specText = (text: string) => {
    if (text.startsWith(prefix)) prefixTaken = true;
    return text;
  };
  const reader = new SchemaReader(document);
  const shared = sharedPathSchemas(document);
  const walk = (value: unknown, inlining: readonly string[], place: Place): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, inlining, place === "parameters" ? "parameter" : "other"));
    if (typeof value !== "object" || value === null) {
      return typeof value === "string" ? specText(value) : value;
    }
    const ref = (value as JsonObject)["$ref"];
    const hoisted = typeof ref === "string" ? shared.get(ref) : undefined;
    if (hoisted !== undefined) return { $ref: `#/components/${hoisted.section}/${hoisted.name}` };
    if (typeof ref === "string" && /^#\/components\/[^/]+\/[^/]+\/./.test(ref) && !inlining.includes(ref)) {
      const target = reader.pointer(fragmentPointer(ref));
      if (target) return walk(target.schema, [...inlining, ref], place);
    }
    const copy: JsonObject = {};
    for (const [key, inner] of Object.entries(value)) {
      specText(key);
      if (key === "externalValue") continue;
      if (leaveOut && key === "examples" && HOLDS_EXAMPLES.has(place) && isExampleMap(inner)) continue;
      if (leaveOut && place === "operation" && CODE_SAMPLES.has(key)) continue;
      if (key === "$ref" && typeof inner === "string" && INTO_LEFT_OUT.test(percentDecoded(inner))) refIntoLeftOut = true;
      if (key === "mapping" && isJsonObject(inner)) {
        // Bundling rewrites `$ref`s, never a discriminator's mapping: a target in another file, or
        // one relative to it, is gone (and would be read from the working folder).
        const entries = Object.entries(inner);
        for (const [value, target] of entries) {
          specText(value);
          if (typeof target === "string") specText(target);
        }
        // A bare schema name is written as the pointer it stands for, which openapi-typescript resolves.
        copy[key] = Object.fromEntries(
          entries.flatMap(([value, target]) => {
            if (typeof target !== "string") return [[value, target]];
            const pointer = mappingPointer(target);
            return reader.pointer(pointer.slice(1)) === undefined ? [] : [[value, pointer]];
          }),
        );
        continue;
      }
      if (key === "properties" && isJsonObject(inner)) {
        // A bundler may share a whole `properties` map through one `$ref`, which openapi-typescript reads as a property named `$ref`.
        const shared = (inner as JsonObject)["$ref"];
        const map =
          typeof shared === "string" && Object.keys(inner).length === 1 ? (reader.pointer(fragmentPointer(shared))?.schema ?? {}) : inner;
        copy[key] = Object.fromEntries(
          Object.entries(map).map(([name, schema]) => [
            PROTOTYPE_NAMES.has(name) ? inherited(name) : specText(name),
            walk(schema, inlining, "other"),
          ]),
        );
      } else if (key === "required" && Array.isArray(inner)) {
        copy[key] = inner.map((name) => (typeof name === "string" && PROTOTYPE_NAMES.has(name) ? inherited(name) : name));
      } else copy[key] = walk(inner, inlining, placeOf(place, key));
    }
    return copy;
  };
  const copy = walk(leaveOut ? withoutExampleComponents(document) : document, [], "root") as JsonObject;
  for (const [ref, { section, name }] of shared) {
    copy["components"] ??= {};
    const components = copy["components"] as JsonObject;
    components[section] ??= {};
    const entries = components[section] as JsonObject;
    entries[name] = walk(reader.pointer(fragmentPointer(ref))!.schema, [], section === "parameters" ? "parameter" : "other");
  }
  // Left out, the examples or samples would leave that `$ref` leading nowhere.
  if (refIntoLeftOut && leaveOut) return forSourceTypes(document, false, attempt);
  if (prefixTaken && placeholders.size > 0) return forSourceTypes(document, leaveOut, attempt + 1);
  return { document: copy, placeholders: [...placeholders] };
}

/** The document without `components.examples`, when that is a map of Example Objects; shallow copies, the rest shared. */
function withoutExampleComponents(document: JsonObject): JsonObject {
  const components = document["components"];
  if (!isJsonObject(components)) return document;
  const { examples, ...others } = components;
  return examples !== undefined && isExampleMap(examples) ? { ...document, components: others } : document;
}

/**
 * A bundler puts a schema or parameter several files share where it first met it, often under
 * `paths` (`#/paths/~1v2~1apps/post/.../schema`, `#/paths/~1v2~1apps/get/parameters/0`);
 * openapi-typescript types such a `$ref` as an index into `paths` that does not compile, so each
 * becomes a component of its own, named in the refs' order.
 */
function sharedPathSchemas(document: JsonObject): Map<string, { section: "schemas" | "parameters"; name: string }> {
  const reader = new SchemaReader(document);
  const refs = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) {
      const ref = (value as JsonObject)["$ref"];
      if (
        typeof ref === "string" &&
        (SHARED_SCHEMA.test(ref) || SHARED_PARAMETER.test(ref)) &&
        !ref.endsWith("/properties") &&
        reader.pointer(fragmentPointer(ref))
      )
        refs.add(ref);
      Object.values(value).forEach(visit);
    }
  };
  visit(document);
  return new Map(
    [...refs]
      .sort()
      .map((ref, i) => [ref, { section: SHARED_PARAMETER.test(ref) ? "parameters" : "schemas", name: `ProjectorShared${i + 1}` }]),
  );
}
const SHARED_SCHEMA = /^#\/paths\/.*\/schema(\/|$)/;
const SHARED_PARAMETER = /^#\/paths\/[^/]+\/([a-z]+\/)?parameters\/\d+$/;

/** A discriminator mapping's target as a `$ref` would write it: a bare name is a schema's. */
const mappingPointer = (target: string): string => (target.startsWith("#") ? target : `#/components/schemas/${target}`);

/** What the generated code names of the spec: the operations it calls and the schemas its records are typed by. */
export interface UsedParts {
  /** `get /tickets/{id}`: the method, lower case, then the path. */
  operations: string[];
  schemas: string[];
}

/** The parts of the spec a model's generated code names, sorted: two models that name the same parts have equal source types. */
export function usedParts(model: Model): UsedParts {
  const calls = [...model.tools.map((tool) => tool.inputs), ...model.resolvers.flatMap((resolver) => resolver.source ?? [])];
  return {
    operations: [...new Set(calls.map((call) => `${call.method.toLowerCase()} ${call.path}`))].sort(),
    schemas: [...new Set(model.resources.flatMap((resource) => resource.schemaNames))].sort(),
  };
}

/** Where a `$ref` or a root leads: one operation, one path item's own keys, one component, or one top-level part. */
type Part =
  | { kind: "operation"; path: string; method: string }
  | { kind: "path item"; path: string; whole: boolean }
  | { kind: "component"; section: string; name?: string }
  | { kind: "top"; key: string };

function partAt(segments: readonly string[]): Part | undefined {
  const [top, second, third] = segments;
  if (top === undefined) return undefined;
  if (top === "paths" && second !== undefined) {
    return third !== undefined && METHODS.has(third)
      ? { kind: "operation", path: second, method: third }
      : { kind: "path item", path: second, whole: third === undefined };
  }
  if (top === "components" && second !== undefined)
    return { kind: "component", section: second, ...(third === undefined ? {} : { name: third }) };
  return { kind: "top", key: top };
}

/** Each top-level key but these is kept as it is. */
const PRUNED_TOP = new Set(["paths", "webhooks", "components"]);

/**
 * The document cut down to what the generated code names and what that reaches by `$ref`, transitively:
 * the operations it calls (each with its path item's own keys, such as path-level `parameters`), the
 * schemas its records are typed by, and the root's other parts and `components.securitySchemes` as
 * they are. A `$ref` to a component keeps that component, one into an operation (a bundler puts shared
 * schemas there) that operation, one into anything else that top-level part; a discriminator's mapping
 * counts as references. Unused paths, methods, components and `webhooks` are left out: openapi-typescript
 * then types a small part of a large spec, and never meets what the tools do not reach.
 */
export function usedDocument(document: JsonObject, used: UsedParts): JsonObject {
  const paths = isJsonObject(document["paths"]) ? document["paths"] : {};
  const components = isJsonObject(document["components"]) ? document["components"] : {};
  const operations = new Map<string, Set<string>>();
  const pathItems = new Map<string, boolean>();
  const kept = new Map<string, Set<string> | "whole">();
  const tops = new Set<string>();
  const pending: unknown[] = [];
  const keep = (part: Part | undefined) => {
    if (part === undefined) return;
    switch (part.kind) {
      case "operation": {
        const item = paths[part.path];
        if (!isJsonObject(item)) return;
        // A path item that is a `$ref` holds its methods where that leads, kept whole.
        keep({ kind: "path item", path: part.path, whole: false });
        const methods = operations.get(part.path) ?? new Set();
        if (item[part.method] === undefined || methods.has(part.method)) return;
        operations.set(part.path, methods.add(part.method));
        pending.push(item[part.method]);
        return;
      }
      case "path item": {
        const item = paths[part.path];
        const known = pathItems.get(part.path);
        if (!isJsonObject(item) || known === true || (known === false && !part.whole)) return;
        pathItems.set(part.path, part.whole);
        pending.push(part.whole ? item : Object.fromEntries(Object.entries(item).filter(([key]) => !METHODS.has(key))));
        return;
      }
      case "component": {
        const section = components[part.section];
        const names = kept.get(part.section);
        if (!isJsonObject(section) || names === "whole") return;
        if (part.name === undefined) {
          kept.set(part.section, "whole");
          pending.push(section);
        } else if (section[part.name] !== undefined && !names?.has(part.name)) {
          kept.set(part.section, (names ?? new Set()).add(part.name));
          pending.push(section[part.name]);
        }
        return;
      }
      case "top":
        if (document[part.key] === undefined || tops.has(part.key)) return;
        tops.add(part.key);
        pending.push(document[part.key]);
    }
  };
  const follow = (pointer: string) => keep(partAt(decodePointer(pointer)));
  for (const operation of used.operations) {
    const space = operation.indexOf(" ");
    keep({ kind: "operation", method: operation.slice(0, space), path: operation.slice(space + 1) });
  }
  for (const name of used.schemas) keep({ kind: "component", section: "schemas", name });
  keep({ kind: "component", section: "securitySchemes" });
  for (const key of Object.keys(document)) if (!PRUNED_TOP.has(key)) keep({ kind: "top", key });
  // Objects the document shares (a YAML alias) are read once.
  const seen = new Set<object>();
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    const ref = (value as JsonObject)["$ref"];
    if (typeof ref === "string" && ref.startsWith("#")) follow(fragmentPointer(ref));
    const mapping = isJsonObject((value as JsonObject)["discriminator"])
      ? ((value as JsonObject)["discriminator"] as JsonObject)["mapping"]
      : undefined;
    if (isJsonObject(mapping))
      for (const target of Object.values(mapping)) if (typeof target === "string") follow(fragmentPointer(mappingPointer(target)));
    for (const inner of Object.values(value)) pending.push(inner);
  }
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === "paths") copy[key] = usedPaths(paths, operations, pathItems);
    else if (key === "components") copy[key] = usedComponents(components, kept);
    else if (!PRUNED_TOP.has(key) || tops.has(key)) copy[key] = value;
  }
  return copy;
}

function usedPaths(paths: JsonObject, operations: ReadonlyMap<string, Set<string>>, pathItems: ReadonlyMap<string, boolean>): JsonObject {
  const copy: JsonObject = {};
  for (const [path, item] of Object.entries(paths)) {
    const whole = pathItems.get(path);
    if (whole === undefined || !isJsonObject(item)) continue;
    const methods = operations.get(path);
    copy[path] = whole ? item : Object.fromEntries(Object.entries(item).filter(([key]) => !METHODS.has(key) || methods?.has(key)));
  }
  return copy;
}

function usedComponents(components: JsonObject, kept: ReadonlyMap<string, Set<string> | "whole">): JsonObject {
  const copy: JsonObject = {};
  for (const [section, entries] of Object.entries(components)) {
    const names = kept.get(section);
    if (names === "whole") copy[section] = entries;
    else if (names !== undefined && isJsonObject(entries))
      copy[section] = Object.fromEntries(Object.entries(entries).filter(([name]) => names.has(name)));
  }
  return copy;
}

/**
 * The source types, written by openapi-typescript from the bundled (never dereferenced) document: of
 * the parts the generated code names and what they reach, or of the whole spec when `used` is not given.
 * A failure to make what it reads (a spec nested past the stack) is its PRJ008 too.
 */
export async function sourceTypes(
  document: JsonObject,
  specFile: string,
  used?: UsedParts,
  locate: (pointer: string) => SourceLocation = () => ({ file: specFile }),
): Promise<string> {
  // Loaded on first use: it pulls in the TypeScript compiler, which a no-op regenerate never needs.
  // Required, not imported: as an ES import, Node parses TypeScript's 9 MB three times to learn that
  // it is CommonJS and what it exports; openapi-typescript's CommonJS build is the same code.
  const require = createRequire(import.meta.url);
  const { default: openapiTS, astToString } = require("openapi-typescript") as typeof import("openapi-typescript");
  const ts = require("typescript") as typeof TypeScript;
  let printed: string;
  const typed = used === undefined ? document : usedDocument(document, used);
  refuseSelfMadeSchemas(typed, locate);
  try {
    const source = forSourceTypes(typed);
    // Alphabetized, so reordering the spec's paths or schemas does not reorder the source types.
    const nodes = await openapiTS(source.document as unknown as OpenAPI3, { silent: true, alphabetize: true });
    // The transform walks every node of the types: only worth it when a name needs putting back.
    printed = astToString(
      source.placeholders.length > 0 ? ts.transform(nodes, [inheritedNamesBack(ts, new Map(source.placeholders))]).transformed : nodes,
    );
  } catch (error) {
    const tooDeep = overflowedStack(error);
    throw refusal(
      "PRJ008",
      tooDeep
        ? "openapi-typescript cannot type the spec: it nests too deeply"
        : `openapi-typescript cannot type the spec: ${String((error as Error).message ?? error).split("\n")[0]}`,
      tooDeep
        ? TOO_DEEP_HELP
        : "the source types come from openapi-typescript, which failed on this spec; look for a $ref cycle with no schema in it, or a response or schema that is null",
      { file: specFile },
    );
  }
  // Its string literals come out escaped, its comments carry spec descriptions as they are.
  return escapeHiddenCharacters(printed);
}

/** Where the spec is read as one document, for its `$ref`s' targets. */
const DOCUMENT_KEY = "/openapi.json";

/**
 * A schema the typed part reaches that is made of itself, through `$ref`s or compositions alone,
 * refused at the `$ref` leading into it: openapi-typescript fails on it, or types it as an alias
 * TypeScript refuses (TS2502). One only the tools do not reach is left out with the rest.
 */
function refuseSelfMadeSchemas(document: JsonObject, locate: (pointer: string) => SourceLocation): void {
  const documents = { [DOCUMENT_KEY]: document };
  const site = selfMadeRef(documents, refSites(documents).sites);
  if (site === undefined) return;
  throw refusal(
    "PRJ093",
    "this $ref leads round a cycle of $refs, or of allOf, oneOf and anyOf members, with no object or list between: a schema made of itself",
    "hold the cycle in an object's property or a list's items, or point one $ref of it at a schema",
    locate(
      `${site
        .path()
        .map((segment) => `/${escapePointer(String(segment))}`)
        .join("")}/$ref`,
    ),
  );
}

/**
 * Puts the property names placeholders stood in for back into the types, on the syntax tree. Each is a
 * name `Object.prototype` holds, so an identifier; any other name is left as openapi-typescript printed it.
 */
function inheritedNamesBack(
  ts: typeof TypeScript,
  placeholders: ReadonlyMap<string, string>,
): TypeScript.TransformerFactory<TypeScript.Node> {
  return (context) => {
    const visit = (node: TypeScript.Node): TypeScript.Node => {
      const name =
        ts.isPropertySignature(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))
          ? placeholders.get(node.name.text)
          : undefined;
      if (name === undefined) return ts.visitEachChild(node, visit, context);
      const signature = node as TypeScript.PropertySignature;
      const renamed = context.factory.updatePropertySignature(
        signature,
        signature.modifiers,
        context.factory.createIdentifier(name),
        signature.questionToken,
        signature.type && (ts.visitNode(signature.type, visit) as TypeScript.TypeNode),
      );
      return ts.setSyntheticLeadingComments(renamed, ts.getSyntheticLeadingComments(signature));
    };
    return (root) => ts.visitNode(root, visit);
  };
}
