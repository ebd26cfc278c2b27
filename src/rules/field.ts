// The field the model holds once the annotation's rules have been applied to the spec's: what each
// rule contributes to it, and what the emitters read.

/** A format as the annotation and the model hold it: which one, and what its own keys said. */
export interface FormatUse {
  name: string;
  options: unknown;
  /** The value's type as the spec declares it (`string`, `integer`), where it says. */
  declared?: string | undefined;
}

/** The projected value's type, used for the result types, the JSON Schema and run-time checks. */
export type Shape =
  | { type: "string" | "number" | "integer" | "boolean" | "unknown" }
  | { type: "literal"; values: (string | number | boolean)[] }
  | { type: "array"; items: Shape }
  | {
      type: "object";
      properties: { name: string; shape: Shape; nullable: boolean }[];
      /** A map's (an object the spec declares no properties of): the type of each of its values; none when it is always empty. */
      values?: { shape: Shape; nullable: boolean };
    };

/** Where a source value sits in a record: the record itself, its JSON:API attributes or relationships. */
export type SourceBase = "record" | "attributes" | "relationships";

export interface SourceRef {
  base: SourceBase;
  path: string[];
}

export type LegendModel =
  | { kind: "static"; entries: [code: string | number, word: string][] }
  /** `codes`: the type the spec declares for the codes, where it declares one; a code of another is never looked up. */
  | { kind: "resolver"; resolver: string; codes?: "integer" | "number" | "string" };

export interface FieldCommon {
  /** The key in the projected record. */
  out: string;
  /** The annotation's name for it (`status_code`, `address.city`). */
  name: string;
  source: SourceRef;
  description?: string;
  /** `full`: sent only when the tool is called with `detail: "full"`, and absent otherwise. */
  detail?: "full";
}

export interface ValueField extends FieldCommon {
  kind: "value";
  shape: Shape;
  format?: FormatUse;
  legend?: LegendModel;
  /** The component schema the field's values follow, so a parameter of the same schema takes the same words, or the same ids. */
  schemaRef?: string;
  /** The tools the model can pass this value to, when it is an id. */
  argumentOf?: string[];
  shorten: boolean;
  /** A text cut to at most this many characters, the cut marked (`max_chars`). */
  maxChars?: number;
  /** Reported when absent, since the schema promises it. */
  required: boolean;
}

export interface JoinField extends FieldCommon {
  kind: "join";
  resolver: string;
  many: boolean;
  /** A JSON:API relationship (`data.id`), or a plain property holding an id or an embedded record. */
  via: "relationship" | "property";
  /** How an embedded record is read: the key of its id, and of the name it may carry. */
  keys: { id: string; label?: string };
  /** A plain property the spec declares an id (text or a number), never a record: an object there is no id. */
  plainIds?: true;
  /** The spec declares the ids text (not also numbers, nor no type): a number there is no id. */
  textIds: boolean;
  /** A plain property's: the spec declares the ids integers, which text or a number past 2^53 is not. */
  integerIds?: true;
  /** A relationship's: the JSON:API types its records may have; a record of another is refused. Undefined: any type. */
  linkageTypes?: string[];
}

/** A relationship whose related ids are arguments to a tool, kept as ids. */
export interface RelatedIdField extends FieldCommon {
  kind: "related-id";
  many: boolean;
  argumentOf: string[];
  shorten: boolean;
  /** The id kept beside a joined name (`assignee_id` beside `assignee`): the output key of that name. */
  beside?: string;
  /** The spec declares the ids text (not also numbers, nor no type): a number there is no id. */
  textIds: boolean;
  /** A relationship's: the JSON:API types its records may have; a record of another is refused. Undefined: any type. */
  linkageTypes?: string[];
  /**
   * Beside a join of a plain property: how its embedded records hold their ids (null where the spec
   * declares the property an id and no record), and whether the ids are integers (which stay
   * integers); a relationship's ids are read from its `data`.
   */
  property?: { keys: { id: string } | null; integer: boolean };
}

export interface ObjectField extends FieldCommon {
  kind: "object";
  /** An array of such objects, each classified by the same parts. */
  many: boolean;
  children: Field[];
  /** The keys the spec declares for the object, sorted: one holding none of them is no such object. */
  keys: string[];
}

export type Field = ValueField | JoinField | RelatedIdField | ObjectField;

/** The fields with nested objects' parts in their place, depth first, the objects themselves left out. */
export const leafFields = (fields: readonly Field[]): Field[] =>
  fields.flatMap((f) => (f.kind === "object" ? leafFields(f.children) : [f]));

/** A marker the runtime writes in place of a value. */
export type Marker = "unresolved" | "unknown_code" | "unusable";

/** The result schema of a marker (its schema is in the tool schemas' `$defs`). */
export const marker = (name: Marker) => ({ $ref: `#/$defs/${name}` });

/** The result schema of `null`: a value absent, or kept as the API sent it. */
export const NULL = { type: "null" };
