import { isMap, isNode, isScalar, isSeq } from "yaml";
import type { NodePath } from "../yaml-source.js";
import { filePath } from "./files.js";
import { documentUrl, MAX_REF_CHAIN, pointerSegments } from "./refs.js";
import { isJsonObject } from "./schema.js";

/** The files a spec was read from, as written: each node a value of JSON.parse or a node of a YAML parse. */
export interface WrittenFiles {
  /** Whether the loader read this file (an absolute path). */
  has(file: string): boolean;
  /** The node at `path` in the file, matched as the file's `locate` matches it; undefined where there is none. */
  nodeAt(file: string, path: NodePath): unknown;
}

/** Where a place of the bundled document is written: a file, and a path in that file as written. */
export interface WrittenPlace {
  file: string;
  path: NodePath;
  /** How many `$ref`s were followed to get there; none for a place the entry file writes out. */
  followed: number;
}

/** What an object as written holds under a key: a YAML node (null for an empty value) or a JSON value; undefined where it has no such key. */
function writtenUnder(node: unknown, key: string): unknown {
  if (isNode(node)) return isMap(node) ? node.items.find((item) => isScalar(item.key) && String(item.key.value) === key)?.value : undefined;
  return isJsonObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
}

/** The `$ref` an object as written holds, if it holds a string one. */
function refOf(node: unknown): string | undefined {
  const ref = writtenUnder(node, "$ref");
  const text = isScalar(ref) ? ref.value : ref;
  return typeof text === "string" ? text : undefined;
}

const isList = (node: unknown) => (isNode(node) ? isSeq(node) : Array.isArray(node));

/**
 * Where a path of the bundled document is written, following each `$ref` met on the way through the
 * files it leads to, as json-schema-ref-parser resolves it: against the file that writes it, a
 * fragment read as a JSON pointer, `#/...` inside the same file. At most MAX_REF_CHAIN `$ref`s are
 * followed in all. A `$ref` that cannot be followed (a remote document, a file not read, a pointer
 * to nothing) ends the walk at the object that holds it; a path that goes on where the file has
 * nothing ends at its deepest part that is written. `followLast`: the place the path names is the
 * value a `$ref` there leads to, not the `$ref` itself.
 */
export function writtenPlace(files: WrittenFiles, entry: string, path: readonly string[], followLast: boolean): WrittenPlace {
  let file = entry;
  let at: (string | number)[] = [];
  let node = files.nodeAt(file, at);
  let followed = 0;
  /** What is left to walk; a segment a `$ref`'s fragment added names where that `$ref` is written. */
  const left: { segment: string; from?: { file: string; at: (string | number)[]; followed: number } }[] = path.map((segment) => ({
    segment,
  }));
  while (true) {
    const ref = refOf(node);
    const next = left[0];
    // A key written beside a `$ref` is the object's own, not its target's.
    if (ref !== undefined && followed < MAX_REF_CHAIN && (next ? writtenUnder(node, next.segment) === undefined : followLast)) {
      const target = refTarget(files, file, ref);
      if (!target) break;
      left.unshift(...target.segments.map((segment) => ({ segment, from: { file, at, followed } })));
      file = target.file;
      at = [];
      node = files.nodeAt(file, at);
      followed++;
      continue;
    }
    if (!next) break;
    const key = isList(node) && /^(0|[1-9]\d*)$/.test(next.segment) ? Number(next.segment) : next.segment;
    const child = files.nodeAt(file, [...at, key]);
    if (child === undefined) {
      // A `$ref` whose pointer leads to nothing is where the walk ends.
      if (next.from) ({ file, at, followed } = next.from);
      break;
    }
    left.shift();
    at = [...at, key];
    node = child;
  }
  return { file, path: at, followed };
}

/** The file a `$ref` written in `file` leads to, if the loader read it, and its fragment's tokens. */
function refTarget(files: WrittenFiles, file: string, ref: string): { file: string; segments: string[] } | undefined {
  if (!URL.canParse(ref, documentUrl(file))) return undefined;
  const url = new URL(ref, documentUrl(file));
  if (url.protocol !== "file:") return undefined;
  const target = filePath(url);
  if (!files.has(target)) return undefined;
  if (url.hash !== "" && url.hash !== "#" && !url.hash.startsWith("#/")) return undefined;
  const segments = pointerSegments(url.hash);
  return segments && { file: target, segments };
}
