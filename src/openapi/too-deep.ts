import { overflowedStack, refusal } from "../diagnostics.js";

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
    throw refusal(
      "PRJ003",
      "cannot read the spec: its schemas hold one another, $ref in $ref, more levels deep than projector follows",
      "cut the chain: a schema that holds the next of its own kind can $ref itself, and a cycle is read as one",
      { file },
    );
  }
}
