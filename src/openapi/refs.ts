import { pathToFileURL } from "node:url";
import type { NodePath } from "../yaml-source.js";

/** How many `$ref`s one `$ref` may lead through before it reaches a value that is not a `$ref`. */
export const MAX_REF_CHAIN = 32;

/**
 * How many levels deep a spec's values may nest, objects and lists in one another. Real specs nest
 * at most about 30; every stage that reads a schema recurses into it, and openapi-typescript gives
 * out near 1,000: one limit, met when the spec is read, keeps them all in bounds.
 */
export const MAX_NESTING = 500;

/** One `$ref` as written in one of the spec's documents. */
export interface RefSite {
  /** The document's key in json-schema-ref-parser's `$refs.values()`: a POSIX path or a URL. */
  document: string;
  ref: string;
  /** The `$ref` resolved against its document, as the parser resolves it. */
  target: URL;
  /** Where the object holding the `$ref` sits in its document. */
  path(): NodePath;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isRef = (value: unknown): value is { $ref: string } => isObject(value) && !Array.isArray(value) && typeof value["$ref"] === "string";
const isUrl = (key: string) => /^[a-z][a-z0-9+.-]+:\/\//i.test(key);

/** A document key as a URL, so relative `$ref`s resolve as the parser resolves them. */
export const documentUrl = (key: string): URL => (isUrl(key) ? new URL(key) : pathToFileURL(key));

const withoutHash = (url: URL) => url.href.replace(/#.*$/s, "");

/** The `$ref`s of a spec's documents, and where one of them first nests deeper than {@link MAX_NESTING}. */
export interface RefWalk {
  sites: RefSite[];
  tooDeep?: { document: string; path: NodePath };
}

/**
 * Every `$ref` in every document, documents in the parser's order, each in document order. An
 * object reached through several YAML aliases is visited once, so the walk is linear in the
 * documents as written.
 */
export function refSites(documents: Record<string, unknown>): RefWalk {
  const sites: RefSite[] = [];
  let tooDeep: RefWalk["tooDeep"];
  for (const [document, value] of Object.entries(documents)) {
    const base = documentUrl(document);
    // A large spec writes the same few thousand `$ref`s hundreds of thousands of times.
    const targets = new Map<string, URL | undefined>();
    const targetOf = (ref: string) => {
      if (!targets.has(ref)) targets.set(ref, URL.canParse(ref, base) ? new URL(ref, base) : undefined);
      return targets.get(ref);
    };
    const seen = new Set<object>();
    interface Step {
      node: unknown;
      key?: string | number;
      parent?: Step;
      depth: number;
    }
    const pathTo = (step: Step) => {
      const path: (string | number)[] = [];
      for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.unshift(at.key);
      return path;
    };
    const stack: Step[] = [{ node: value, depth: 0 }];
    while (stack.length > 0) {
      const step = stack.pop()!;
      const node = step.node;
      if (!isObject(node) || seen.has(node)) continue;
      seen.add(node);
      if (step.depth > MAX_NESTING) {
        tooDeep ??= { document, path: pathTo(step) };
        continue;
      }
      if (isRef(node)) {
        const target = targetOf(node.$ref);
        if (target) sites.push({ document, ref: node.$ref, target, path: () => pathTo(step) });
      }
      // Pushed in reverse so they are visited in document order; keys without entries' pairs, the
      // walk's main cost on a large spec.
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--)
          if (isObject(node[i])) stack.push({ node: node[i], key: i, parent: step, depth: step.depth + 1 });
      } else {
        const keys = Object.keys(node);
        for (let i = keys.length - 1; i >= 0; i--) {
          const child = (node as Record<string, unknown>)[keys[i]!];
          if (isObject(child)) stack.push({ node: child, key: keys[i]!, parent: step, depth: step.depth + 1 });
        }
      }
    }
  }
  return tooDeep ? { sites, tooDeep } : { sites };
}

