// Reading parsed JSON without trusting its shape or its prototype.

// How long a call waits: one rule for the API's answer and the resolvers' labels.

import { typeName } from "./quoting.js";

/** The longest wait setTimeout keeps, 2^31 - 1 ms (about 24.8 days): a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * `timeoutMs` when it is a wait the runtime can keep: `Infinity` (no timeout) or a number of
 * milliseconds above 0 and at most {@link MAX_TIMEOUT_MS}. Anything else is a programming error,
 * thrown at once (a TypeError or RangeError naming `who`) rather than failing every call.
 */
export function checkedTimeoutMs(timeoutMs: unknown, who: string): number {
  if (typeof timeoutMs !== "number")
    throw new TypeError(
      `${who}: timeoutMs must be a number of milliseconds or Infinity, not ${typeName(timeoutMs)}`,
    );
  if (timeoutMs === Infinity || (timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS))
    return timeoutMs;
  throw new RangeError(
    `${who}: timeoutMs must be above 0 and at most ${MAX_TIMEOUT_MS} milliseconds, or Infinity to wait for ever; got ${timeoutMs}`,
  );
}

/** Calls `onTimeout` after `timeoutMs` milliseconds, as checked by {@link checkedTimeoutMs}; `Infinity` sets no timer. */
export function timerFor(
  timeoutMs: number,
  onTimeout: () => void,
): ReturnType<typeof setTimeout> | undefined {
  return timeoutMs === Infinity ? undefined : setTimeout(onTimeout, timeoutMs);
}
