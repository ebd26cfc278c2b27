// `drop: "reason"`: a field never sent, its reason kept in the generated docs; `x.*` drops every
// part no other key names.

import type { DropRule, ParseProblem, Rule } from "./types.js";

export const DROP: Rule = {
  keys: ["drop"],
  docsRows: [
    ['`{ drop: "reason" }`', "never sent; the reason is kept in the generated docs"],
    [
      '`x.*: { drop: "reason" }`',
      'drops every part of `x` that no other key names, now and when the spec gains more (generate lists each under the tool it covered); `"*"` alone covers a whole resource; a default never keeps (PRJ037)',
    ],
  ],
};

export const DROP_NEEDS_REASON = { message: "a drop needs its reason", help: 'write `{ drop: "why the model never needs this" }`' };

/** A drop as written, which takes no other key; `isRuleKey` tells a rule's key from a word of the reason. */
export function parseDrop(
  written: Readonly<Record<string, unknown>>,
  problem: ParseProblem,
  isRuleKey: (key: string) => boolean,
): DropRule | undefined {
  const extra = Object.keys(written).filter((key) => key !== "drop");
  const reason = written["drop"];
  // `{ drop: staff only, never shown }` reads as two keys: the comma ended the reason.
  const cut = extra.filter((key) => written[key] === null && !isRuleKey(key));
  if (cut.length > 0 && typeof reason === "string") {
    const whole = [reason, ...cut].join(", ");
    problem(
      [cut[0]!],
      `the drop reason stops at a comma: "${reason}", then "${cut[0]}" reads as another option`,
      `quote it: \`{ drop: ${JSON.stringify(whole)} }\``,
      "key",
    );
    return undefined;
  }
  if (extra.length > 0)
    problem([extra[0]!], `a dropped field takes no other options (found "${extra[0]}")`, "remove the other options or the drop", "key");
  if (typeof reason !== "string" || reason.trim() === "") {
    problem(["drop"], DROP_NEEDS_REASON.message, DROP_NEEDS_REASON.help);
    return undefined;
  }
  return { kind: "drop", reason };
}
