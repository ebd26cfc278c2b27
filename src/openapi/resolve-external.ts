/**
 * json-schema-ref-parser's resolve of external `$ref`s, ported from its release 14.0.1
 * (lib/resolve-external.ts; MIT License, Copyright (c) 2015 James Messinger, APIDevTools). Files
 * are read and parsed by the library's own `parse`, with the same promises in the same order, so
 * they are read in the library's order and `$refs` fills as it would. What differs:
 *
 * - the library builds a JSON pointer string for every key of every document only to resolve the
 *   `$ref`s met against it, and the result depends on the document alone (see `urlResolver`);
 *   here each `$ref` is resolved against its document's path;
 * - promises are gathered in one array, where the library concatenates one array per node.
 *
 * The loader sets neither `continueOnError` nor `dereference.externalReferenceResolution`, so their
 * branches are not ported: the first error rejects, as the library's default does.
 */
import { stripHash, urlResolver } from "./ref-urls.js";

/** One document in json-schema-ref-parser's `$Refs` (a `$Ref`). */
export interface RefDocument {
  value: unknown;
}

/** The part of json-schema-ref-parser's `$Refs` that resolving and bundling read: plain fields. */
export interface ExternalRefs {
  _root$Ref: { path: string };
  _$refs: Record<string, RefDocument | undefined>;
}

export type ParseFile = (path: string, $refs: ExternalRefs, options: object) => Promise<unknown>;

const isExternalRef = (value: object): value is { $ref: string } =>
  "$ref" in value && typeof value.$ref === "string" && value.$ref.length > 0 && value.$ref[0] !== "#";

const isWellFormed = (key: string) => (key as string & { isWellFormed(): boolean }).isWellFormed();

/** Reads every file the root's `$ref`s reach, and theirs, into `$refs`. */
export function resolveExternal(root: unknown, $refs: ExternalRefs, options: object, parseFile: ParseFile): Promise<unknown> {
  const resolveUrl = urlResolver();

  const crawl = (obj: unknown, documentPath: string, seen: Set<object>, promises: Promise<unknown>[]) => {
    if (!obj || typeof obj !== "object" || ArrayBuffer.isView(obj) || seen.has(obj)) return promises;
    seen.add(obj);
    if (isExternalRef(obj)) promises.push(resolveRef(obj, documentPath));
    for (const key of Object.keys(obj)) {
      // The library encodes each key into a pointer first, which throws on a lone surrogate.
      if (!isWellFormed(key)) encodeURIComponent(key);
      crawl((obj as Record<string, unknown>)[key], documentPath, seen, promises);
    }
    return promises;
  };

  const resolveRef = async ($ref: { $ref: string }, documentPath: string): Promise<unknown> => {
    const resolvedPath = resolveUrl(documentPath, $ref.$ref);
    const withoutHash = stripHash(resolvedPath);
    const known = $refs._$refs[withoutHash];
    if (known) return Promise.resolve(known.value);
    const result = await parseFile(resolvedPath, $refs, options);
    return Promise.all(crawl(result, `${withoutHash}#`, new Set(), []));
  };

  try {
    return Promise.all(crawl(root, `${$refs._root$Ref.path}#`, new Set(), []));
  } catch (error) {
    return Promise.reject(error);
  }
}