/** The tokens of a URL fragment read as a JSON pointer, decoded; undefined where one cannot be decoded. */
export const pointerSegments = (hash: string): string[] | undefined => {
  if (hash === "" || hash === "#") return [];
  try {
    return hash
      .slice(1)
      .split("/")
      .slice(1)
      .map((segment) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
  } catch {
    return undefined;
  }
};

interface Resolved {
  value: unknown;
  /** The document the value lives in, against which its own `$ref`s resolve. */
  base: URL;
  /** `$ref`s followed to reach it, the first included. */
  hops: number;
}

/**
 * Follows `$ref`s between documents: each target resolved once, and the walk stopped at
 * MAX_REF_CHAIN, so a check is linear however long a chain is. `looped` says whether the last walk
 * came back to a target it was resolving, with no value between (`A: { $ref: B }`, `B: { $ref: A }`).
 */
function refWalker(documents: Record<string, unknown>) {
  const byUrl = new Map(Object.entries(documents).map(([key, value]) => [withoutHash(documentUrl(key)), value]));
  const done = new Map<string, Resolved>();
  const open = new Set<string>();
  const walker = { looped: false, resolve, composesItself };
  // `undefined` when the chain is longer than the limit allows from this depth.
  function resolve(target: URL, depth: number): Resolved | undefined {
    const key = target.href;
    const known = done.get(key);
    if (known) return depth + known.hops <= MAX_REF_CHAIN ? known : undefined;
    if (depth >= MAX_REF_CHAIN) return undefined;
    if (open.has(key)) {
      walker.looped = true;
      return { value: undefined, base: target, hops: 1 };
    }
    open.add(key);
    try {
      let base = new URL(withoutHash(target));
      let node = byUrl.get(base.href);
      let hops = 1;
      const follow = (): boolean => {
        while (isRef(node)) {
          if (!URL.canParse(node.$ref, base)) {
            node = undefined;
            return true;
          }
          const reached = resolve(new URL(node.$ref, base), depth + hops);
          if (!reached) return false;
          hops += reached.hops;
          node = reached.value;
          base = reached.base;
        }
        return true;
      };
      for (const segment of pointerSegments(target.hash) ?? []) {
        if (!follow()) return undefined;
        node = isObject(node) ? (node as Record<string, unknown>)[segment] : undefined;
      }
      if (!follow()) return undefined;
      const resolved = { value: node, base, hops };
      done.set(key, resolved);
      return resolved;
    } finally {
      open.delete(key);
    }
  }
  // A schema is what its `allOf`, `oneOf` and `anyOf` members are, and so a TypeScript type: a
  // cycle through them alone (`A: { oneOf: [B] }`, `B: { allOf: [A, {...}] }`) is a type made of
  // itself, as a cycle of `$ref`s is. Each target's answer is kept; "open" marks the walk's path.
  const composing = new Map<string, "open" | "none">();
  function composesItself(target: URL): boolean {
    const state = composing.get(target.href);
    if (state !== undefined) return state === "open";
    composing.set(target.href, "open");
    const resolved = resolve(target, 0);
    const cycles =
      resolved !== undefined &&
      composedOf(resolved.value).some((ref) => URL.canParse(ref, resolved.base) && composesItself(new URL(ref, resolved.base)));
    if (!cycles) composing.set(target.href, "none");
    return cycles;
  }
  return walker;
}

/**
 * The first `$ref` that leads through more than MAX_REF_CHAIN `$ref`s (counting those met inside
 * a JSON pointer's path) before reaching its value; a cycle is left to {@link selfMadeRef}, asked
 * of the part of the spec the tools reach.
 */
export function overlongRefChain(documents: Record<string, unknown>, sites: readonly RefSite[]): RefSite | undefined {
  const walker = refWalker(documents);
  return sites.find((site) => walker.resolve(site.target, 0) === undefined);
}

/**
 * The first `$ref` leading round a cycle of `$ref`s, or of compositions, with no object or list
 * between (`A: { $ref: B }`, `B: { oneOf: [{ $ref: A }] }`): a schema made of itself, which no tool
 * can type. A schema that holds itself (`next: { $ref: Node }`, `items: { $ref: Node }`) is reached
 * through a value, and is no such cycle.
 */
export function selfMadeRef(documents: Record<string, unknown>, sites: readonly RefSite[]): RefSite | undefined {
  const walker = refWalker(documents);
  return sites.find((site) => {
    walker.looped = false;
    return walker.resolve(site.target, 0) !== undefined && (walker.looped || walker.composesItself(site.target));
  });
}

const COMPOSITIONS = ["allOf", "oneOf", "anyOf"];

/** The `$ref`s a schema is made of as it stands, not inside an object's properties or a list's items: its compositions' members', at any depth of compositions. */
function composedOf(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  return COMPOSITIONS.flatMap((key) => {
    const members = schema[key];
    return Array.isArray(members) ? members.flatMap((member) => (isRef(member) ? [member.$ref] : composedOf(member))) : [];
  });
}
