import { createRequire } from "node:module";
import type TypeScript from "typescript";
import type { GlobalContext, OpenAPI3 } from "openapi-typescript";

// openapi-typescript's `openapiTS` lints the document with redocly (one rule: every operationId
// unique), bundles it with redocly, then types it. Redocly resolves and walks the whole document
// twice, which is about half of openapi-typescript's time on a large spec. The document generate
// hands it is already bundled, every `$ref` in it internal: on such a document redocly's lint and
// bundle mostly find nothing to report and nothing to change, and this module proves that, for one
// document, before typing it the way `openapiTS` then would. Where it cannot prove it, `openapiTS`
// runs as before.

/** The releases this mirrors: `openapiTS`'s context and redocly's bundler, as read in their code. */
const MIRRORED = { openapiTypescript: /^7\.13\./, redocly: /^1\.34\./ };

/** What is used of redocly here: its type tree of OpenAPI, as its walker reads it. */
export interface Redocly {
  detectSpec(document: object): string;
  getTypes(spec: string): Record<string, unknown>;
  normalizeTypes(types: Record<string, unknown>): Record<string, NodeType>;
  createConfig(config: object, options: object): Promise<GlobalContext["redoc"]>;
}

/** A node of redocly's type tree: named types hold the others. */
interface NodeType {
  name?: string;
  properties: Record<string, TypeOrFunction | undefined>;
  additionalProperties?: TypeOrFunction;
  items?: TypeOrFunction;
  extensionsPrefix?: string;
  directResolveAs?: NodeType;
  resolvable?: boolean;
}
type TypeOrFunction = NodeType | ((value: unknown, key: string) => NodeType | undefined);

type OpenapiTypescript = typeof import("openapi-typescript");

let mirrored: { ot: OpenapiTypescript; redocly: Redocly } | null | undefined;

/** openapi-typescript and the redocly it uses, when they are the releases this mirrors. */
function mirroredReleases(): { ot: OpenapiTypescript; redocly: Redocly } | null {
  if (mirrored !== undefined) return mirrored;
  const require = createRequire(import.meta.url);
  const otEntry = require.resolve("openapi-typescript");
  const fromOt = createRequire(otEntry);
  const version = (from: NodeJS.Require, name: string) => (from(`${name}/package.json`) as { version?: string }).version ?? "";
  mirrored =
    MIRRORED.openapiTypescript.test(version(require, "openapi-typescript")) &&
    MIRRORED.redocly.test(version(fromOt, "@redocly/openapi-core"))
      ? { ot: require(otEntry) as OpenapiTypescript, redocly: fromOt("@redocly/openapi-core") as Redocly }
      : null;
  return mirrored;
}

/**
 * openapi-typescript's syntax tree of the document, made as `openapiTS(document, { silent: true,
 * alphabetize: true })` makes it, without redocly's passes; undefined where those could report or
 * change anything (see {@link leftAloneByRedocly}), or openapi-typescript is another release.
 */
export async function typedWithoutRedocly(document: Record<string, unknown>): Promise<TypeScript.Node[] | undefined> {
  const releases = mirroredReleases();
  if (releases === null || !leftAloneByRedocly(document, releases.redocly)) return undefined;
  const { ot, redocly } = releases;
  // The one change redocly's bundler makes to such a document.
  if (!document["components"]) document["components"] = {};
  const schema = document as unknown as OpenAPI3;
  const options = { silent: true, alphabetize: true };
  // `openapiTS`'s context for those options, field by field.
  // (Its `inject` is left out rather than set to undefined: it is read, never enumerated.)
  const ctx: GlobalContext = {
    additionalProperties: false,
    alphabetize: true,
    arrayLength: false,
    defaultNonNullable: true,
    discriminators: ot.scanDiscriminators(schema, options),
    emptyObjectsUnknown: false,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: await redocly.createConfig({ rules: { "operation-operationId-unique": { severity: "error" } } }, { extends: ["minimal"] }),
    silent: true,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref) => ot.resolveRef(schema, $ref, { silent: true }),
  };
  return ot.transformSchema(schema, ctx);
}

