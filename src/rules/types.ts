// What a field rule is (each module of src/rules/ gives one, and field-rules.ts lists them), and what
// a format is (format.ts lists them).

import type { Diagnostic } from "../diagnostics.js";
import type { Field, FormatUse, Marker, Shape, ValueField } from "./field.js";

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
   * `ctx`, as code; `sibling` is the expression reading a value beside this one; `declared` is
   * the value's type as the spec declares it (`string`, `integer`, ...), where it says.
   */
  read(
    options: Options,
    sibling: (path: readonly string[]) => string,
    declared: string | undefined,
  ): { reader: string; options: [name: string, code: string][] };
  /** The value's JSON Schema in the result, before `null` and the markers. */
  schema(options: Options): Schema;
}

/** A legend as written: the spec's words, words written inline, or a resolver's labels. */
export type Legend =
  | { source: "spec" }
  | { source: "inline"; words: ReadonlyArray<readonly [code: string, word: string]> }
  | { source: "resolver"; resolver: string };

/** A kept field's rule as written: `keep`, or an object of the keys the rules read. */
export interface KeepRule {
  kind: "keep";
  as?: string;
  format?: FormatUse;
  legend?: Legend;
  join?: string;
  argument?: readonly string[];
  shorten?: boolean;
  /** Why a value named like an id or a credential is a fact people quote (a ticket number), kept as it is. */
  fact?: string;
  /** For a join key that is also an argument: the output name of the id kept beside the name (`<name>_id` unless written). */
  id_as?: string;
  /** `full`: the field is sent only when the tool is called with `detail: "full"`. */
  detail?: "full";
  /** The most characters a text kept as it is keeps, its cut marked. */
  max_chars?: number;
}

export interface DropRule {
  kind: "drop";
  reason: string;
}

/** A row of the table of field rules (docs/annotation.md): the rule as written, and what it gives. */
export type DocsRow = readonly [rule: string, gives: string];

/** Reports a problem with a rule as written, at a key (or a path below it), with what to do. */
export type ParseProblem = (at: readonly (string | number)[], message: string, help: string, part?: "key" | "value") => void;

/** Reports a problem with a field's rule against the spec: its code, what is wrong, what to do, and at which key. */
export type RuleProblem = (code: Diagnostic["code"], message: string, help: string, key?: string) => void;

/**
 * What a field is, by the spec and its rule's `join`: a JSON:API relationship, a plain property
 * joined to a name, a value named like an id that is kept neither as an argument nor as a fact, or
 * a value.
 */
export type FieldRole = "relationship" | "join key" | "id" | "value";

/** What a rule's check sees of the field the spec declares. */
export interface SpecFacts extends FormattedValue {
  /** The field as the annotation names it (`status_code`, `address.city`). */
  name: string;
  role: FieldRole;
  /** The resolvers the annotation declares. */
  resolvers: readonly string[];
  /** The kind of the ids a join key holds: the value's own, or its embedded records' id key's. */
  joinedIdKind(): string | undefined;
  /** Whether the spec lists the value's values (an enum). */
  enumerated(): boolean;
  /**
   * The credential the value would show the model, by its name or `format: password`: the field's
   * own name, or the path of a part that holds one where it is kept whole (`sip.password`).
   */
  credential(): string | undefined;
  /** The path of a part that holds a credential, where the value is kept whole (`credentials.password`). */
  carriedCredential(): string | undefined;
  /** What the spec's example shows the value holds, where that makes it a credential whatever its name: `a private key`. */
  secretExample(): string | undefined;
}

/**
 * A field rule as one unit: the keys it reads off a field's rule as written, how it parses them, its
 * checks against the other keys and the spec's field, its rows of the docs' table, and what it gives
 * the emitters: the reading of a kept value, and its note in a field's description. What it adds to
 * the model's field is exported beside it, for the model to call where the rule applies.
 */
