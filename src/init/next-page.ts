import type { NextAnnotation } from "../annotation/types.js";
import { cursorParameter, holdsUrl, nextPageOf } from "../model/next-page.js";
import { child, type SchemaAt, type SchemaReader } from "../openapi/schema.js";
import { operationParameters, type Operation, type ResponseBody } from "../model/operations.js";
import { identityOf, type Rows } from "../model/rows.js";

/** A drafted `page.next`: the rule as YAML writes it, and whether the spec tells it for sure. */
export interface DraftNext {
  /** Absent where the spec shows paging but not how to follow it. */
  rule?: string | { [key: string]: string };
  sure: boolean;
  reason: string;
}

/** How deep a next URL or cursor is looked for in a response: `links.pages.next`, `artists.cursors.after`. */
const DEPTH = 3;
const NEXT_NAME = /^next([_-]?page)?([_-]?(url|uri|link|href))?$/i;
const CURSOR_NAME = /^(next[_-]?)?(cursor|page[_-]?token|token|after|marker|continuation([_-]?token)?)$/i;
const OFFSET_NAMES = ["offset", "skip", "start"];
const LIMIT_NAMES = ["limit", "per_page", "perPage", "page_size", "pageSize", "size", "count", "max_results", "maxResults"];
const AFTER_NAMES = ["after", "starting_after", "after_id", "afterId"];
const PAGE_NAMES = /^(page|page\[number\]|pageNumber|page_number)$/;

/** Body paths that may hold the next page's URL or cursor: `next` and cursor names, not under the records. */
function candidatePaths(reader: SchemaReader, body: SchemaAt, rows: Rows): string[][] {
  const found: { path: string[]; url: boolean }[] = [];
  const visit = (at: SchemaAt, path: string[]) => {
    if (path.length >= DEPTH) return;
    for (const property of reader.properties(at)) {
      const here = [...path, property.name];
      if (here.join(".") === rows.path.join(".")) continue;
      if (NEXT_NAME.test(property.name) || (CURSOR_NAME.test(property.name) && !reader.objectLike(property.at)))
        found.push({ path: here, url: holdsUrl(reader, property.at, here) });
      else if (reader.objectLike(property.at)) visit(property.at, here);
    }
  };
  visit(body, []);
  // A next URL first: it carries everything the next page needs.
  return [...found.filter((f) => f.url), ...found.filter((f) => !f.url)].map((f) => f.path);
}

function declaresLinkHeader(reader: SchemaReader, op: Operation, status: string): boolean {
  const declared = child(op.at, "responses", status);
  const headers = declared && child(reader.deref(declared), "headers");
  return headers !== undefined && Object.keys(headers.schema).some((name) => name.toLowerCase() === "link");
}

/**
 * Drafts `page.next` for a list tool: a next URL or cursor the response declares, a `Link` header it
 * declares, offset and limit parameters, or an `after` parameter taking the last record's id (a
 * guess). Each is kept only when generate would follow it. Where the operation shows paging (a
 * page or cursor parameter) and none of these, the draft says so as a `todo`; otherwise nothing.
 */
export function draftNext(reader: SchemaReader, op: Operation, body: ResponseBody, rows: Rows): DraftNext | undefined {
  const query = operationParameters(reader, op).filter((p) => p.in === "query");
  const names = query.map((p) => p.name);
  const follows = (next: NextAnnotation) => {
    let ok = true;
    nextPageOf(
      {
        reader,
        op,
        tool: "draft",
        response: body.schema,
        rows,
        parameters: operationParameters(reader, op)
          .filter((p) => p.in === "query" || p.in === "path")
          .map((p) => ({ name: p.name, in: p.in as "query" | "path", argument: p.name })),
        error: () => (ok = false),
        locateSpec: (pointer) => ({ file: "", pointer }),
      },
      next,
    );
    return ok;
  };
  for (const path of candidatePaths(reader, body.schema, rows)) {
    const source = path.join(".");
    if (!follows({ kind: "body", source, path: [] })) continue;
    const cursor = cursorParameter(path[path.length - 1]!, names);
    return {
      rule: source,
      sure: true,
      reason: cursor === undefined ? `${source} holds the next page's URL` : `${source} holds the cursor ${cursor} takes`,
    };
  }
  if (declaresLinkHeader(reader, op, body.status) && follows({ kind: "header", header: "link", path: [] }))
    return { rule: { header: "link" }, sure: true, reason: "the response declares a Link header" };
  const offset = names.find((n) => OFFSET_NAMES.includes(n));
  const limit = names.find((n) => LIMIT_NAMES.includes(n));
  const withLimit = limit === undefined ? {} : { limit };
  if (offset !== undefined && follows({ kind: "offset", offset, ...withLimit, path: [] }))
    return { rule: { offset, ...withLimit }, sure: true, reason: `${offset} skips records` };
  const identity = rows.jsonapi ? "id" : identityOf(reader, rows.item);
  const after = names.find((n) => AFTER_NAMES.includes(n)) ?? names.find((n) => n === "before");
  if (after !== undefined && identity !== undefined) {
    const rule = { after_last: identity, param: after, ...withLimit };
    if (follows({ kind: "after-last", source: identity, param: after, ...withLimit, path: [] }))
      return { rule, sure: false, reason: `${after} may take the last record's ${identity}; check that the API pages so` };
  }
  const paging = names.find((n) => PAGE_NAMES.test(n) || CURSOR_NAME.test(n) || OFFSET_NAMES.includes(n));
  if (paging !== undefined)
    return {
      sure: false,
      reason: `it takes ${paging}, but the response gives no next URL or cursor; say where the next page comes from, or remove next`,
    };
  return undefined;
}
