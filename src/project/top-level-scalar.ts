/** A plain scalar that YAML reads as the string it shows: no indicator first, no quote, comment or `: ` in it. */
const PLAIN = /^([^\s[\]{},#&*!|>'"%@`?:-][^'"#]*?)(?:[ \t]+#.*)?$/;
const SINGLE_QUOTED = /^'((?:[^']|'')*)'(?:[ \t]+#.*)?$/;
const DOUBLE_QUOTED = /^"([^"\\]*)"(?:[ \t]+#.*)?$/;

/**
 * The value of a top-level `key:` of a YAML annotation, found without parsing it: a line starting
 * with the key, its value a simple plain or quoted scalar on the same line. Only a line at the
 * first column can be a top-level key (a continued scalar or a block scalar is indented), but the
 * text may still not be the mapping it looks like, so the answer is a guess to be checked against
 * the parsed annotation. Undefined when the key is written any other way, or more than once.
 */
export function topLevelScalar(text: string, key: string): string | undefined {
  const lines = [...text.matchAll(new RegExp(`^${key}[ \\t]*:[ \\t]+(.*?)[ \\t\\r]*$`, "gm"))];
  if (lines.length !== 1) return undefined;
  const written = lines[0]![1]!;
  if (written.includes(": ")) return undefined;
  const plain = PLAIN.exec(written);
  if (plain) return plain[1];
  const single = SINGLE_QUOTED.exec(written);
  if (single) return single[1]!.replaceAll("''", "'");
  return DOUBLE_QUOTED.exec(written)?.[1];
}
