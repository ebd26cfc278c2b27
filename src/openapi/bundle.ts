/**
 * json-schema-ref-parser's bundle step, ported from its release 14.0.1 (lib/bundle.ts; MIT License,
 * Copyright (c) 2015 James Messinger, APIDevTools), which swagger-parser pins exactly. The output is
 * the library's, key order included (`test/openapi-bundle.test.ts` compares the two); what differs:
 *
 * - it bundles the `$refs` the loader has already resolved: the library's `bundle()` resolves the
 *   spec again first, reading and parsing every file a second time (half of DigitalOcean's load);
 * - the inventory is indexed by the object holding a `$ref` and its key, where the library scans the
 *   whole inventory for each `$ref` it meets (quadratic: 250 ms on DigitalOcean's 2,900 files);
 * - `$ref`s are resolved against their document once per document, and pointer tokens encoded once.
 *
 * JSON pointers are still resolved by the library (`$refs._resolve`, which `bundle()` itself calls),
 * so every value, indirection count and error message is the library's own.
 */

import { getHash, stripHash, urlResolver } from "./ref-urls.js";

export interface ResolvedPointer {
  /** Where the pointer finally led, with a JSON pointer in the hash. */
  path: string;
  value: unknown;
  /** The value is a `$ref` to itself. */
  circular: boolean;
  /** How many `$ref`s were followed on the way. */
  indirections: number;
}

/** The part of json-schema-ref-parser's `$Refs` (of the same release) that bundling uses. */
export interface ResolvedRefs {
  _root$Ref: { path: string };
  _resolve(path: string, pathFromRoot: string, options: unknown): ResolvedPointer | null;
}

type Container = Record<string, unknown>;
type RefObject = Container & { $ref: string };

interface Entry {
  /** The JSON Reference, `{ $ref: string }`. */
  $ref: RefObject;
  /** The object holding it, under `key`; null when the resolved value is itself the reference. */
  parent: Container;
  key: string | null;
  pathFromRoot: string;
  depth: number;
  /** The file and the hash in it that the reference resolves to. */
  file: string;
  hash: string;
  value: unknown;
  circular: boolean;
  extended: boolean;
  external: boolean;
  indirections: number;
  /** Replaced by a shallower entry for the same place; the library splices it out of its array. */
  dropped: boolean;
}

const isRef = (value: unknown): value is RefObject =>
  Boolean(value) &&
  typeof value === "object" &&
  value !== null &&
  "$ref" in value &&
  typeof (value as { $ref: unknown }).$ref === "string" &&
  (value as { $ref: string }).$ref.length > 0;

/** The library's `$Ref.isAllowed$Ref` without options: internal pointers and every external reference. */
const isAllowedRef = (value: unknown): value is RefObject =>
  isRef(value) && (value.$ref.substring(0, 2) === "#/" || value.$ref === "#" || value.$ref[0] !== "#");

const isExtendedRef = (value: unknown) => isRef(value) && Object.keys(value).length > 1;

/** The library's `$Ref.dereference`: an extended reference becomes its own keys over the value's. */
function dereference($ref: RefObject, resolvedValue: unknown): unknown {
  if (!resolvedValue || typeof resolvedValue !== "object" || !isExtendedRef($ref)) return resolvedValue;
  const merged: Container = {};
  for (const key of Object.keys($ref)) if (key !== "$ref") merged[key] = $ref[key];
  for (const key of Object.keys(resolvedValue)) if (!(key in merged)) merged[key] = (resolvedValue as Container)[key];
  return merged;
}

const safeDecodeURIComponent = (encoded: string) => {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
};

/**
 * The library's `Pointer.parse` for the pointers bundling builds itself, which always start at "#"
 * (so the library's check that the first token is empty always passes).
 */
function parsePointer(path: string): string[] {
  const pointer = getHash(path).substring(1);
  if (!pointer) return [];
  return pointer
    .split("/")
    .slice(1)
    .map((token) => safeDecodeURIComponent(token.replace(/~1/g, "/").replace(/~0/g, "~")));
}

/** A pointer's depth, as `parsePointer(pathFromRoot).length`: one "/" a token, "/" being encoded inside one. */
function pointerDepth(pathFromRoot: string): number {
  let depth = 0;
  for (let i = pathFromRoot.indexOf("#") + 1; i > 0 && i < pathFromRoot.length; i++) if (pathFromRoot.charCodeAt(i) === 47) depth++;
  return depth;
}

/** The library's `Pointer.join`, each token's encoding kept: a spec repeats a few hundred keys. */
function pointerJoiner(): (base: string, tokens: string | readonly string[]) => string {
  const encoded = new Map<string, string>();
  const encode = (token: string) => {
    let result = encoded.get(token);
    if (result === undefined) {
      result = encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1"));
      encoded.set(token, result);
    }
    return result;
  };
  return (base, tokens) => {
    let path = base.indexOf("#") === -1 ? `${base}#` : base;
    for (const token of typeof tokens === "string" ? [tokens] : tokens) path += `/${encode(token)}`;
    return path;
  };
}

/** The library's crawl order: `definitions` and `$defs` first, then shorter keys first. */
const crawlOrder = (a: string, b: string) =>
  a === "definitions" || a === "$defs" ? -1 : b === "definitions" || b === "$defs" ? 1 : a.length - b.length;

