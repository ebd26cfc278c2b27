// The text a tool sends the model: compact JSON, or TOON for a tool annotated `text: table`.

import { markerShape } from "./markers.js";
import { holdsUnprintable, printable } from "./quoting.js";

/**
 * The text a tool sends the model: use it for the tool_result block and MCP text content alike.
 * Compact JSON, or TOON for a tool annotated `text: table`: known from the result when it came
 * straight from the tool's projector, or from `tool` when the result was copied on the way.
 */
export function serializeToolResult(result: unknown, tool?: string): string {
  const layout =
    (typeof result === "object" && result !== null
      ? MARKED_LAYOUTS.get(result)
      : undefined) ??
    (tool === undefined ? undefined : TABLE_LAYOUTS.get(tool));
  return (
    (layout && tableText(result, layout)) ??
    escapeUnseen(JSON.stringify(result))
  );
}

/**
 * JSON text with every character a reader of it may not see as written as its `\uXXXX` escape: the
 * set error messages escape ({@link printable}), controls, format characters, separators,
 * variation selectors and the other default-ignorable characters. JSON text holds them only inside
 * strings (it escapes C0 itself), where `\uXXXX` reads back the same.
 */
const escapeUnseen = (json: string): string =>
  // JSON.stringify gives undefined for undefined, whatever its declared type says.
  typeof json === "string" ? printable(json) : json;

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

/** How deep objects may nest in a table text: TOON indents every level, so a deeper result is sent as JSON. */
export const TABLE_TEXT_DEPTH = 32;

/** A column of a TOON table: a value, or a group of columns for an object every record holds with the same keys. */
interface Column {
  readonly name: string;
  readonly group?: readonly Column[];
}

type Fields = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Every item passes, holes included: `every` skips a sparse array's holes, which JSON writes as null. */
function everyItem(
  items: readonly unknown[],
  test: (item: unknown) => boolean,
): boolean {
  for (let i = 0; i < items.length; i++) if (!test(items[i])) return false;
  return true;
}

const isPrimitive = (value: unknown) =>
  value === null ||
  typeof value === "string" ||
  typeof value === "number" ||
  typeof value === "boolean";

/** The object's own keys are these, in any order (JavaScript puts integer-like keys first whatever the order of writing). */
const hasExactly = (object: object, keys: readonly string[]) =>
  Object.keys(object).length === keys.length &&
  keys.every((key) => Object.hasOwn(object, key));

/**
 * Characters written as escapes inside quotes: TOON's five, and as `\uXXXX` every other character
 * error messages escape ({@link printable}): controls and the line and paragraph separators, so
 * that the text breaks lines only where TOON does, for a reader that splits on any of them too;
 * the bidirectional marks, overrides and isolates, so that no cell reorders how the text around it
 * is shown; and the invisible characters that hide text.
 */
