/**
 * A spec nested thousands of levels deep: the loader, the schema check and openapi-typescript recurse
 * into every value, and such a spec ends them with a stack overflow, which is told apart here from
 * any other failure so that each says what it is rather than blame a path or crash.
 */
export const overflowedStack = (failure: unknown): boolean =>
  /Maximum call stack size exceeded/.test(typeof failure === "string" ? failure : failure instanceof Error ? failure.message : "");

/** What to do about a spec nested too deeply. */
export const TOO_DEEP_HELP =
  "name the deep parts as components (#/components/schemas/X) and $ref them, rather than writing them inline level under level";
