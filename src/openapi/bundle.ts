/**
 * json-schema-ref-parser's bundle step, ported from its release 14.0.1 (lib/bundle.ts; MIT License,
 * Copyright (c) 2015 James Messinger, APIDevTools), which swagger-parser pins exactly. The output is
 * the library's, key order included (`test/openapi-bundle.test.ts` compares the two); what differs:
 *
 * - it bundles the `$refs` the loader has already resolved: the library's `bundle()` resolves the
 *   spec again first, reading and parsing every file a second time (half of DigitalOcean's load);
 * - the inventory is indexed by the object holding a `$ref` and its key, where the library scans the
 *   whole inventory for each `$ref` it meets (quadratic: 250 ms on DigitalOcean's 2,900 files);
 * - every URL is resolved once (./ref-urls.ts), and every pointer token encoded once, where the
 *   library parses two URLs a `$ref` and more for each pointer it follows (./pointer.ts).
 */

import {
  type Container,
  dereference,
  isAllowedRef,
  isExtendedRef,
  parsePointer,
  type PointerJoin,
  pointerJoiner,
  pointerResolver,
  type RefObject,
} from "./pointer.js";
import { getHash, stripHash, urlResolver } from "./ref-urls.js";
import type { ExternalRefs } from "./resolve-external.js";

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
  /** Replaced by a later entry for the same place, shallower or with fewer indirections; the library splices it out of its array. */
  dropped: boolean;
}

/** A pointer's depth, as `parsePointer(pathFromRoot).length`: one "/" a token, "/" being encoded inside one. */
function pointerDepth(pathFromRoot: string): number {
  let depth = 0;
  for (let i = pathFromRoot.indexOf("#") + 1; i > 0 && i < pathFromRoot.length; i++) if (pathFromRoot.charCodeAt(i) === 47) depth++;
  return depth;
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
export function bundleResolved(root: unknown, $refs: ExternalRefs, options: { resolve?: { external?: unknown } }): unknown {
  const resolveUrl = urlResolver();
  const join = pointerJoiner();
  const resolvePointer = pointerResolver($refs, Boolean(options.resolve?.external), resolveUrl, join);
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
    const pointer = resolvePointer(resolveUrl(path, $ref.$ref), pathFromRoot);
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
function remap(inventory: readonly Entry[], join: PointerJoin) {
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
