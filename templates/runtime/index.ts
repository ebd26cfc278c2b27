// The fixed run-time pieces every generated projector uses, copied into the output folder so that the
// generated code needs no runtime package. Generated modules import them from here; the other
// modules' own exports not listed here are shared between them, not offered to the consumer.

export {
  anthropicTools,
  callToolByName,
  openaiResponsesTools,
  openaiTools,
  registerTools,
} from "./adapters.js";
export type {
  AnthropicTool,
  AnyTool,
  McpHighLevelServer,
  McpLowLevelServer,
  McpRequestSchemas,
  OpenAIChatTool,
  OpenAIResponsesTool,
  ToolDefinition,
  ToolHints,
} from "./adapters.js";
export {
  argumentProblem,
  MAX_ARGUMENT_CHARACTERS,
  overlaid,
} from "./arguments.js";
export type { InputSchema } from "./arguments.js";
export {
  conservativeTokenCount,
  fitBudget,
  type BudgetCount,
  type ToolBudget,
} from "./budget.js";
export type { Truncated } from "./budget.js";
export {
  callTool,
  DEFAULT_CALL_TIMEOUT_MS,
  MAX_RESPONSE_BYTES,
  MAX_RESULT_TEXT,
  MAX_SHORT_IDS_RECALLED,
  MAX_VALUE_TEXT,
} from "./call-tool.js";
export type {
  CallOptions,
  CallParameter,
  ClientAnswer,
  ToolCall,
  ToolOutcome,
  ToolSettings,
} from "./call-tool.js";
export { context } from "./context.js";
export type {
  Context,
  Detail,
  FieldRead,
  LabelsRead,
  PageExchange,
  ProjectionIssue,
  ProjectOptions,
  RecordOptions,
  ShortIds,
  ValueRead,
} from "./context.js";
export { date, datetime, isUtcIso } from "./dates.js";
export { detailOf, recordDetail } from "./detail.js";
export { duration } from "./duration.js";
export {
  withDistinctShortIds,
  type ShortIdSettings,
} from "./distinct-short-ids.js";
export {
  fullId,
  ID_BOOK_CHARACTERS,
  ID_BOOK_LONGEST_ID,
  ID_BOOK_SIZE,
  RETIRED_FORMS_KEPT,
  useIdBook,
} from "./id-book.js";
export type { IdBook } from "./id-book.js";
export {
  argumentId,
  INTEGER_IDS,
  integerId,
  relatedMany,
  relatedOne,
  relationshipIds,
  shortArgumentId,
  shortRelatedMany,
  shortRelatedOne,
  shortTextOrNumberId,
  TEXT_IDS,
  TEXT_OR_NUMBER_IDS,
  textOrNumberId,
  Unreadable,
} from "./ids.js";
export type { Ids } from "./ids.js";
export {
  integerRefIdMany,
  integerRefIdOne,
  refIdMany,
  refIdOne,
} from "./handles.js";
export { includedLabels, joinMany, joinOne } from "./joins.js";
export { asObject, read } from "./json.js";
export {
  MAX_LABELLED_VALUES,
  placed,
  TooManyLabelsError,
} from "./labels-later.js";
export type {
  JsonSchema,
  JsonSchemaType,
  JsonValue,
  ToolInputSchema,
} from "./json-schema.js";
export { legend, legendLookup, member } from "./legends.js";
export { batchFunction, resolverFromLoader } from "./loaders.js";
export type { LabelLoader } from "./loaders.js";
export { MARKER_SCHEMAS } from "./markers.js";
export { money } from "./money.js";
export type { UnknownCode, Unresolved, Unusable } from "./markers.js";
export { projectInOneWalk, type OneWalkPage } from "./one-walk.js";
export { MAX_NEXT_CHARACTERS } from "./next-arguments.js";
export {
  MAX_NEXT_URL_CHARACTERS,
  nextPage,
  type PageRead,
} from "./next-page.js";
export type { NextPageRule, NextSource } from "./next-page.js";
export { at, pageValue, present } from "./pages.js";
export { PATTERN_STEPS } from "./patterns.js";
export { idBookOfCall, setUpEachCall } from "./per-call.js";
export type { CallerBook, CallInfo } from "./per-call.js";
export { queryStringFor } from "./query-string.js";
export type { QueryParameterStyle, QueryStyle } from "./query-string.js";
export { ISSUE_VALUE_CHARACTERS } from "./quoting.js";
export {
  lifted,
  listAt,
  MAX_ROWS,
  nested,
  objects,
  recordAt,
  recordObject,
  ResponseShapeError,
  section,
} from "./records.js";
export type { RecordsPlace } from "./records.js";
export { refMany, refOne } from "./refs.js";
export type { RecordKeys } from "./refs.js";
export {
  DEFAULT_RESOLVER_TIMEOUT_MS,
  resolveLabels,
  ResolverError,
} from "./resolvers.js";
export type { Labels, Resolver } from "./resolvers.js";
export { matchesShortId, shortenIds, shortId } from "./short-ids.js";
export { MAX_RESOLVER_REQUESTS, specResolver } from "./spec-resolvers.js";
export type { SpecResolverSource } from "./spec-resolvers.js";
export {
  serializeToolResult,
  tableLayout,
  withTableLayout,
} from "./table-text.js";
export type { TableLayout } from "./table-text.js";
export { checkedTimeoutMs, MAX_TIMEOUT_MS } from "./timeouts.js";
export {
  boolean,
  clippedString,
  integer,
  number,
  string,
  whole,
} from "./values.js";
export type { ValueSchema } from "./values.js";
