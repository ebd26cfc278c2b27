// What a projection is given: the caller's options, and the context each record is projected in.

import type { Labels } from "./resolvers.js";

export interface ProjectionIssue {
  readonly kind: "unresolved" | "unknown_code" | "unusable" | "missing";
  readonly resource: string;
  /** The field as the annotation names it. */
  readonly field: string;
  /**
   * The offending value only, bounded: a number, boolean, null or undefined as it was, a string cut
   * to {@link ISSUE_VALUE_CHARACTERS} characters and its unseen characters escaped as the message's
   * are (`\u202e`), and in place of an object or array its JSON type
   * (`"object"`, `"array"`), so that no record, and nothing the annotation drops, rides along.
   */
  readonly value: unknown;
  readonly resolver?: string;
  readonly message: string;
}

export interface RecordOptions {
  /** Called for every marker written and every promised value that is missing. */
  readonly onIssue?: ((issue: ProjectionIssue) => void) | undefined;
  /**
   * The short form to give each id, where it is not the plain {@link shortId}: a Map from
   * {@link shortenIds}, or a function. The tools pass one so that no two ids of a result collide.
   */
  readonly shortIds?: ShortIds | undefined;
  /** `"full"` sends the fields annotated `detail: full` too; they are absent otherwise. */
  readonly detail?: Detail | undefined;
}

/** How much of each record a projection sends: the fields annotated `detail: full` only with `"full"`. */
export type Detail = "summary" | "full";

/** A Map's ids missing from it get the plain {@link shortId}. */
export type ShortIds = ReadonlyMap<string, string> | ((id: string) => string);

/** The short form of each id where ids are shown whole: the id itself. */
export const WHOLE_IDS: ShortIds = (id) => id;

export interface ProjectOptions {
  readonly onIssue?: (issue: ProjectionIssue) => void;
  /** Aborting it fails the call with a {@link ResolverError} naming a resolver still unanswered. */
  readonly signal?: AbortSignal;
  /**
   * How long the call waits for its resolvers, in milliseconds, before failing with a
   * {@link ResolverError}; {@link DEFAULT_RESOLVER_TIMEOUT_MS} when not given, `Infinity` to wait for ever.
   */
  readonly timeoutMs?: number;
  /** Counts the tokens of a serialized result, for tools with a token budget; defaults to {@link conservativeTokenCount}. */
  readonly countTokens?: (text: string) => number;
  /** `"full"` sends the fields annotated `detail: full` too; they are absent otherwise. */
  readonly detail?: Detail | undefined;
  /**
   * The request and response the body came from, for a tool whose `next` they tell: the URL, the
   * response's headers (a `Link` header) and the query sent (an offset). `createTools` passes it.
   */
  readonly exchange?: PageExchange;
  /**
   * Where the short ids the result hands out go, as short, id, kind triples, instead of this
   * process's id book: createTools passes a list when its id book is shared, and remembers the list
   * there.
   */
  readonly handOuts?: string[];
  /**
   * Every id is shown whole, none shortened: the call has no id book of its own to expand a short
   * id with (createTools passes it for a `perCall` call that gives no `idBook`).
   */
  readonly wholeIds?: boolean;
}

/** What a call sent and got besides the body: a list tool's next page may be told by them. */
export interface PageExchange {
  /** The URL the request went to (openapi-fetch's `response.url`): a next URL must name its origin and path. */
  readonly url?: string | undefined;
  /** The response's headers, read for `next: { header: link }`. */
  readonly headers?: { get(name: string): string | null } | undefined;
  /** The query parameters the request sent, by their names in the spec, as sent (codes, not words). */
  readonly query?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * What a reader is told besides the value: the field as the annotation names it (issues name it),
 * whether the spec promises a value there, and the record's context.
 */
export interface ValueRead extends FieldRead {
  readonly required: boolean;
}

/**
 * What a reader of labels is told besides the field: the labels of the resolver named, and the key
 * of the result object being built, where a label the resolver gives later is filled in.
 */
export interface LabelsRead {
  readonly labels: Labels;
  readonly resolver: string;
  readonly key: string;
}

/** What a reader of related ids or labels is told: the field as the annotation names it, and the record's context. */
export interface FieldRead {
  readonly field: string;
  readonly ctx: Context;
}

export interface Context {
  readonly resource: string;
  readonly onIssue: ((issue: ProjectionIssue) => void) | undefined;
  readonly shortIds: ShortIds | undefined;
}

/** The context made last: the records of a page are projected alike, one after another, and share it. */
let lastContext: Context = {
  resource: "",
  onIssue: undefined,
  shortIds: undefined,
};

export function context(resource: string, options: RecordOptions): Context {
  const { onIssue, shortIds } = options;
  const last = lastContext;
  if (
    last.resource === resource &&
    last.onIssue === onIssue &&
    last.shortIds === shortIds
  )
    return last;
  lastContext = { resource, onIssue, shortIds };
  return lastContext;
}

/**
 * Tells the consumer's `onIssue` of each issue. It only hears of them: one that throws, or returns a
 * promise that rejects (an async logger whose sink is down), must cost the model neither its result
 * nor the process its life.
 */
export function passIssuesOn(
  onIssue: ProjectOptions["onIssue"],
  issues: readonly ProjectionIssue[],
): void {
  if (onIssue)
    for (const issue of issues) {
      try {
        settledQuietly(onIssue(issue));
      } catch {}
    }
}

/**
 * Lets a promise a consumer's hook returned, typed as returning nothing, reject unheard: a rejection
 * no one handles would end the process.
 */
export function settledQuietly(told: unknown): void {
  if (told instanceof Promise) told.catch(() => {});
}

/** The options a tool passes to each record's projection, made in this one place so that they share one layout. */
export function recordOptions(
  onIssue: RecordOptions["onIssue"],
  shortIds: ShortIds | undefined,
): RecordOptions {
  return { onIssue, shortIds };
}

/**
 * V8 forgets an object layout in a full GC once no object has it, and throws away the optimized
 * code that checks for it, so the first page after every full GC ran unoptimized. The objects made
 * per call and read per record (the
 * options, each record's context, the lookups) keep their layouts through one object of each.
 */
export const KEPT_LAYOUTS = new Map<string, object>([
  ["options", recordOptions(undefined, undefined)],
  ["context", context("", {})],
]);
