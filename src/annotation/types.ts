import type { SourceLocation } from "../diagnostics.js";

export type YamlPath = readonly (string | number)[];

export type Legend =
  | { source: "spec" }
  | { source: "inline"; words: ReadonlyArray<readonly [code: string, word: string]> }
  | { source: "resolver"; resolver: string };

export type DateFormat = "date" | "datetime";

export interface KeepRule {
  kind: "keep";
  as?: string;
  format?: DateFormat;
  legend?: Legend;
  join?: string;
  argument?: readonly string[];
  shorten?: boolean;
}

export interface DropRule {
  kind: "drop";
  reason: string;
}

/** A guess `init` could not make with confidence; `generate` refuses it until a person decides. */
export interface TodoRule {
  kind: "todo";
  note: string;
}

export type FieldRule = KeepRule | DropRule | TodoRule;

export interface FieldAnnotation {
  /** As written: `subject`, or a dotted path into an object, `address.city`. */
  name: string;
  rule: FieldRule;
  path: YamlPath;
}

export interface ResourceAnnotation {
  name: string;
  schema?: string;
  fields: FieldAnnotation[];
  path: YamlPath;
}

export interface ResolverAnnotation {
  name: string;
  type?: string;
  label?: string;
  path: YamlPath;
}

export interface PageField {
  key: string;
  source: string;
  path: YamlPath;
}

export interface ToolAnnotation {
  name: string;
  operation: string;
  list?: string;
  rows?: string;
  resource?: string;
  /** The schema the records really are, where the response declares a narrower one. */
  record?: string;
  page: PageField[];
  budget?: Budget;
  path: YamlPath;
}

/** A ceiling on a tool result: whole records are kept up to it, and the result says it cut. */
export interface Budget {
  tokens?: number;
  rows?: number;
}

export interface Annotation {
  /** The file as the user names it, for messages. */
  file: string;
  spec: string;
  output: string;
  resolvers: ResolverAnnotation[];
  resources: ResourceAnnotation[];
  tools: ToolAnnotation[];
  /** Where a node of the file is, for diagnostics; `key` points at the key rather than its value. */
  locate(path: YamlPath, part?: "key" | "value"): SourceLocation;
}
