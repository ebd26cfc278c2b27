// The text a tool sends the model: compact JSON, or a table for a tool annotated `text: table`.

/**
 * The text a tool sends the model: use it for the tool_result block and MCP text content alike.
 * Compact JSON, or a table for a tool annotated `text: table`: known from the result when it came
 * straight from the tool's projector, or from `tool` when the result was copied on the way.
 */
export function serializeToolResult(result: unknown, tool?: string): string {
  const layout =
    (typeof result === "object" && result !== null
      ? MARKED_LAYOUTS.get(result)
      : undefined) ??
    (tool === undefined ? undefined : TABLE_LAYOUTS.get(tool));
  return (layout && tableText(result, layout)) ?? JSON.stringify(result);
}

/** How a list tool's result reads as a table: the list's key, its columns and the page keys, in result order. */
export interface TableLayout {
  readonly list: string;
  readonly columns: readonly string[];
  readonly page: readonly string[];
}

const TABLE_LAYOUTS = new Map<string, TableLayout>();
const MARKED_LAYOUTS = new WeakMap<object, TableLayout>();

/** Declares that a tool's results read as a table; called once by each such tool's module. */
export function tableLayout(tool: string, layout: TableLayout): TableLayout {
  TABLE_LAYOUTS.set(tool, layout);
  return layout;
}

/** Marks a result as one that reads as a table, so serializeToolResult needs no tool name. */
export function withTableLayout<T extends object>(
  result: T,
  layout: TableLayout,
): T {
  MARKED_LAYOUTS.set(result, layout);
  return result;
}

const MARKER_KINDS = ["unresolved", "unknown_code", "unusable"] as const;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Characters that end or confuse a bare cell: the delimiter, quotes, brackets that open JSON, line breaks and controls. */
const NOT_BARE = /[",\\\u0000-\u001f\u007f\u2028\u2029]|^[\s[{]|\s$/;
const MARKER_PREFIX = /^(?:unresolved|unknown_code|unusable):/;
const BARE_KEY = /^[A-Za-z_$][\w$.-]*$/;

/**
 * One cell: `null`, `true`, `false` and numbers as in JSON; a string bare where reading it back
 * gives the same string, else as a JSON string; a marker as `kind:value`; any other object or array
 * as compact JSON. So `null` and `""` stay apart, and a marker cannot be read as a value.
 */
function cell(value: unknown): string {
  if (typeof value === "string") {
    const bare =
      value !== "" &&
      !NOT_BARE.test(value) &&
      !JSON_NUMBER.test(value) &&
      value !== "true" &&
      value !== "false" &&
      value !== "null" &&
      !MARKER_PREFIX.test(value);
    return bare ? value : JSON.stringify(value);
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const kind =
      keys.length === 1 ? MARKER_KINDS.find((k) => k === keys[0]) : undefined;
    const inner =
      kind === undefined ? undefined : (value as Record<string, unknown>)[kind];
    if (
      kind !== undefined &&
      (typeof inner === "string" ||
        (typeof inner === "number" && Number.isFinite(inner)))
    )
      return `${kind}:${cell(inner)}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The object's own keys are these, in any order (JavaScript puts integer-like keys first whatever the order of writing). */
const hasExactly = (object: object, keys: readonly string[]) =>
  Object.keys(object).length === keys.length &&
  keys.every((key) => Object.hasOwn(object, key));

const tableKey = (key: string) =>
  BARE_KEY.test(key) ? key : JSON.stringify(key);

/**
 * A header naming the list, its length and its columns; one line per record; the page keys on a
 * last line: TOON's tabular form, which models read as well as JSON for flat records, at a fraction
 * of the keys. A result of another shape (copied, or edited on the way) is left to JSON.
 */
function tableText(result: unknown, layout: TableLayout): string | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const fields = result as Record<string, unknown>;
  if (!hasExactly(fields, [layout.list, ...layout.page])) return undefined;
  const records = fields[layout.list];
  if (!Array.isArray(records)) return undefined;
  const lines = [
    `${tableKey(layout.list)}[${records.length}]{${layout.columns.map(tableKey).join(",")}}:`,
  ];
  for (const record of records) {
    if (typeof record !== "object" || record === null) return undefined;
    if (!hasExactly(record, layout.columns)) return undefined;
    lines.push(
      `  ${layout.columns.map((column) => cell((record as Record<string, unknown>)[column])).join(",")}`,
    );
  }
  if (layout.page.length > 0)
    lines.push(
      layout.page
        .map((key) => `${tableKey(key)}: ${cell(fields[key])}`)
        .join(", "),
    );
  return lines.join("\n");
}
