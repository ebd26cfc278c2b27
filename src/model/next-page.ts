import type { NextAnnotation, YamlPath } from "../annotation/types.js";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { squeezed } from "../naming.js";
import type { SchemaAt, SchemaReader } from "../openapi/schema.js";
import { didYouMean } from "../suggest.js";
import { operationLabel, operationParameters, type Operation } from "./operations.js";
import type { InputParameter, NextPageModel } from "./types.js";

export interface NextContext {
  reader: SchemaReader;
  op: Operation;
  tool: string;
  /** The schema of the success response's body. */
  response: SchemaAt;
  /** Where the records are, and whether the tool returns a list of them. */
  rows: { many: boolean; item: SchemaAt; jsonapi: boolean };
  /** The tool's parameters as its inputs show and fix them; a dropped one is not among them. */
  parameters: readonly Pick<InputParameter, "name" | "in" | "argument" | "fixed">[];
  error: (code: Diagnostic["code"], message: string, help: string, path: YamlPath, related?: SourceLocation) => void;
  locateSpec: (pointer: string) => SourceLocation;
}

const URL_FORMATS = new Set(["uri", "url", "uri-reference", "iri", "iri-reference"]);

/**
 * The query parameter that takes the cursor at a body path, told by the path's last name: the
 * parameter of that name (`cursors.after` to `after`), or of that name without `next`
 * (`next_cursor` to `cursor`, `nextPageToken` to `pageToken`), or the one parameter ending in it
 * (`page[cursor]`); undefined when none or several do.
 */
export function cursorParameter(leaf: string, settable: readonly string[]): string | undefined {
  const names = [squeezed(leaf), squeezed(leaf.replace(/^next(?=[A-Z_-])[_-]?/, ""))].filter((n) => n !== "");
  const exact = settable.filter((p) => names.includes(squeezed(p)));
  if (exact.length > 0) return exact.length === 1 ? exact[0] : undefined;
  const ending = settable.filter((p) => names.some((n) => squeezed(p).endsWith(n)));
  return ending.length === 1 ? ending[0] : undefined;
}

/** Whether the value at a body path reads as a next URL: declared a URL, named like one, or a JSON:API link. */
export function holdsUrl(reader: SchemaReader, at: SchemaAt, segments: readonly string[]): boolean {
  const leaf = segments[segments.length - 1]!;
  const format = reader.unwrapNullable(at).schema["format"];
  return (
    (typeof format === "string" && URL_FORMATS.has(format)) ||
    /(url|uri|href|link)$/i.test(leaf) ||
    leaf === "next" ||
    segments[0] === "links" ||
    (reader.kind(at) === "object" && reader.property(at, "href") !== undefined)
  );
}

/** The schema at a dotted path of the response or record, or the first step that is not declared. */
export function walk(
  reader: SchemaReader,
  from: SchemaAt,
  segments: readonly string[],
): { at: SchemaAt } | { missing: number; at: SchemaAt } {
  let at = from;
  for (const [i, segment] of segments.entries()) {
    const property = reader.property(at, segment);
    if (!property) return { missing: i, at };
    at = property.at;
  }
  return { at };
}

/** PRJ031's words for a response path whose step `missing` the schema at `at` does not declare. */
export function undeclaredPath(reader: SchemaReader, { at, missing }: { at: SchemaAt; missing: number }, segments: readonly string[]) {
  const names = reader.properties(at).map((p) => p.name);
  return {
    message: `the response has no ${segments.slice(0, missing + 1).join(".")}${didYouMean(segments[missing]!, names)}`,
    help: names.length
      ? `${segments.slice(0, missing).join(".") || "the response"} declares: ${names.join(", ")}`
      : "name a path the response schema declares",
  };
}

/** A fixed value as a URL writes it, or undefined for one a URL cannot repeat (an object). */
function urlText(value: unknown): string | undefined {
  if (["string", "number", "boolean"].includes(typeof value)) return String(value);
  if (Array.isArray(value) && value.every((item) => ["string", "number", "boolean"].includes(typeof item))) return value.join(",");
  return undefined;
}

/**
 * The model of a tool's `page.next`, checked against the spec and the tool's inputs: every path it
 * reads is declared, and every parameter it sets is a query parameter the model sets. Undefined,
 * with the problem reported, when it cannot be followed.
 */
