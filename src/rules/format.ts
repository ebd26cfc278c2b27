// The `format` rule: a kept value rewritten for the model. Each format is one module holding all of
// it (what the annotation writes, its checks, the projection call, the result's schema, its docs
// row); this one lists them, and the shared code (parse, model, emit) asks it instead of naming one.

import { didYouMean } from "../suggest.js";
import { DATE_FORMATS } from "./dates.js";
import { DURATION } from "./duration.js";
import { MONEY } from "./money.js";
import { refusedOnIds } from "./ids.js";
import type { FormatUse } from "./field.js";
import type { Format, ParseProblem, Rule } from "./types.js";

/** Every format, in the order the docs list them. */
export const FORMATS: readonly Format[] = [...DATE_FORMATS, MONEY, DURATION];

/** The keys every format reads beside `format`. */
export const FORMAT_KEYS: readonly string[] = [...new Set(FORMATS.flatMap((format) => format.keys))];

export function formatNamed(name: string): Format | undefined {
  return FORMATS.find((format) => format.name === name);
}

const listed = (names: readonly string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;

/** A field rule's `format` and the keys its format reads; a key of another format is refused. */
function parseFormat(value: Readonly<Record<string, unknown>>, problem: ParseProblem): FormatUse | undefined {
  const name = value["format"];
  const format = typeof name === "string" ? formatNamed(name) : undefined;
  for (const other of FORMATS)
    for (const key of other.keys)
      if (key in value && other !== format)
        problem([key], `\`${key}\` goes with \`format: ${other.name}\``, `write \`format: ${other.name}\`, or remove \`${key}\``, "key");
  if (name === undefined) return undefined;
  if (!format) {
    const names = FORMATS.map((f) => f.name);
    problem(
      ["format"],
      `unknown format ${JSON.stringify(name)}${didYouMean(String(name), names)}`,
      `format is ${listed(FORMATS.map((f) => f.example))}`,
    );
    return undefined;
  }
  let wrong = false;
  const options = format.parse(value, (key, message, help) => {
    wrong = true;
    problem([key], message, help);
  });
  return wrong ? undefined : { name: format.name, options };
}

/** The `format` rule: its key's formats, each of which reads its own keys beside it. */
export const FORMAT: Rule = {
  keys: ["format"],
  docsRows: FORMATS.flatMap((format) => (format.docsRow ? [format.docsRow] : [])),
  parse(written, problem) {
    const format = parseFormat(written, problem);
    return format ? { format } : {};
  },
  check(rule, field, problem) {
    if (rule.format === undefined) return;
    if (field.role === "relationship" || field.role === "join key") return refusedOnIds(field.role, "format", problem);
    if (field.role !== "value") return;
    if (rule.legend) problem("PRJ029", "a field takes a format or a legend, not both", "remove one of them", "format");
    const wrong = formatNamed(rule.format.name)!.check(field, rule.format.options);
    if (wrong) problem("PRJ029", wrong.message, wrong.help, wrong.key);
  },
  value: {
    reads: (field) => field.format !== undefined,
    read(field, value, scope) {
      const { name, options, declared } = field.format!;
      return { ...formatNamed(name)!.read(options, scope.sibling, declared), value };
    },
    type: () => "string",
    schema: (field) => formatNamed(field.format!.name)!.schema(field.format!.options),
  },
};