export interface Rule {
  /** The keys it reads, its own first; none for `keep`, which is written alone. */
  readonly keys: readonly string[];
  /** Its rows of the field rules' table in docs/annotation.md, the README giving some of them. */
  readonly docsRows: readonly DocsRow[];
  /** Reads its keys off the rule as written: what it sets of the rule, and what is wrong to `problem`. */
  parse?(written: Readonly<Record<string, unknown>>, problem: ParseProblem): Partial<KeepRule>;
  /** What is wrong with it beside the rule's other keys and on this field of the spec. */
  check?(rule: KeepRule, field: SpecFacts, problem: RuleProblem): void;
  /** How it reads a kept value, where it reads one (`VALUE_RULES` asks the rules in turn). */
  readonly value?: ValueReading;
  /** Its note in the result schema's description of a field, where it applies to the field. */
  note?(field: Field): string | undefined;
  /** Where it sends a field only on a condition of the call: the result's type and schema then mark the field optional. */
  readonly sentWhen?: SendCondition;
}

/** A condition of the call a field is sent on, as the projection tests it. */
export interface SendCondition {
  applies(field: Field): boolean;
  /** The local the projection sets once and tests for each field it applies to. */
  readonly local: string;
  /** The local's value, from the projection's `options`. */
  readonly test: string;
}

/**
 * What a rule gives the emitters for a kept value it reads: its reader's call and, where it changes
 * them, the value's type and JSON Schema in the result (the shape's otherwise), the markers it may
 * write beside `unusable`, and the module constant its reader reads.
 */
export interface ValueReading {
  /** Whether it reads the field. */
  reads(field: ValueField): boolean;
  read(field: ValueField, value: string, scope: ValueScope): ReaderCall;
  /** The value's type in the result, before `null` and the markers. */
  type?(field: ValueField): string;
  /** The value's JSON Schema in the result, before `null` and the markers. */
  schema?(field: ValueField): Schema;
  markers?(field: ValueField): readonly Marker[];
  /** The declaration of the module constant its reader reads (`scope.constant`), if any. */
  constant?(field: ValueField, scope: ValueScope): string | undefined;
  /** Whether its reader checks the value against the value's result schema, held in the module constant for both. */
  sharesSchema?(field: ValueField): boolean;
}

/** What writing a reader's call needs of the module being written. */
export interface CallScope {
  /** The name the runtime's export `name` has in the module. */
  runtime(name: string): string;
  /** A value as code. */
  literal(value: unknown): string;
}

/** What writing a kept value's reader call needs of the module being written, beside {@link CallScope}. */
export interface ValueScope extends CallScope {
  /** The module constant the value's reader reads: a legend's words, an enum's members, or a schema. */
  constant: string;
  /** A shape as a TypeScript type. */
  type(shape: Shape): string;
  /** The expression reading a value beside this one, at `path` from the object holding both. */
  sibling(path: readonly string[]): string;
}

/** A runtime reader's call: the reader, its type argument, the value it reads, and its own options before `field`, `required` and `ctx`, as code. */
export interface ReaderCall {
  reader: string;
  typeArgument?: string;
  value: string;
  options: [name: string, code: string][];
}

/** What the spec declares of the ids a relationship or a join key holds. */
export interface IdFacts {
  /** A list of them. */
  many: boolean;
  /** The kind of the ids: the value's own, or its embedded records' at `idKey`, through a list; a relationship's are text. */
  idKind(idKey: string): string | undefined;
  /** Whether the ids are declared text and nothing else: a relationship's `data.id`, else as {@link idKind}. */
  textIds(idKey: string): boolean;
  /** Whether a join key (or each item of a list of them) is declared an id, and no record. */
  plainIds(): boolean;
  /** The JSON:API types declared for a relationship's `data.type`; undefined where none are. */
  declaredTypes(): string[] | undefined;
}

/** A resolver as a join reads it: how it reads an embedded record, and its JSON:API type. */
export interface ResolverFacts {
  keys: { id: string; label?: string };
  /** The JSON:API type of the records it names; undefined for plain REST. */
  type: string | undefined;
}