export function nextPageOf(ctx: NextContext, next: NextAnnotation): NextPageModel | undefined {
  const { reader, op, tool } = ctx;
  const fail = (code: Diagnostic["code"], message: string, help: string, path: YamlPath = next.path, related?: SourceLocation) => {
    ctx.error(code, `tool ${tool}: ${message}`, help, path, related);
    return undefined;
  };
  if (next.kind === "todo")
    return fail(
      "PRJ032",
      `page.next is still a guess${next.note ? `: ${next.note}` : ""}`,
      "delete the `todo:` key to accept the guess beside it, write how the next page is found, or remove `next`",
    );
  if (!ctx.rows.many)
    return fail("PRJ029", "returns one record, so it has no next page", "remove `page.next`, or use it on a tool that returns a list");
  const taken = ctx.parameters.find((p) => p.argument === "next");
  if (taken)
    return fail(
      "PRJ091",
      `parameter "${taken.name}" is passed as \`next\`, the argument that takes a result's next page`,
      `rename it: \`inputs: { ${JSON.stringify(taken.name)}: { as: OTHER } }\``,
    );
  const declared = operationParameters(reader, op).filter((p) => p.in === "query");
  const query = ctx.parameters.filter((p) => p.in === "query");
  const settable = query.filter((p) => p.argument !== undefined && !p.fixed).map((p) => p.name);
  /** The query parameter the operation declares by this name, or undefined with the problem reported at `key`. */
  const declaredAt = (name: string, key: string, help: string) => {
    const parameter = declared.find((p) => p.name === name);
    if (parameter) return parameter;
    const names = declared.map((p) => p.name);
    return fail("PRJ090", `page.next.${key}: ${operationLabel(op)} has no query parameter "${name}"${didYouMean(name, names)}`, help, [
      ...next.path,
      key,
    ]);
  };
  /** A query parameter the next page sets: declared, and neither fixed nor dropped. */
  const sets = (name: string, key: string): boolean => {
    const help = declared.length
      ? `its query parameters: ${declared.map((p) => p.name).join(", ")}`
      : "the operation takes no query parameters";
    if (!declaredAt(name, key, help)) return false;
    if (settable.includes(name)) return true;
    const fixed = query.some((p) => p.name === name && p.fixed);
    fail(
      "PRJ091",
      `page.next sets "${name}", which the tool's inputs ${fixed ? "fix" : "drop"}, so no next page could be asked for`,
      `remove the ${fixed ? "`fixed`" : "`drop`"} of "${name}" under inputs, or find the next page another way`,
      [...next.path, key],
    );
    return false;
  };
  /** A limit read from the request: declared, fixed or set. */
  const limitOf = (name: string | undefined): { ok: boolean; defaultLimit?: number } => {
    if (name === undefined) return { ok: true };
    const parameter = declaredAt(name, "limit", "name the query parameter that says how many records a page holds");
    if (!parameter) return { ok: false };
    const fallback = reader.unwrapNullable(parameter.at).schema["default"];
    return { ok: true, ...(Number.isSafeInteger(fallback) && (fallback as number) > 0 ? { defaultLimit: fallback as number } : {}) };
  };
  const followsUrls = () =>
    settable.length > 0 ||
    fail(
      "PRJ090",
      `page.next reads a next URL, but ${operationLabel(op)} has no query parameter the model sets, so no next page could be asked for`,
      "a next page is asked for through the operation's own query parameters: page this tool another way, or not at all",
    );
  const fixed = query.flatMap((p): [string, string][] => {
    const text = p.fixed ? urlText(p.fixed.value) : undefined;
    return text === undefined ? [] : [[p.name, text]];
  });
  const model = (source: NextPageModel["source"], defaultLimit?: number): NextPageModel => ({
    path: op.path,
    source,
    settable,
    ...(fixed.length ? { fixed } : {}),
    ...(defaultLimit !== undefined ? { defaultLimit } : {}),
  });

  switch (next.kind) {
    case "header":
      return followsUrls() ? model({ header: next.header }) : undefined;
    case "body": {
      const segments = next.source.split(".");
      const found = walk(reader, ctx.response, segments);
      if ("missing" in found) {
        const { message, help } = undeclaredPath(reader, found, segments);
        return fail("PRJ031", message, help, next.path, ctx.locateSpec(found.at.pointer));
      }
      if (next.param !== undefined) return sets(next.param, "param") ? model({ body: segments, param: next.param }) : undefined;
      if (holdsUrl(reader, found.at, segments)) return followsUrls() ? model({ body: segments }) : undefined;
      const param = cursorParameter(segments[segments.length - 1]!, settable);
      if (param !== undefined) return model({ body: segments, param });
      return fail(
        "PRJ090",
        `page.next: cannot tell which query parameter takes the cursor at ${next.source}`,
        `name it: \`next: { path: ${next.source}, param: ${settable[0] ?? "cursor"} }\`; a next URL is told by \`format: uri\` in the spec, or a name ending in url, uri or link`,
      );
    }
    case "after-last": {
      const segments = next.source.split(".");
      const inRecord = ctx.rows.jsonapi && segments[0] !== "id" ? ["attributes", ...segments] : segments;
      const found = walk(reader, ctx.rows.item, inRecord);
      if ("missing" in found)
        return fail(
          "PRJ090",
          `page.next.after_last: the records have no ${next.source}`,
          "name the record's field whose last value the next page continues after, usually its id",
          [...next.path, "after_last"],
          ctx.locateSpec(found.at.pointer),
        );
      const limit = limitOf(next.limit);
      if (!sets(next.param, "param") || !limit.ok) return undefined;
      return model(
        {
          afterLast: inRecord,
          param: next.param,
          ...idsOf(reader.kind(found.at)),
          ...(next.limit !== undefined ? { limit: next.limit } : {}),
        },
        limit.defaultLimit,
      );
    }
    case "offset": {
      const limit = limitOf(next.limit);
      if (!sets(next.offset, "offset") || !limit.ok) return undefined;
      const offset = declared.find((p) => p.name === next.offset)!;
      const kind = reader.kind(offset.at);
      if (kind !== undefined && kind !== "integer" && kind !== "number")
        return fail(
          "PRJ090",
          `page.next.offset: "${next.offset}" takes ${kind === "array" ? "an" : "a"} ${kind}, not a number of records to skip`,
          "name the query parameter that says how many records to skip",
          [...next.path, "offset"],
        );
      return model({ offset: next.offset, ...(next.limit !== undefined ? { limit: next.limit } : {}) }, limit.defaultLimit);
    }
  }
}

/**
 * The id type an `after_last` value must have, as the records' own reader reads it: text or an
 * integer where the spec declares one, text or a whole number where it declares no single type.
 */
function idsOf(kind: string | undefined): { ids?: "text" | "integer" | "text or number" } {
  if (kind === "string") return { ids: "text" };
  if (kind === "integer") return { ids: "integer" };
  return kind === undefined ? { ids: "text or number" } : {};
}
