// Reading parsed JSON without trusting its shape or its prototype.

// Each tool call's own options, set up from the context its caller passes: a client carrying the
// user's token, resolvers with fresh DataLoaders, an onIssue that knows the request.

import type { CallOptions, ToolOutcome } from "./call-tool.js";
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

/**
 * The tools `make` makes from `options`. With `perCall`, each call first awaits it and is made from
 * what it returns laid over `options`, so a call's client, resolvers and onIssue are its own. A
 * `perCall` that throws, or returns something other than options, fails that call with an error.
 */
export function setUpEachCall<Options extends object, Tools extends object>(
  options: Options,
  perCall: ((call: CallInfo<never>) => unknown) | undefined,
  make: (options: Options) => Tools,
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
      const own = make({ ...options, ...setup }) as Record<string, Tool>;
      return own[name]!(args, call);
    };
  return tools as Tools;
}
