import type { Budget, ToolText } from "../annotation/types.js";

import type { Field, Shape } from "../rules/field.js";

export type { Field, LegendModel, Shape, SourceBase, SourceRef, ValueField } from "../rules/field.js";

export interface DroppedField {
  name: string;
  reason: string;
  /** The default that dropped it (`payment_method_details.*`), where no rule names it. */
  by?: string;
}

export interface ResourceModel {
  /** The annotation key: the JSON:API type, or a name for a plain-REST schema. */
  name: string;
  /** PascalCase stem for generated names: `Ticket` gives `projectTicket`, `TicketResult`. */
  typeName: string;
  style: "jsonapi" | "rest";
  /**
   * The component schemas the source records are typed from in the openapi-typescript output (a
   * JSON:API type's records may be declared as several, one per tool); none types them `unknown`.
   */
  schemaNames: string[];
  fields: Field[];
  dropped: DroppedField[];
}

export interface PageModel {
  key: string;
  path: string[];
  /** `presence`: true when the value is there and not null (a `links.next`); `value`: the value itself. */
  mode: "presence" | "value";
  shape: Shape;
}

/** Where a list tool's next page is read: the runtime's `NextSource`. */
export type NextSourceModel =
  | { body: string[]; param?: string }
  | { header: string }
  | {
      afterLast: string[];
      param: string;
      ids?: "text" | "integer" | "text or number";
      value?: "integer" | "number";
      /** The key the row shows the value under: a marker there is no position to continue after. */
      shown?: string;
      limit?: string;
    }
  | { offset: string; limit?: string };

/** How a list tool finds its next page, and what a `next` may carry: the runtime's `NextPageRule`. */
export interface NextPageModel {
  path: string;
  source: NextSourceModel;
  /** The query parameters the model sets, by their names in the spec. */
  settable: string[];
  /** The fixed query parameters, each with its value as a URL writes it. */
  fixed?: [name: string, value: string][];
  defaultLimit?: number;
}

export interface ResolverModel {
  name: string;
  /** JSON:API type whose `included` records carry the label. */
  type?: string;
  label?: string;
  /** The key of an embedded record's id; `id` when the annotation names none. */
  id: string;
  /** The operation `createResolvers` asks, when the annotation names one. */
  source?: ResolverSource;
}

/** How a resolver from the spec asks its operation, and where it reads the labels. */
export interface ResolverSource {
  method: string;
  path: string;
  /** The query parameter taking a batch of ids, or the path parameter taking one. */
  parameter: { name: string; in: "query" | "path"; serialization?: QuerySerialization };
  /** Ids per request, for a query parameter. */
  max?: number;
  concurrency: number;
  /** Where the records sit in the response. */
  records: string[];
  jsonapi: boolean;
  /** The type the spec declares for a plain record's id: text or an integer; none where it declares neither. */
  ids?: "text" | "integer";
  /** The label's dotted path in a record (under `attributes` for JSON:API). */
  label: string[];
  /** Of `error` and `errors`, those the answer's schema declares: its data, not an error. */
  declaredErrorKeys: string[];
}

export interface ResponseAt {
  path: string;
  method: string;
  /** A status code (`200`) as a number; a range (`2XX`) or `default` as the spec writes it. */
  status: number | string;
  mediaType: string;
}

export interface ToolModel {
  name: string;
  typeName: string;
  resource: ResourceModel;
  /** The response holds a list of records (else one record). */
  many: boolean;
  /** Where the records sit in the response: `["data"]` for JSON:API. */
  rowsPath: string[];
  /** The spec lets the records' place, or an object on the way to it, be `null`: no record, or no list. */
  rowsNullable: boolean;
  /** Members of the response beside the records that the result does not carry (`currently_playing` beside a queue), as dotted paths. */
  unread: string[];
  /** The keys the spec declares for a record: a single record must hold one not null, a list's item one at all. */
  recordKeys: string[];
  /** The members of an error body the response's union allows (`oneOf: [Thing, Problem]`) that the record lacks: a body holding one is that error. */
  errorKeys: string[];
  /** The JSON:API type every record must carry, where the spec fixes one. */
  recordType?: string;
  /** Of `error` and `errors`, those a plain body beside its records declares as its own data rather than an error. */
  declaredErrorKeys: string[];
  /**
   * Key for the rows in the result; absent for a single-record tool, whose result is the record, unless
   * the spec lets the record be null: then the result holds it, or null, under the resource's name.
   */
  list?: string;
  page: PageModel[];
  /** `page.next`: the result carries `next`, and the tool's input takes it back. */
  next?: NextPageModel;
  /** Where the response body is typed in the openapi-typescript output's `paths`. */
  response: ResponseAt;
  operationLabel: string;
  jsonapi: boolean;
  /** The spec's own example of the response, when it gives one. */
  example?: unknown;
  budget?: Budget;
  text: ToolText;
  inputs: ToolInputs;
}

/** A JSON Schema as plain data, written into the generated definitions. */
export type JsonSchema = { [key: string]: unknown };

/** One argument the model passes, or a fixed value it never sees, and where the request carries it. */
export interface InputParameter {
  /** The parameter's name in the spec (`page[number]`), or `body` for the request body. */
  name: string;
  /** A header is sent only as a fixed value. */
  in: "path" | "query" | "header" | "body";
  /** The name the model passes it under; absent for a fixed parameter, and for a dropped one, never sent. */
  argument?: string;
  /** As the model sees it: words where a legend applies. */
  schema: JsonSchema;
  required: boolean;
  fixed?: { value: unknown };
  /** Word to code, when the model passes words and the API takes codes. */
  legend?: [word: string, code: string | number][];
  /**
   * The kinds of id (`task.id`, an id source's label) whose short form results give and the API
   * takes in full here; false when it takes none.
   */
  shortIds: string[] | false;
  /** The request body's top-level properties that take such ids, each with the kinds it takes. */
  shortIdProperties?: [property: string, kinds: string[]][];
  /**
   * The spec's constraints on a full id that {@link schema} leaves out so short forms pass, laid over
   * it (`{ pattern }`, or `{ properties: { project_id: { pattern } } }` for a body): the runtime
   * checks them once the id book has expanded the id.
   */
  fullIdChecks?: JsonSchema;
  /** The request body's top-level properties that take words, each with its word-to-code list. */
  propertyLegends?: [property: string, legend: [word: string, code: string | number][]][];
  /** How a query parameter is written in the URL, as the spec declares it (OpenAPI's defaults: form, exploded). */
  serialization?: QuerySerialization;
}

export type QueryStyle = "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

export interface QuerySerialization {
  style: QueryStyle;
  explode: boolean;
}

export interface ToolInputs {
  method: string;
  path: string;
  description: string;
  /** The tool's name for people (MCP's `title`). */
  title?: string;
  /** MCP's tool annotations: from the method, then the annotation's `hints`. */
  hints: ToolHints;
  parameters: InputParameter[];
  /** The request body's media type, when the operation takes a JSON body. */
  bodyMediaType?: string;
}

export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Model {
  resolvers: ResolverModel[];
  resources: ResourceModel[];
  tools: ToolModel[];
}
