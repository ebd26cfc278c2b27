// `detail: full`: a field sent only when the tool is called with `detail: "full"`.

import type { Rule } from "./types.js";

export const DETAIL: Rule = {
  keys: ["detail"],
  docsRows: [
    [
      "`{ as: body, detail: full }`",
      'sent only when the tool is called with `detail: "full"`, and absent (not `null`) otherwise: the tool\'s input takes `detail: "summary" \\| "full"` (default `summary`) when one of its fields has it, and the output schema and result type mark such fields optional; on a part inside an object PRJ029',
    ],
  ],
  parse(written, problem) {
    const detail = written["detail"];
    if (detail === undefined) return {};
    if (detail === "full") return { detail };
    problem(
      ["detail"],
      `\`detail\` is \`full\`, not ${JSON.stringify(detail)}`,
      'write `detail: full` to send the field only when the tool is called with detail: "full"; leave it out to always send it',
    );
    return {};
  },
  note: (field) => (field.detail ? 'Sent only when the tool is called with detail: "full".' : undefined),
  sentWhen: { applies: (field) => field.detail !== undefined, local: "full", test: 'options.detail === "full"' },
};

/** Why `detail` on a part of `object` that stays inside it is refused: only a top-level field can be absent. */
export function detailOnPart(object: string): { message: string; help: string } {
  return {
    message: `\`detail\` applies to a field at the top of the result, and this one is a part of \`${object}\``,
    help: "lift the part to the top with `as`, or remove `detail`",
  };
}
