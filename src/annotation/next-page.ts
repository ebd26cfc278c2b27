import type { CheckKeys, NextAnnotation, Problem, YamlPath } from "./types.js";

const FORMS =
  "`next` is a body path (`links.next`), `{ path: meta.next_cursor, param: cursor }`, `{ header: link }`, `{ after_last: id, param: before }` or `{ offset: offset, limit: limit }`";

/** An HTTP header name (RFC 9110's token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A YAML mapping, as the annotation's reader takes it. */
export const isObject = (value: unknown): value is { [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads `page.next`, reporting every shape problem; undefined when it cannot be read. */
export function parseNext(value: unknown, path: YamlPath, problem: Problem, checkKeys: CheckKeys): NextAnnotation | undefined {
  const text = (key: string): string | undefined => {
    const found = isObject(value) ? value[key] : undefined;
    if (found === undefined) return undefined;
    if (typeof found === "string" && found.trim() !== "") return found;
    problem([...path, key], `page.next.${key} must be a non-empty name`, FORMS);
    return undefined;
  };
  if (typeof value === "string" && value.trim() !== "") return { kind: "body", source: value, path };
  if (!isObject(value)) {
    problem(path, `cannot read ${JSON.stringify(value)} as page.next`, FORMS);
    return undefined;
  }
  if ("todo" in value) return { kind: "todo", note: typeof value["todo"] === "string" ? value["todo"] : "", path };
  if ("header" in value) {
    checkKeys(value, path, ["header"], "page.next");
    const header = text("header");
    if (header === undefined) return undefined;
    if (!HEADER_NAME.test(header)) {
      problem([...path, "header"], `${JSON.stringify(header)} is not a header name`, "write `next: { header: link }`");
      return undefined;
    }
    return { kind: "header", header: header.toLowerCase(), path };
  }
  if ("after_last" in value) {
    checkKeys(value, path, ["after_last", "param", "limit"], "page.next");
    const source = text("after_last");
    const param = text("param");
    const limit = text("limit");
    if (value["param"] === undefined)
      problem(
        path,
        "page.next.after_last needs the query parameter that takes the value",
        "write `next: { after_last: id, param: before }`",
      );
    if (source === undefined || param === undefined) return undefined;
    return { kind: "after-last", source, param, ...(limit !== undefined ? { limit } : {}), path };
  }
  if ("offset" in value) {
    checkKeys(value, path, ["offset", "limit"], "page.next");
    const offset = text("offset");
    const limit = text("limit");
    if (offset === undefined) return undefined;
    return { kind: "offset", offset, ...(limit !== undefined ? { limit } : {}), path };
  }
  if ("path" in value) {
    checkKeys(value, path, ["path", "param"], "page.next");
    const source = text("path");
    const param = text("param");
    if (source === undefined) return undefined;
    return { kind: "body", source, ...(param !== undefined ? { param } : {}), path };
  }
  problem(path, `page.next names none of path, header, after_last, offset`, FORMS);
  return undefined;
}
