import { DiagnosticError } from "../diagnostics.js";

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

/**
 * Runs `read`, a stage that follows the spec's schemas into one another: a chain of thousands of
 * `$ref`s, each schema holding the next, ends it with a stack overflow, said as the spec's problem.
 */
export function withinDepth<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!overflowedStack(error)) throw error;
    throw new DiagnosticError([
      {
        code: "PRJ003",
        severity: "error",
        message: "cannot read the spec: its schemas hold one another, $ref in $ref, more levels deep than projector follows",
        help: "cut the chain: a schema that holds the next of its own kind can $ref itself, and a cycle is read as one",
        location: { file },
      },
    ]);
  }
}