const SHORT_ESCAPED = /[\\"\n\r\t]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  '"': '\\"',
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};
/** A string TOON would read as something else (empty, spaced, a line's start, a delimiter, a key's end, an escape) unless quoted. */
const NOT_BARE = /^$|^[\s#-]|\s$|[,:"\\[\]{}]/;
/** A string TOON would read as `true`, `false`, `null` or a number unless quoted. */
const LITERAL = /^(?:true|false|null)$|^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const BARE_KEY = /^[A-Za-z_][\w.]*$/;
/** A UTF-16 half with no other half: text in transit cannot carry it, JSON escapes it. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/**
 * A UTF-16 half as {@link printable} escapes it: a character past U+FFFF it escapes (a tag
 * character, a variation selector past U+E0100, a musical format character) in its two halves, a
 * lone half of either kind by itself. TOON takes a character past U+FFFF only as itself, never as
 * escapes, and refuses the escape of a lone half, so a result holding one is sent as JSON, where
 * the escapes read back. (A string spelling such escapes sends JSON too.)
 */
const ESCAPED_SURROGATE = /\\ud[89a-f][0-9a-f]{2}/;

/**
 * A string a marker cell would read as: `{` (or more), a marker's name, `: `, then `}` (or more).
 * Such a string from the API is written with one more pair of braces, so that a marker cell,
 * which has one, is always projector's own.
 */
const MARKER_CELL_LIKE = /^\{+(?:unresolved|unknown_code|unusable): [\s\S]*\}$/;

const quoted = (text: string) =>
  `"${printable(text.replace(SHORT_ESCAPED, (c) => SHORT_ESCAPES[c]!))}"`;

const tableKey = (key: string) => (BARE_KEY.test(key) ? key : quoted(key));

/**
 * A primitive as TOON writes it: a string bare only where TOON reads it back as that string, and
 * one shaped like a marker cell with one more pair of braces.
 */
function primitive(value: unknown): string {
  return typeof value === "string" && MARKER_CELL_LIKE.test(value)
    ? toonPrimitive(`{${value}}`)
    : toonPrimitive(value);
}

/** A primitive as TOON writes it, and nothing more: a string bare only where TOON reads it back as that string. */
function toonPrimitive(value: unknown): string {
  if (typeof value === "string")
    return NOT_BARE.test(value) ||
      holdsUnprintable(value) ||
      LITERAL.test(value)
      ? quoted(value)
      : value;
  // JSON writes a number it cannot write as null, and the table says what JSON says.
  if (typeof value === "number")
    return Number.isFinite(value) ? String(value) : "null";
  return String(value);
}

/**
 * A marker in a table cell among values (a name where another record's join is unresolved): the
 * text `{unresolved: usr_9}`, the marker's one key and its value as TOON writes a primitive, which
 * TOON's decoder reads as that string. The value never gets the extra braces of a string shaped
 * like a marker cell: the reading takes it as TOON reads a primitive, and nothing more. Undefined
 * for anything but one of projector's markers.
 */
function markerCell(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const kind = markerShape(value);
  const inner = kind === undefined ? undefined : value[kind];
  return typeof inner === "string" ||
    (typeof inner === "number" && Number.isFinite(inner))
    ? `{${kind}: ${toonPrimitive(inner)}}`
    : undefined;
}

const isCell = (value: unknown) =>
  isPrimitive(value) || markerCell(value) !== undefined;

/**
 * The columns of `rows` (objects with exactly `names` as keys) as a TOON table: a column of
 * primitives, a group for objects with the same keys in every row, as TOON's tabular form allows,
 * or a column of primitives and markers, each marker a marker cell. Undefined when a row holds
 * anything else, such as a list, or an object another row does not have: TOON has no table for
 * those.
 */
function columnsOf(
  rows: readonly unknown[],
  names: readonly string[],
  depth: number,
): Column[] | undefined {
  if (depth > TABLE_TEXT_DEPTH || names.length === 0) return undefined;
  if (!everyItem(rows, (row) => isObject(row) && hasExactly(row, names)))
    return undefined;
  const columns: Column[] = [];
  for (const name of names) {
    const values = rows.map((row) => (row as Fields)[name]);
    if (values.every(isPrimitive)) {
      columns.push({ name });
      continue;
    }
    const first = values[0];
    const group = isObject(first)
      ? columnsOf(values, Object.keys(first), depth + 1)
      : undefined;
    if (group !== undefined) columns.push({ name, group });
    else if (values.every(isCell)) columns.push({ name });
    else return undefined;
  }
  return columns;
}

const header = (columns: readonly Column[]): string =>
  columns
    .map(
      (column) =>
        tableKey(column.name) +
        (column.group ? `{${header(column.group)}}` : ""),
    )
    .join(",");

function cells(row: Fields, columns: readonly Column[], into: string[]): void {
  for (const column of columns) {
    const value = row[column.name];
    if (column.group) cells(value as Fields, column.group, into);
    else {
      // A marker cell always holds `{`, so TOON quotes it.
      const marker = markerCell(value);
      into.push(marker === undefined ? primitive(value) : quoted(marker));
    }
  }
}

const indent = (depth: number) => "  ".repeat(depth);

/**
 * A list as TOON writes it: inline when it holds primitives, else as a table, whose columns are
 * the first record's keys; false when TOON has no table for it. An empty list is `[]`, or the
 * header of a table naming `emptyColumns` when given.
 */
function writeList(
  name: string,
  items: readonly unknown[],
  depth: number,
  lines: string[],
  emptyColumns?: readonly string[],
): boolean {
  const key = indent(depth) + tableKey(name);
  if (items.length === 0 && emptyColumns === undefined) {
    lines.push(`${key}: []`);
    return true;
  }
  if (items.length > 0 && everyItem(items, isPrimitive)) {
    lines.push(`${key}[${items.length}]: ${items.map(primitive).join(",")}`);
    return true;
  }
  const first = items[0];
  const columns = columnsOf(
    items,
    isObject(first) ? Object.keys(first) : (emptyColumns ?? []),
    depth + 1,
  );
  if (columns === undefined) return false;
  lines.push(`${key}[${items.length}]{${header(columns)}}:`);
  for (const item of items) {
    const row: string[] = [];
    cells(item as Fields, columns, row);
    lines.push(indent(depth + 1) + row.join(","));
  }
  return true;
}

/** One `key: value` of an object, a nested object under its key, or a list; false when TOON has no form for the value here. */
function writeField(
  name: string,
  value: unknown,
  depth: number,
  lines: string[],
): boolean {
  if (isPrimitive(value)) {
    lines.push(`${indent(depth)}${tableKey(name)}: ${primitive(value)}`);
    return true;
  }
  if (Array.isArray(value)) return writeList(name, value, depth, lines);
  if (!isObject(value) || depth >= TABLE_TEXT_DEPTH) return false;
  lines.push(`${indent(depth)}${tableKey(name)}:`);
  return Object.keys(value).every((key) =>
    writeField(key, value[key], depth + 1, lines),
  );
}

/**
 * The result as TOON (https://github.com/toon-format/spec), which TOON's decoders read back into
 * the JSON result: the list in TOON's tabular form (a header naming the list, its length and its
 * columns, then one line per record), then the page keys. Models read the table as well as JSON
 * for flat records, at a fraction of the keys. Read back exactly, but for the marker cells: a
 * marker where other records hold a value is the string `{unresolved: usr_9}` (TOON's tabular
 * form holds only primitives, and its list form spells out every record's keys, which costs more
 * than JSON), and a string of the API's shaped like one has one more pair of braces. Undefined, so
 * the result is sent as JSON, when TOON has no table for the list (a record holding a list), when
 * the result no longer has the tool's shape (copied, or edited on the way), when its objects nest
 * deeper than TABLE_TEXT_DEPTH, or when it holds what text in transit cannot carry.
 */
function tableText(result: unknown, layout: TableLayout): string | undefined {
  if (!isObject(result) || !hasExactly(result, [layout.list, ...layout.page]))
    return undefined;
  const records = result[layout.list];
  if (
    !Array.isArray(records) ||
    !everyItem(
      records,
      (record) => isObject(record) && hasExactly(record, layout.columns),
    )
  )
    return undefined;
  const lines: string[] = [];
  for (const key of Object.keys(result)) {
    const written =
      key === layout.list
        ? writeList(key, records, 0, lines, layout.columns)
        : writeField(key, result[key], 0, lines);
    if (!written) return undefined;
  }
  const text = lines.join("\n");
  return LONE_SURROGATE.test(text) || ESCAPED_SURROGATE.test(text)
    ? undefined
    : text;
}