/** The library's remap order: by target, then the entry whose place the others will point at first. */
function remapOrder(a: Entry, b: Entry): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : +1;
  if (a.hash !== b.hash) return a.hash < b.hash ? -1 : +1;
  if (a.circular !== b.circular) return a.circular ? -1 : +1;
  if (a.extended !== b.extended) return a.extended ? +1 : -1;
  if (a.indirections !== b.indirections) return a.indirections - b.indirections;
  if (a.depth !== b.depth) return a.depth - b.depth;
  const aDefinitions = Math.max(a.pathFromRoot.lastIndexOf("/definitions"), a.pathFromRoot.lastIndexOf("/$defs"));
  const bDefinitions = Math.max(b.pathFromRoot.lastIndexOf("/definitions"), b.pathFromRoot.lastIndexOf("/$defs"));
  if (aDefinitions !== bDefinitions) return bDefinitions - aDefinitions;
  return a.pathFromRoot.length - b.pathFromRoot.length;
}

/**
 * Inlines every external `$ref` of a resolved spec into its root document and rewrites every `$ref`
 * to point inside it, as json-schema-ref-parser's `bundle()` does after its own resolve. Mutates the
 * documents of `$refs`, as the library does, and returns the bundled root.
 */
export function bundleResolved(root: unknown, $refs: ResolvedRefs, options: unknown): unknown {
  const resolveUrl = urlResolver();
  const join = pointerJoiner();
  const rootPath = $refs._root$Ref.path;
  const inventory: Entry[] = [];
  const byPlace = new Map<object, Map<string | null, Entry>>();

  const crawl = (parent: Container, key: string | null, path: string, pathFromRoot: string, indirections: number) => {
    const obj = key === null ? parent : parent[key];
    if (!obj || typeof obj !== "object" || ArrayBuffer.isView(obj)) return;
    if (isAllowedRef(obj)) {
      inventoryRef(parent, key, path, pathFromRoot, indirections);
      return;
    }
    const container = obj as Container;
    for (const childKey of Object.keys(container).sort(crawlOrder)) {
      const keyPathFromRoot = join(pathFromRoot, childKey);
      const value = container[childKey];
      if (isAllowedRef(value)) inventoryRef(container, childKey, path, keyPathFromRoot, indirections);
      // The library joins the key's path for every key; only an object's is ever read.
      else if (value && typeof value === "object") crawl(container, childKey, join(path, childKey), keyPathFromRoot, indirections);
    }
  };

  const inventoryRef = (parent: Container, key: string | null, path: string, pathFromRoot: string, indirections: number) => {
    const $ref = (key === null ? parent : parent[key]) as RefObject;
    const pointer = $refs._resolve(resolveUrl(path, $ref.$ref), pathFromRoot, options);
    if (pointer === null) return;
    const depth = pointerDepth(pathFromRoot);
    const file = stripHash(pointer.path);
    const reached = indirections + pointer.indirections;
    let places = byPlace.get(parent);
    const existing = places?.get(key);
    if (existing) {
      if (depth < existing.depth || reached < existing.indirections) existing.dropped = true;
      else return;
    }
    const entry: Entry = {
      $ref,
      parent,
      key,
      pathFromRoot,
      depth,
      file,
      hash: getHash(pointer.path),
      value: pointer.value,
      circular: pointer.circular,
      extended: isExtendedRef($ref),
      external: file !== rootPath,
      indirections: reached,
      dropped: false,
    };
    inventory.push(entry);
    if (!places) {
      places = new Map();
      byPlace.set(parent, places);
    }
    places.set(key, entry);
    if (!existing || entry.external) crawl(pointer.value as Container, null, pointer.path, pathFromRoot, reached + 1);
  };

  const holder: Container = { schema: root };
  crawl(holder, "schema", `${rootPath}#`, "#", 0);
  remap(inventory.filter((entry) => !entry.dropped).sort(remapOrder), join);
  return holder["schema"];
}

/**
 * Points every `$ref` inside the root document: the first reference to each value, in remap order,
 * is replaced by the value; the others point at where it now sits.
 */
function remap(inventory: readonly Entry[], join: (base: string, tokens: string | readonly string[]) => string) {
  let file: string | undefined;
  let hash: string | undefined;
  let pathFromRoot: string | undefined;
  for (const entry of inventory) {
    if (!entry.external) entry.$ref.$ref = entry.hash;
    else if (entry.file === file && entry.hash === hash) entry.$ref.$ref = pathFromRoot!;
    else if (entry.file === file && entry.hash.indexOf(`${hash}/`) === 0)
      entry.$ref.$ref = join(pathFromRoot!, parsePointer(entry.hash.replace(hash!, "#")));
    else {
      file = entry.file;
      hash = entry.hash;
      pathFromRoot = entry.pathFromRoot;
      // As in the library, a resolved value that is itself the reference (key null) lands under "null".
      entry.$ref = entry.parent[String(entry.key)] = dereference(entry.$ref, entry.value) as RefObject;
      if (entry.circular) entry.$ref.$ref = entry.pathFromRoot;
    }
  }
}
