import type { SourceLocation } from "../diagnostics.js";
import type { DropRule, KeepRule, Legend } from "../rules/types.js";

export type { DropRule, KeepRule, Legend };

export type YamlPath = readonly (string | number)[];

/** Reports a shape problem of the annotation at a path, with what to do. */
export type Problem = (path: YamlPath, message: string, help: string, part?: "key" | "value") => void;
/** Reports each key of a mapping not `allowed` in `where`. */
export type CheckKeys = (value: { readonly [key: string]: unknown }, path: YamlPath, allowed: readonly string[], where: string) => void;

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
  /** The key holding the name: in JSON:API `included` records' attributes, and in embedded records. */
  label?: string;
  /** The key holding the id in an embedded record (`gid`); `id` when not written. */
  id?: string;
  /** The operation that gives the labels, making the resolver one `createResolvers` implements. */
  operation?: string;
  /** The query parameter of a list operation taking the ids; without it, the operation gets one record by id. */
  ids?: string;
  /** The most ids one request carries. */
  max?: number;
  /** The most requests in flight at once. */
  concurrency?: number;
  path: YamlPath;
}

export interface PageField {
  key: string;
  source: string;
  /** Written `{ present: PATH }`: true when the value is there and not null, whatever the key. */
  present: boolean;
  path: YamlPath;
}

/**
 * Where a list tool's next page comes from (`page.next`): a body path holding a next URL or a cursor,
 * an RFC 8288 header, the last record's value, or the request's own offset; or a guess to decide.
 */
export type NextAnnotation =
  | { kind: "body"; source: string; param?: string; path: YamlPath }
  | { kind: "header"; header: string; path: YamlPath }
  | { kind: "after-last"; source: string; param: string; limit?: string; path: YamlPath }
  | { kind: "offset"; offset: string; limit?: string; path: YamlPath }
  | { kind: "todo"; note: string; path: YamlPath };

export interface ToolAnnotation {
  name: string;
  operation: string;
  list?: string;
  rows?: string;
  resource?: string;
  /** The schema the records really are, where the response declares a narrower one. */
  record?: string;
  page: PageField[];
  /** `page.next`: how the tool's next page is found, and the model asks for it. */
  next?: NextAnnotation;
  budget?: Budget;
  /** How the result reads as text: compact JSON (the default) or, for a list tool, a table. */
  text?: ToolText;
  /** What the model reads about the tool; else the operation's summary and description. */
  description?: string;
  /** The tool's name for people, shown by MCP clients; else the operation's one-line summary. */
  title?: string;
  /** What a client may assume of the tool, over what the operation's method says. */
  hints?: ToolHintsAnnotation;
  /** How the operation's parameters are shown to the model and sent, by parameter name. */
  inputs: InputAnnotation[];
  path: YamlPath;
}

/** A tool's `hints:`, each MCP's `…Hint` annotation under its short name. */
export interface ToolHintsAnnotation {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

/** One entry of a tool's `inputs:`: a parameter (by its spec name, or `body`) renamed, dropped, fixed or explained. */
export interface InputAnnotation {
  name: string;
  as?: string;
  drop?: string;
  /** Sent with every call and never shown to the model. */
  fixed?: unknown;
  description?: string;
  /** Words for the parameter's codes: the model passes the words, the API gets the codes. */
  legend?: ReadonlyArray<readonly [code: string, word: string]>;
  path: YamlPath;
}

export type ToolText = "json" | "table";

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
  /** How `projector serve` reaches the API; absent when the file has no `serve:`. */
  serve?: ServeAnnotation;
  /** Where a node of the file is, for diagnostics; `key` points at the key rather than its value. */
  locate(path: YamlPath, part?: "key" | "value"): SourceLocation;
}

/** Where a setting of `projector serve` is read at start-up: an environment variable, by name. */
export interface FromEnvironment {
  env: string;
  path: YamlPath;
}

/** How `projector serve` authenticates to the API, each secret read from the environment. */
export type ServeAuth =
  | { scheme: "bearer"; token: FromEnvironment; path: YamlPath }
  | { scheme: "api_key"; key: FromEnvironment; header?: string; path: YamlPath }
  | { scheme: "basic"; username: FromEnvironment; password: FromEnvironment; path: YamlPath };

/** The `serve:` section: how `projector serve` reaches the API. Never a secret itself, only the names of the variables holding them. */
export interface ServeAnnotation {
  /** The MCP server's name, as `initialize` tells clients. */
  name?: string;
  /** The API's base URL: written here, read from a variable (with a default), or the spec's single server. */
  baseUrl?: { env?: FromEnvironment; url?: string; path: YamlPath };
  auth?: ServeAuth;
  path: YamlPath;
}
