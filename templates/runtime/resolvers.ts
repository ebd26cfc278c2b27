// Resolvers: who names ids and codes at run time, called at most once per tool call.

import { KEPT_LAYOUTS, type ProjectOptions } from "./context.js";
import { messageOf, typeName } from "./quoting.js";
import { checkedTimeoutMs, timerFor } from "./timeouts.js";

/** Labels by id (or by code, for a legend looked up at run time). An `Error` marks that one id as failed. */
export type Labels = ReadonlyMap<string, string | Error>;

/**
 * Called at most once per tool call, with the distinct ids still unnamed; never with an empty list.
 * Its `signal` aborts when the call stops waiting for it (a timeout, or the call cancelled), so a
 * request it made can stop too.
 */
export type Resolver = (
  ids: readonly string[],
  call?: { readonly signal: AbortSignal },
) => Promise<Labels> | Labels;

/**
 * A resolver rejected, returned something other than a Map, did not answer within the call's
 * timeout, or the call was aborted; the whole tool call fails with it.
 */
export class ResolverError extends Error {
  readonly resolver: string;
  constructor(resolver: string, cause: unknown) {
    super(`resolver "${resolver}" failed: ${messageOf(cause)}`, { cause });
    this.name = "ResolverError";
    this.resolver = resolver;
  }
}

/** How long a tool call waits for its resolvers by default: 30 seconds. */
export const DEFAULT_RESOLVER_TIMEOUT_MS = 30_000;

/**
 * Calls each resolver at most once, concurrently, with the ids `included` did not already name.
 * Labels the resolver returns for ids it was not asked about are ignored. Fails with a
 * {@link ResolverError} when the resolvers have not all answered within `options.timeoutMs`, or
 * when `options.signal` aborts first.
 */
export async function resolveLabels<K extends string>(
  wanted: Readonly<Record<K, Iterable<string>>>,
  resolvers: Readonly<Record<K, Resolver>>,
  known: ReadonlyMap<string, ReadonlyMap<string, string>>,
  options: Pick<ProjectOptions, "signal" | "timeoutMs"> = {},
): Promise<Record<K, Labels>> {
  const timeoutMs = checkedTimeoutMs(
    options.timeoutMs ?? DEFAULT_RESOLVER_TIMEOUT_MS,
    "ProjectOptions",
  );
  const names = Object.keys(wanted) as K[];
  const unanswered = new Set<string>();
  // Aborted once the call stops waiting, so that what a resolver started stops with it.
  const stopped = new AbortController();
  const answers = Promise.all(
    names.map(async (name): Promise<Labels> => {
      const labels = new Map<string, string | Error>(known.get(name) ?? []);
      const missing = [...wanted[name]].filter((id) => !labels.has(id));
      if (missing.length === 0) return labels;
      const resolver = resolvers[name];
      if (typeof resolver !== "function")
        throw new ResolverError(
          name,
          new Error("no resolver function was passed"),
        );
      // An aborted call asks no resolver.
      if (options.signal?.aborted)
        throw new ResolverError(
          name,
          options.signal.reason ?? new Error("the call was aborted"),
        );
      let answer: unknown;
      unanswered.add(name);
      try {
        answer = await resolver(missing, { signal: stopped.signal });
      } catch (error) {
        throw new ResolverError(name, error);
      } finally {
        unanswered.delete(name);
      }
      if (!(answer instanceof Map))
        throw new ResolverError(
          name,
          new Error(
            `returned ${typeName(answer)}, expected a Map of id to label`,
          ),
        );
      for (const id of missing) {
        const found: unknown = answer.get(id);
        // An empty label names nothing: the id stays unresolved, with its issue.
        if (
          (typeof found === "string" && found !== "") ||
          found instanceof Error
        )
          labels.set(id, found);
      }
      return labels;
    }),
  );
  const resolved = await withinDeadline(
    answers,
    unanswered,
    timeoutMs,
    options.signal,
    stopped,
  );
  const layout = `lookups:${names.join(",")}`;
  if (!KEPT_LAYOUTS.has(layout))
    KEPT_LAYOUTS.set(
      layout,
      Object.fromEntries(names.map((name) => [name, new Map()])),
    );
  return Object.fromEntries(
    names.map((name, i) => [name, resolved[i]!]),
  ) as Record<K, Labels>;
}

/**
 * The resolvers' answers, or a {@link ResolverError} naming one still unanswered when the timeout
 * passes or the signal aborts first, when `stopped` aborts too. The timer and the abort listener
 * go as soon as either happens.
 */
function withinDeadline<T>(
  answers: Promise<T>,
  unanswered: ReadonlySet<string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  stopped: AbortController,
): Promise<T> {
  // No resolver was called: nothing to wait for, no timer to set or clear.
  if (unanswered.size === 0) return answers;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (cause: unknown) => {
      finish();
      stopped.abort(cause);
      // Sorted, so which resolver is named does not depend on which was called first.
      reject(new ResolverError([...unanswered].sort()[0] ?? "", cause));
    };
    const onAbort = () =>
      fail(signal?.reason ?? new Error("the call was aborted"));
    // Settling after a timeout or an abort changes nothing, but a late rejection is still handled.
    answers.then(
      (value) => {
        finish();
        resolve(value);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    timer = timerFor(timeoutMs, () =>
      fail(new Error(`did not answer within ${timeoutMs} ms`)),
    );
  });
}
