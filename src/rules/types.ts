// What a format rule is: each module of src/rules/ gives one or more, and format.ts lists them.

/** A JSON Schema, as the result schema states a value. */
export type Schema = { [key: string]: unknown };

/** What a format is checked against: the kind of value the spec declares, and its siblings'. */
export interface FormattedValue {
  /** `string`, `integer`, ... as the spec declares the value; undefined when it does not say. */
  kind: string | undefined;
  /** The kind the spec declares at a path beside the value (`currency`), or `"absent"` when it declares none. */
  sibling(path: readonly string[]): string | undefined | "absent";
}

/** A problem with a format where it is written: the key it is at, what is wrong, and what to do. */
export interface FormatProblem {
  key: string;
  message: string;
  help: string;
}

export interface Format<Options = unknown> {
  /** The word after `format:`. */
  readonly name: string;
  /** The keys it reads beside `format` (money's `currency`). */
  readonly keys: readonly string[];
  /** How a parse error's help names it: "`date` (2026-02-11)". */
  readonly example: string;
  /**
   * Its row in the table of field rules (docs/annotation.md, README.md): the rule as written, and
   * what it gives; none where the row of the format before it tells of it too.
   */
  readonly docsRow: readonly [rule: string, gives: string] | undefined;
  /** Reads its keys off the rule as written; what is wrong goes to `problem`. */
  parse(rule: Readonly<Record<string, unknown>>, problem: (key: string, message: string, help: string) => void): Options | undefined;
  /** What is wrong with writing this value so, if anything. */
  check(value: FormattedValue, options: Options): FormatProblem | undefined;
  /** The result's description, in place of the spec's, which describes the value as the API sends it. */
  description(options: Options): string;
  /**
   * The projection: the runtime reader, and the options it is given before `field`, `required` and
   * `ctx`, as code; `sibling` is the expression reading a value beside this one.
   */
  read(options: Options, sibling: (path: readonly string[]) => string): { reader: string; options: [name: string, code: string][] };
  /** The value's JSON Schema in the result, before `null` and the markers. */
  schema(options: Options): Schema;
}

/** A format as the annotation and the model hold it: which one, and what its own keys said. */
export interface FormatUse {
  name: string;
  options: unknown;
}
