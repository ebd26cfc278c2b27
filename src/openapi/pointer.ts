/**
 * JSON references and pointers as json-schema-ref-parser 14.0.1 reads them (lib/ref.ts, lib/pointer.ts,
 * lib/refs.ts; MIT License, Copyright (c) 2015 James Messinger, APIDevTools), ported for the bundle
 * step (./bundle.ts) with every URL resolved once (./ref-urls.ts). Values, paths, indirection counts
 * and error messages are the library's; the loader never sets `continueOnError`, so that branch is
 * not ported, and errors are plain `Error`s carrying the library's message.
 */
import type { ExternalRefs, RefDocument } from "./resolve-external.js";
import { getHash, stripHash } from "./ref-urls.js";

export type Container = Record<string, unknown>;
export type RefObject = Container & { $ref: string };

export const isRef = (value: unknown): value is RefObject =>
  Boolean(value) &&
  typeof value === "object" &&
  value !== null &&
  "$ref" in value &&
  typeof (value as { $ref: unknown }).$ref === "string" &&
  (value as { $ref: string }).$ref.length > 0;

/** The library's `$Ref.isAllowed$Ref`: internal pointers, and external references when `external`. */
export const isAllowedRef = (value: unknown, external = true): value is RefObject =>
  isRef(value) && (value.$ref.substring(0, 2) === "#/" || value.$ref === "#" || (value.$ref[0] !== "#" && external));

export const isExtendedRef = (value: unknown) => isRef(value) && Object.keys(value).length > 1;

/** The library's `$Ref.dereference`: an extended reference becomes its own keys over the value's. */
export function dereference($ref: RefObject, resolvedValue: unknown): unknown {
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

/** The library's `Pointer.parse`: the tokens of the JSON pointer in a path's hash. */
export function parsePointer(path: string): string[] {
  const pointer = getHash(path).substring(1);
  if (!pointer) return [];
  const split = pointer.split("/").map((token) => safeDecodeURIComponent(token.replace(/~1/g, "/").replace(/~0/g, "~")));
  if (split[0] !== "") throw new Error(`Invalid $ref pointer "${pointer}". Pointers must begin with "#/"`);
  return split.slice(1);
}

export type PointerJoin = (base: string, tokens: string | readonly string[]) => string;

/** The library's `Pointer.join`, each token's encoding kept: a spec repeats a few hundred keys. */
export function pointerJoiner(): PointerJoin {
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

/** Where a pointer led: the library's `Pointer` once resolved. */
export interface ResolvedPointer {
  document: RefDocument;
  /** Where it finally led, with a JSON pointer in the hash. */
  path: string;
  value: unknown;
  /** The value is a `$ref` to itself. */
  circular: boolean;
  /** How many `$ref`s were followed on the way. */
  indirections: number;
}

/** The library's stand-in for a `null` found as a pointer's last token, told apart from "not found". */
const FOUND_NULL = Symbol("null");

/**
 * The library's `$Refs._resolve`: resolves a path (a document and a JSON pointer in its hash)
 * through every `$ref` met on the way. `pathFromRoot` is where the resolution started, which tells
 * a `$ref` to itself from the root's.
 */
export function pointerResolver(
  $refs: ExternalRefs,
  external: boolean,
  resolveUrl: (from: string, to: string) => string,
  join: PointerJoin,
): (path: string, pathFromRoot: string) => ResolvedPointer {
  const rootPath = $refs._root$Ref.path;
  const isRootPath = (pathFromRoot: string) => parsePointer(pathFromRoot).length === 0;

  /** The library's `resolveIf$Ref`: true when the pointer moved to where a `$ref` leads. */
  const followRef = (pointer: ResolvedPointer, pathFromRoot: string): boolean => {
    if (!isAllowedRef(pointer.value, external)) return false;
    const refPath = resolveUrl(pointer.path, pointer.value.$ref);
    if (refPath === pointer.path && !isRootPath(pathFromRoot)) {
      pointer.circular = true;
      return false;
    }
    const resolved = resolve(refPath, pointer.path);
    pointer.indirections += resolved.indirections + 1;
    if (isExtendedRef(pointer.value)) {
      // Extends the value rather than pointing at it: the path stays.
      pointer.value = dereference(pointer.value, resolved.value);
      return false;
    }
    pointer.document = resolved.document;
    pointer.path = resolved.path;
    pointer.value = resolved.value;
    return true;
  };

  /** The library's `Pointer.resolve`, token by token, `$ref`s followed on the way. */
  const walk = (pointer: ResolvedPointer, originalPath: string, pathFromRoot: string) => {
    const tokens = parsePointer(pointer.path);
    const found: string[] = [];
    pointer.value = pointer.document.value;
    for (let i = 0; i < tokens.length; i++) {
      if (followRef(pointer, pathFromRoot)) pointer.path = join(pointer.path, tokens.slice(i));
      const token = tokens[i]!;
      const value = pointer.value as Container;
      if (value[token] === undefined || (value[token] === null && i === tokens.length - 1)) {
        // A key holding slashes, read as several tokens: the longest run of them that names a key.
        let joined = false;
        for (let j = tokens.length - 1; j > i; j--) {
          const joinedToken = tokens.slice(i, j + 1).join("/");
          if (value[joinedToken] !== undefined) {
            pointer.value = value[joinedToken];
            i = j;
            joined = true;
            break;
          }
        }
        if (joined) continue;
        if (token in value && value[token] === null) {
          pointer.value = FOUND_NULL;
          continue;
        }
        pointer.value = null;
        // The library builds the found part's pointer for its error first, which throws on a lone surrogate.
        join("", found);
        throw new Error(`Missing $ref pointer "${getHash(decodeURI(originalPath))}". Token "${token}" does not exist.`);
      }
      pointer.value = value[token];
      found.push(token);
    }
    const value = pointer.value as Container | null;
    if (!value || (value["$ref"] && resolveUrl(pointer.path, value["$ref"] as string) !== pathFromRoot)) followRef(pointer, pathFromRoot);
  };

  const resolve = (path: string, pathFromRoot: string): ResolvedPointer => {
    const absPath = resolveUrl(rootPath, path);
    const withoutHash = stripHash(absPath);
    const document = $refs._$refs[withoutHash];
    if (!document) throw new Error(`Error resolving $ref pointer "${path}". \n"${withoutHash}" not found.`);
    const pointer: ResolvedPointer = { document, path: absPath, value: undefined, circular: false, indirections: 0 };
    walk(pointer, path || absPath, pathFromRoot);
    if (pointer.value === FOUND_NULL) pointer.value = null;
    return pointer;
  };
  return resolve;
}