/**
 * Whether redocly's lint and bundle, as openapi-typescript runs them, would report nothing and change
 * nothing in the document but add an empty `components`. Checked on redocly's own type tree, walked
 * as its walker walks it; every doubt answers no.
 * - The lint runs one rule, every operationId unique: no `operationId` anywhere repeats another.
 * - Every node passes {@link soundEverywhere}, typed or not.
 * - The bundler leaves a `$ref` to the same document alone where the tree gives it a named type;
 *   the walker goes on into its target with that type, and the resolver into its siblings, and so
 *   does this walk. A `$ref` where the tree expects a plain value would be inlined, and is a doubt,
 *   as is one leading to an array.
 * - It rewrites each discriminator mapping to the component's canonical `$ref`: each is one already.
 */
export function leftAloneByRedocly(document: Record<string, unknown>, redocly: Redocly): boolean {
  const version = document["openapi"];
  // The versions openapi-typescript accepts, without the errors it throws for the others.
  if (document["swagger"] || typeof version !== "string") return false;
  const number = Number.parseFloat(version);
  if (!(number >= 3 && number < 4)) return false;
  let types: Record<string, NodeType>;
  try {
    const spec = redocly.detectSpec(document);
    if (spec !== "oas3_0" && spec !== "oas3_1") return false;
    types = redocly.normalizeTypes(redocly.getTypes(spec));
  } catch {
    return false;
  }
  if (!soundEverywhere(document)) return false;
  // Each node once per type, as the walker does.
  const walked = new Map<string, Set<object>>();
  let alone = true;
  const walk = (node: unknown, type: NodeType & { name: string }): void => {
    if (!alone) return;
    if (typeof node !== "object" || node === null) {
      // The bundler rewrites a mapping's entries, whatever the mapping is.
      if (type.name === "DiscriminatorMapping" && node !== undefined) alone = false;
      return;
    }
    if (isRef(node)) {
      const target = internalTarget(document, node.$ref);
      if (type.name === "scalar" || target === undefined || isRef(target) || Array.isArray(target)) {
        alone = false;
        return;
      }
      // The walker goes on into the target with the type the `$ref` stands for, and the resolver
      // into every sibling of the `$ref` with the types that type gives them.
      walk(target, type);
      walkEntries(
        Object.entries(node).filter(([key]) => key !== "$ref"),
        type,
      );
      return;
    }
    const ofType = walked.get(type.name) ?? walked.set(type.name, new Set()).get(type.name)!;
    if (ofType.has(node)) return;
    ofType.add(node);
    if (type.name === "DiscriminatorMapping") {
      alone = !Array.isArray(node) && canonicalMapping(node as Record<string, unknown>, document);
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) {
        const itemType = typeof type.items === "function" ? type.items(item, "") : type.items;
        if (isNamedType(itemType)) walk(item, itemType);
      }
      return;
    }
    walkEntries(Object.entries(node), type);
  };
  const walkEntries = (entries: [string, unknown][], type: NodeType): void => {
    for (const [key, value] of entries) {
      if (value === undefined) continue;
      // (No key here is one an object inherits, such as `constructor`: soundEverywhere declined those.)
      const declared = Object.hasOwn(type.properties, key);
      if (!declared && !type.additionalProperties && !(type.extensionsPrefix && key.startsWith(type.extensionsPrefix))) continue;
      let propType = type.properties[key] ?? type.additionalProperties;
      if (typeof propType === "function") propType = propType(value, key);
      if (propType === undefined && type.extensionsPrefix && key.startsWith(type.extensionsPrefix)) propType = types["SpecExtension"];
      if (!isNamedType(propType) && propType?.directResolveAs) {
        // A mapping's value, which the walker reads as a `$ref`: DiscriminatorMapping above answers for it.
        alone = false;
        return;
      }
      if (propType && propType.name === undefined && propType.resolvable !== false) propType = { name: "scalar", properties: {} };
      if (!isNamedType(propType) || (propType.name === "scalar" && !isRef(value))) continue;
      walk(value, propType);
    }
  };
  const root = types["Root"];
  // A root that is a `$ref` has the bundler add `components` to its target instead.
  if (!isNamedType(root) || isRef(document)) return false;
  try {
    walk(document, root);
  } catch {
    // Nested past the stack: openapiTS, which walks it too, answers for it.
    return false;
  }
  return alone;
}

