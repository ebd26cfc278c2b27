// Each tool call's own options, set up from the context its caller passes: a client carrying the
// user's token, resolvers with fresh DataLoaders, an onIssue that knows the request.

import {
  type CallOptions,
  DEFAULT_CALL_TIMEOUT_MS,
  timeLeft,
  type ToolOutcome,
  type ToolSettings,
  waitsOf,
  within,
} from "./call-tool.js";
import { type IdBook, useIdBook } from "./id-book.js";
import { messageOf, typeName } from "./quoting.js";
import { checkedTimeoutMs } from "./timeouts.js";

/** What `perCall` is told of the call it sets up. */
export interface CallInfo<Context> {
  /** The tool's name. */
  readonly tool: string;
  /** What the caller passed as the call's `context`; registerTools passes the MCP SDK's `extra`. */
  readonly context: Context | undefined;
  /** The call's signal, when it has one. */
  readonly signal: AbortSignal | undefined;
}

type Tool = (
  args: never,
  call?: CallOptions<never>,
) => Promise<ToolOutcome<unknown>>;

/** The id book a call made for one caller uses: the one its `perCall` gave, else none. */
export interface CallerBook {
  readonly idBook: unknown;
}

/**
 * The id book of a call's settings: createTools' own (`shared`, undefined for this process's), or
 * for a call made for one caller, the book its `perCall` gave, else none, with ids shown whole.
 */
export function idBookOfCall(
  shared: IdBook | undefined,
  callerBook: CallerBook | undefined,
): Pick<ToolSettings, "idBook" | "wholeIds"> {
  if (!callerBook) return { idBook: shared };
  if (callerBook.idBook === undefined) return { wholeIds: true };
  return { idBook: useIdBook(callerBook.idBook as IdBook) };
}

/**
 * The tools `make` makes from `options`. With `perCall`, each call first awaits it and is made from
 * what it returns laid over `options`, so a call's client, resolvers and onIssue are its own, and
 * its id book only the one `perCall` returned (`make` is told it as {@link CallerBook}). A
 * `perCall` that throws, or returns something other than options, an id book that is not one or an
 * onIssue that is not a function, fails that call with an error; such an onIssue given to
 * createTools itself throws there.
 */
export function setUpEachCall<Options extends object, Tools extends object>(
  options: Options,
  perCall: ((call: CallInfo<never>) => unknown) | undefined,
  make: (options: Options, callerBook?: CallerBook) => Tools,
): Tools {
  checkedOnIssue(options, "createTools");
  if (!perCall) return make(options);
  const names = Object.keys(make(options));
  const tools: Record<string, Tool> = {};
  for (const name of names)
    tools[name] = async (args, call = {}) => {
      if (call.timeoutMs !== undefined)
        checkedTimeoutMs(call.timeoutMs, `the options of a ${name} call`);
      // perCall's wait is part of the call: its timeout and its signal bound it as any other.
      const waits = waitsOf({
        ...call,
        timeoutMs:
          call.timeoutMs ??
          (options as { readonly timeoutMs?: number }).timeoutMs ??
          DEFAULT_CALL_TIMEOUT_MS,
      });
      const set = await within(waits, (signal) =>
        Promise.resolve(perCall({ tool: name, context: call.context, signal })),
      );
      if ("cancelled" in set)
        return { error: `${name}: the call was cancelled` };
      if ("timedOut" in set)
        return {
          error: `${name}: the call could not be set up within ${set.timedOut / 1000} seconds, the time it has; try again later`,
        };
      if ("thrown" in set)
        return {
          error: `${name}: the call could not be set up (${messageOf(set.thrown)})`,
        };
      const setup: unknown = set.answer;
      if (
        setup !== undefined &&
        (typeof setup !== "object" || setup === null || Array.isArray(setup))
      )
        return {
          error: `${name}: the call could not be set up (perCall returned ${typeName(setup)}, not options)`,
        };
      let own: Record<string, Tool>;
      try {
        if (setup) checkedOnIssue(setup, "perCall");
        own = make(
          { ...options, ...setup },
          { idBook: setup && (setup as { idBook?: unknown }).idBook },
        ) as Record<string, Tool>;
      } catch (thrown) {
        return {
          error: `${name}: the call could not be set up (${messageOf(thrown)})`,
        };
      }
      return own[name]!(args, { ...call, timeoutMs: timeLeft(waits) });
    };
  return tools as Tools;
}

/** Checks that options' `onIssue`, where given, is a function: any other would lose every issue unheard. */
function checkedOnIssue(options: object, who: string): void {
  const { onIssue } = options as { readonly onIssue?: unknown };
  if (onIssue !== undefined && typeof onIssue !== "function")
    throw new TypeError(
      `${who}: onIssue must be a function; got ${typeName(onIssue)}`,
    );
}
