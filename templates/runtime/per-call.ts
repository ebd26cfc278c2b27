// Each tool call's own options, set up from the context its caller passes: a client carrying the
// user's token, resolvers with fresh DataLoaders, an onIssue that knows the request.

import type { CallOptions, ToolOutcome, ToolSettings } from "./call-tool.js";
import { type IdBook, useIdBook } from "./id-book.js";
import { messageOf, typeName } from "./quoting.js";

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
 * `perCall` that throws, or returns something other than options, or an id book that is not one,
 * fails that call with an error.
 */
export function setUpEachCall<Options extends object, Tools extends object>(
  options: Options,
  perCall: ((call: CallInfo<never>) => unknown) | undefined,
  make: (options: Options, callerBook?: CallerBook) => Tools,
): Tools {
  if (!perCall) return make(options);
  const names = Object.keys(make(options));
  const tools: Record<string, Tool> = {};
  for (const name of names)
    tools[name] = async (args, call = {}) => {
      let setup: unknown;
      try {
        setup = await perCall({
          tool: name,
          context: call.context,
          signal: call.signal,
        });
      } catch (thrown) {
        return {
          error: `${name}: the call could not be set up (${messageOf(thrown)})`,
        };
      }
      if (
        setup !== undefined &&
        (typeof setup !== "object" || setup === null || Array.isArray(setup))
      )
        return {
          error: `${name}: the call could not be set up (perCall returned ${typeName(setup)}, not options)`,
        };
      let own: Record<string, Tool>;
      try {
        own = make(
          { ...options, ...setup },
          { idBook: setup && (setup as { idBook?: unknown }).idBook },
        ) as Record<string, Tool>;
      } catch (thrown) {
        return {
          error: `${name}: the call could not be set up (${messageOf(thrown)})`,
        };
      }
      return own[name]!(args, call);
    };
  return tools as Tools;
}