/**
 * Whether the value under an empty key gets pointers of its own in redocly's resolver, which joins
 * `#/a` and `""` into `#/a/`, and so the empty key's `b` and the object's own `b` into one `#/a/b`;
 * the resolver then resolves only the object it meets first (it passes over other values). None
 * does at the root (`#/`), or where the empty key's value holds an object under a key its object
 * holds too, or under an empty key of its own.
 */
const emptyKeyApart = (node: object, value: unknown, document: object): boolean =>
  node !== document &&
  (typeof value !== "object" ||
    value === null ||
    Object.entries(value).every(
      ([key, inner]) => typeof inner !== "object" || inner === null || (key !== "" && !Object.hasOwn(node, key)),
    ));

const isObjectNotRef = (node: object | undefined): boolean => node !== undefined && !isRef(node);

const isRef = (node: unknown): node is { $ref: string } =>
  typeof node === "object" && node !== null && typeof (node as { $ref?: unknown }).$ref === "string";

const isNamedType = (type: NodeType | undefined): type is NodeType & { name: string } => typeof type?.name === "string";

/**
 * What is checked of every node, wherever it stands, typed or not: every truthy `operationId`
 * different from every other (the lint's one rule); every `$ref` leading to a node of the document
 * (redocly's resolver follows a `$ref` even where its type tree knows nothing, and throws on one it
 * cannot decode, and throws on a cycle of `$ref`s, so none leads to another); no `externalValue`,
 * which the bundler would read from a file; no key an object inherits (`constructor`,
 * `hasOwnProperty`), which redocly's code looks up as its own; and no empty key whose pointers
 * meet others'.
 */
function soundEverywhere(document: object): boolean {
  const operationIds = new Set<unknown>();
  const visit = (node: unknown): boolean => {
    if (typeof node !== "object" || node === null) return true;
    if (Array.isArray(node)) return node.every(visit);
    for (const [key, value] of Object.entries(node)) {
      if (key in Object.prototype || key === "externalValue" || (key === "" && !emptyKeyApart(node, value, document))) return false;
      if (key === "operationId" && value) {
        if (operationIds.has(value)) return false;
        operationIds.add(value);
      }
      // A `$ref` to a `$ref` is followed by the resolver, which throws on a cycle.
      if (key === "$ref" && typeof value === "string" && !isObjectNotRef(internalTarget(document, value))) return false;
      if (!visit(value)) return false;
    }
    return true;
  };
  try {
    return visit(document);
  } catch {
    return false;
  }
}

/** A mapping whose every value is `#/components/schemas/Name`, naming a schema that is not itself a `$ref`. */
function canonicalMapping(mapping: Record<string, unknown>, document: Record<string, unknown>): boolean {
  const schemas = (document["components"] as { schemas?: unknown } | undefined)?.schemas;
  return Object.values(mapping).every((value) => {
    const name = typeof value === "string" ? CANONICAL_MAPPING.exec(value)?.[1] : undefined;
    if (name === undefined || typeof schemas !== "object" || schemas === null || !Object.hasOwn(schemas, name)) return false;
    const target = (schemas as Record<string, unknown>)[name];
    return typeof target === "object" && target !== null && !Array.isArray(target) && !isRef(target);
  });
}
const CANONICAL_MAPPING = /^#\/components\/schemas\/([A-Za-z0-9_.-]+)$/;

/**
 * The node an internal `$ref` (`#/a/b~1c`) points to, its segments unescaped and decoded as redocly
 * reads them; undefined for any other `$ref`, or one redocly would read in some other way.
 */
function internalTarget(document: unknown, ref: string): object | undefined {
  if (!ref.startsWith("#/") || ref.includes("#/", 1)) return undefined;
  let node: unknown = document;
  for (const segment of ref.slice(2).split("/")) {
    let name: string;
    try {
      name = decodeURIComponent(segment.replace(/~1/g, "/").replace(/~0/g, "~"));
    } catch {
      return undefined;
    }
    if (name === "" || typeof node !== "object" || node === null || !Object.hasOwn(node, name)) return undefined;
    node = (node as Record<string, unknown>)[name];
  }
  return typeof node === "object" && node !== null ? node : undefined;
}
