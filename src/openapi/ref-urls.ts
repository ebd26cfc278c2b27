// json-schema-ref-parser 14.0.1's URL helpers (lib/util/url.ts; MIT License, Copyright (c) 2015
// James Messinger, APIDevTools), as its resolve and bundle steps use them on `$ref`s.

/** The path without its hash (the URL fragment, a JSON pointer). */
export const stripHash = (path: string) => {
  const hashIndex = path.indexOf("#");
  return hashIndex >= 0 ? path.substring(0, hashIndex) : path;
};
/** The hash, or "#" for none. */
export const getHash = (path: string) => {
  const hashIndex = path.indexOf("#");
  return hashIndex >= 0 ? path.substring(hashIndex) : "#";
};

/**
 * The library's `url.resolve`. Its result never depends on `from`'s hash: a WHATWG URL resolved
 * against a base drops the base's fragment whatever the input. So it is computed once per document
 * and `$ref`, unless stripping the hash would leave trailing spaces or control characters, which the
 * URL parser trims from the end of its input.
 */
export function urlResolver(): (from: string, to: string) => string {
  // The library's convertPathToPosix: backslashes become slashes, except in a Windows extended-length path.
  // Named as the library names it: a `$ref` that is no string fails here with the library's message.
  const posix = (filePath: string) => (filePath.startsWith("\\\\?\\") ? filePath : filePath.split("\\").join("/"));
  const compute = (from: string, to: string) => {
    const fromUrl = new URL(posix(from), "https://aaa.nonexistanturl.com");
    const resolvedUrl = new URL(posix(to), fromUrl);
    const endSpaces = to.match(/(\s*)$/)?.[1] || "";
    if (resolvedUrl.hostname === "aaa.nonexistanturl.com") return resolvedUrl.pathname + resolvedUrl.search + resolvedUrl.hash + endSpaces;
    return resolvedUrl.toString() + endSpaces;
  };
  const resolved = new Map<string, string>();
  return (from, to) => {
    const document = stripHash(from);
    if (document.length > 0 && document.charCodeAt(document.length - 1) <= 32) return compute(from, to);
    const key = `${document}\u0000${to}`;
    let result = resolved.get(key);
    if (result === undefined) {
      result = compute(document, to);
      resolved.set(key, result);
    }
    return result;
  };
}
