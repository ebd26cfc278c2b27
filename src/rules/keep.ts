// `keep`: a value kept as it is. No value kept may show the model a credential, and a value kept
// whole must not carry what the model cannot use: an opaque id, a URL it cannot open, or codes it
// would have to guess the meaning of.

import type { Shape } from "./field.js";
import type { KeepRule, Rule, RuleProblem, SpecFacts } from "./types.js";

export const KEEP: Rule = {
  keys: [],
  docsRows: [
    ["`keep`", "kept as it is"],
    [
      "`address.city: keep`",
      "dotted paths classify the parts of an object, and of each item of a list of objects (`custom_fields.name: keep`); once one part is named, all must be",
    ],
  ],
  check(rule, field, problem) {
    const { name } = field;
    if (field.role === "relationship" && !rule.join && !rule.argument)
      problem(
        "PRJ022",
        "a relationship must be joined to a name, kept as an argument id, or dropped",
        `write \`${name}: { join: RESOLVER }\`, \`${name}: { argument: [tool] }\`, or \`${name}: { drop: "reason" }\``,
      );
    else if (field.role === "id")
      problem(
        "PRJ022",
        "an id is kept only as an argument to a tool or as a join key",
        `write \`${name}: { argument: [tool_that_takes_it] }\`, \`{ join: RESOLVER }\`, \`{ drop: "reason" }\`, or, for a number people quote, \`{ fact: "why" }\``,
      );
    else if (field.role === "value" || field.role === "join key") checkCredential(field, rule, problem);
  },
  // A value no other rule reads, by its shape: a scalar by its type, an enum's member by the module
  // constant of its members, and a value kept whole against its result schema.
  value: {
    reads: () => true,
    read({ shape }, value, scope) {
      if (shape.type === "literal")
        return { reader: "member", typeArgument: scope.type(shape), value, options: [["allowed", scope.constant]] };
      if (keptWhole(shape)) return { reader: "whole", typeArgument: scope.type(shape), value, options: [["schema", scope.constant]] };
      return { reader: shape.type, value, options: [] };
    },
    markers: ({ shape }) => (shape.type === "literal" ? ["unknown_code"] : []),
    constant: ({ shape }, scope) =>
      shape.type === "literal"
        ? `const ${scope.constant} = new Set<unknown>([${shape.values.map((v) => scope.literal(v)).join(", ")}]);`
        : undefined,
    sharesSchema: ({ shape }) => keptWhole(shape),
  },
};

/**
 * A credential is never shown to the model: a value named like one (or declared `format: password`)
 * is refused (PRJ034) unless its rule says why it is no secret (`fact`), which vouches for that value
 * only; one kept whole holding one is refused whatever its rule.
 */
function checkCredential(field: SpecFacts, rule: KeepRule, problem: RuleProblem): void {
  const { name } = field;
  let credential = field.credential();
  // A join shows a name, or the id where none is found: never the parts of what it reads, and for an
  // embedded record (an API key's name and dates) its id, not the record its name says it is.
  if (credential === undefined || (field.role === "join key" && (credential !== name || field.kind === "object"))) return;
  const drop = `{ drop: "a credential, never shown to the model" }`;
  if (credential === name) {
    if (rule.fact === undefined) {
      const shown = field.secretExample();
      problem(
        "PRJ034",
        `${shown === undefined ? "" : `its example in the spec is ${shown}: `}a credential, kept, would be shown to the model`,
        `write \`${name}: ${drop}\`, or, if it holds no secret, say why: \`${name}: { fact: "why it is no secret" }\``,
      );
      return;
    }
    // The fact is the value's, not its parts': a part holding a credential is refused still.
    credential = field.carriedCredential();
  }
  if (credential !== undefined)
    problem(
      "PRJ034",
      `kept whole, this value would carry \`${credential}\`, a credential, to the model`,
      classifiedWhole(credential)
        ? `write \`${name}: { drop: "holds credentials" }\``
        : `classify its parts (\`${credential.replace(/\[\]/g, "")}: ${drop}\`, ...)`,
    );
}

/** Whether a path to a part passes a map's values or a list of lists' items, which no name classifies: the value goes whole. */
export const classifiedWhole = (path: string): boolean => path.includes("{}") || path.includes("[][]");

/** Whether a value is kept whole: checked against its place in the result schema, and trimmed to it. */
const keptWhole = (shape: Shape) => shape.type === "array" || shape.type === "object" || shape.type === "unknown";

/** What a value kept whole holds, as the spec declares it. */
export interface KeptWhole {
  /** The field as the annotation names it. */
  name: string;
  /** A list, else an object (or a value of no declared type). */
  list: boolean;
  /** The dotted paths inside it holding opaque ids, and URLs. */
  carried: { ids: readonly string[]; urls: readonly string[] };
  /** The codes of an integer enum kept as numbers; none where the value is no such enum. */
  numericCodes: readonly unknown[] | undefined;
  /** Whether the spec names those codes itself. */
  specNamesCodes(): boolean;
}

/** What is wrong with keeping a value whole: an id or a URL it carries (PRJ022, PRJ033), or codes with no words (PRJ023). */
export function checkKeptWhole({ name, list, carried, numericCodes, specNamesCodes }: KeptWhole, problem: RuleProblem): void {
  const whole = list ? "this list" : "this object";
  // The dotted path that classifies that part, the same through an object and through each item of a list.
  const partOf = (path: string) => path.replace(/\[\]/g, "");
  if (carried.ids.length > 0) {
    problem(
      "PRJ022",
      `kept whole, ${whole} would carry ${carried.ids.map((n) => `\`${n}\``).join(", ")}, an opaque id`,
      `join it to a name (\`${name}: { join: RESOLVER }\`), or classify its parts (\`${partOf(carried.ids[0]!)}: { drop: "reason" }\`, ...)`,
    );
  }
  if (carried.urls.length > 0) {
    problem(
      "PRJ033",
      `kept whole, ${whole} would carry ${carried.urls.map((n) => `\`${n}\``).join(", ")}, a URL the model cannot open`,
      `classify its parts (\`${partOf(carried.urls[0]!)}: { drop: "a link the model cannot open" }\`, ...)`,
    );
  }
  if (numericCodes !== undefined) {
    problem(
      "PRJ023",
      `integer enum ${JSON.stringify(numericCodes)} is kept without a legend; the model would have to guess what the codes mean`,
      specNamesCodes()
        ? `the spec names the codes: write \`${name}: { legend: spec }\``
        : `write the words: \`${name}: { legend: { ${numericCodes.map((v) => `${v}: WORD`).join(", ")} } }\``,
    );
  }
}
