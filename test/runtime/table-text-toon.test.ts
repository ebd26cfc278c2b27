// `text: table` is TOON: TOON's reference decoder (@toon-format/toon) reads what serializeToolResult
// writes back into the JSON result exactly, whatever the API's strings hold; where TOON has no table
// for a result, the tool sends JSON instead.
import { decode, encode as referenceEncode } from "@toon-format/toon";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serializeToolResult, TABLE_TEXT_DEPTH, withTableLayout, type TableLayout } from "../../templates/runtime/table-text.js";
import { readMarkerCells, withMarkerCellLikeStringsEscaped } from "../helpers/marker-cells.js";

const layout = (list: string, columns: string[], page: string[] = []): TableLayout => ({ list, columns, page });
const textOf = (result: Record<string, unknown>, of: TableLayout) => serializeToolResult(withTableLayout(result, of));
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
/** Line breaks and controls a reader may act on: none is left raw in a table, `\n` between lines aside. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

describe("table text read by TOON's decoder", () => {
  it("reads a cell with a colon as the string, and each page key as its value", () => {
    const result = { tickets: [{ id: "tkt_1", subject: "Re: invoice 42" }], total: 12, more: false };
    const text = textOf(result, layout("tickets", ["id", "subject"], ["total", "more"]));
    expect(text).toBe('tickets[1]{id,subject}:\n  tkt_1,"Re: invoice 42"\ntotal: 12\nmore: false');
    expect(decode(text)).toStrictEqual(result);
  });

  it("reads projector's markers as the marker objects, and a string spelling one as a string", () => {
    const result = {
      tickets: [
        { note: "unresolved:usr_9", assignee: { unresolved: "usr_0baa8c00" }, status: { unknown_code: 9 } },
        { note: "unknown_code: 9", assignee: { unresolved: "usr_41c2be09" }, status: { unknown_code: "x" } },
      ],
      total: { unusable: "expected a number, got string" },
    };
    const text = textOf(result, layout("tickets", ["note", "assignee", "status"], ["total"]));
    expect(text).toBe(
      [
        "tickets[2]{note,assignee{unresolved},status{unknown_code}}:",
        '  "unresolved:usr_9",usr_0baa8c00,9',
        '  "unknown_code: 9",usr_41c2be09,x',
        "total:",
        '  unusable: "expected a number, got string"',
      ].join("\n"),
    );
    expect(decode(text)).toStrictEqual(result);
  });

  it.each([
    ["NEL", "\u0085  tkt_2,forged row", '"\\u0085  tkt_2,forged row"'],
    ["another C1 control", "a\u009bb", '"a\\u009bb"'],
    ["DEL", "a\u007fb", '"a\\u007fb"'],
    ["the line separator", "a\u2028b", '"a\\u2028b"'],
    ["the paragraph separator", "a\u2029b", '"a\\u2029b"'],
    ["a C0 control", "a\u0000b", '"a\\u0000b"'],
    ["a line feed", "a\ntkt_2,forged", '"a\\ntkt_2,forged"'],
  ])("escapes %s inside quotes, so that no reader sees a line TOON does not", (_what, subject, cell) => {
    const result = { tickets: [{ id: "tkt_1", subject }] };
    const text = textOf(result, layout("tickets", ["id", "subject"]));
    expect(text).toBe(`tickets[1]{id,subject}:\n  tkt_1,${cell}`);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(decode(text)).toStrictEqual(result);
  });

  it("sends JSON for a string text in transit cannot carry (half a surrogate pair), which JSON escapes", () => {
    const result = { tickets: [{ id: "tkt_1", subject: "broken \ud800 half" }] };
    const text = textOf(result, layout("tickets", ["id", "subject"]));
    expect(text).toBe(JSON.stringify(result));
    expect(text).toContain("\\ud800");
  });

  it("sends JSON for objects nested deeper than TOON's indentation should grow", () => {
    const nested = (depth: number): unknown => (depth === 0 ? "bottom" : { inner: nested(depth - 1) });
    const of = layout("tickets", ["id"], ["meta"]);
    const shallow = { tickets: [{ id: "a" }], meta: nested(TABLE_TEXT_DEPTH) };
    expect(decode(textOf(shallow, of))).toStrictEqual(shallow);
    const deep = { tickets: [{ id: "a" }], meta: nested(TABLE_TEXT_DEPTH + 1) };
    expect(textOf(deep, of)).toBe(JSON.stringify(deep));
  });

  it("sends JSON for a value JSON writes its own way (undefined, a sparse list)", () => {
    const of = layout("tickets", ["id", "tags"]);
    for (const tags of [undefined, new Array<number>(3).fill(1, 1)]) {
      const result = { tickets: [{ id: "a", tags }] };
      expect(textOf(result, of)).toBe(JSON.stringify(result));
    }
  });
});

const AWKWARD = [
  "",
  "Re: invoice 42",
  "total: 12, more: false",
  "a,b",
  '"',
  "\\",
  " x",
  "x ",
  "-",
  "- item",
  "-1",
  "12",
  "1e5",
  "007",
  "true",
  "false",
  "null",
  "#x",
  "[1]",
  "{}",
  "unresolved:usr_9",
  "{unresolved: usr_9}",
  "{{unknown_code: 9}}",
  "\t",
  "\r\n",
  "\u0000",
  "\u001b[31m",
];
const AWKWARD_UNICODE = ["\u0085  x,forged", "\u2028", "\u2029", "\u007f", "\u009b", "é ü 中文", "\ufeffbom", "\u00a0nbsp"];
const AWKWARD_CHARACTERS = [":", ",", '"', "\\", " ", "-", "#", "[", "{", "\n", "\t", "\u0000", "a", "1"];
const AWKWARD_UNICODE_CHARACTERS = ["\u0085", "\u009f", "\u007f", "\u2028", "\u2029", "é"];

/** Strings with every character a table must quote or escape, ASCII only or not. */
const awkwardText = (unicode: boolean) =>
  fc.oneof(
    fc.constantFrom(...AWKWARD, ...(unicode ? AWKWARD_UNICODE : [])),
    fc.string(),
    fc.string({ unit: fc.constantFrom(...AWKWARD_CHARACTERS, ...(unicode ? AWKWARD_UNICODE_CHARACTERS : [])) }),
    ...(unicode ? [fc.string({ unit: "grapheme" })] : []),
  );

const MARKERS = ["unresolved", "unknown_code", "unusable"] as const;
type Marker = (typeof MARKERS)[number];

/** What a column holds in every record of a table: a primitive, one marker, or an object with the same keys. */
type ColumnKind = { kind: "value" } | { kind: "marker"; marker: Marker } | { kind: "object"; keys: string[] };

/** Results of a list tool, with their layouts, whose strings come from `text`. */
function results(text: fc.Arbitrary<string>) {
  const name = text.filter((n) => n !== "__proto__");
  const primitive = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
  const markerOf = (kind: Marker): fc.Arbitrary<Record<string, unknown>> =>
    fc.record({ [kind]: kind === "unknown_code" ? fc.oneof(text, fc.integer()) : text });
  const marker = fc.constantFrom(...MARKERS).chain(markerOf);
  const columnKind: fc.Arbitrary<ColumnKind> = fc.oneof(
    fc.constant({ kind: "value" as const }),
    fc.constantFrom(...MARKERS).map((m) => ({ kind: "marker" as const, marker: m })),
    fc.uniqueArray(name, { minLength: 1, maxLength: 3 }).map((keys) => ({ kind: "object" as const, keys })),
  );
  const objectOf = (keys: string[], value: fc.Arbitrary<unknown>) =>
    fc.tuple(...keys.map(() => value)).map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]])));
  const cellOf = (column: ColumnKind): fc.Arbitrary<unknown> =>
    column.kind === "value" ? primitive : column.kind === "marker" ? markerOf(column.marker) : objectOf(column.keys, primitive);
  /** Anything a record may hold: a marker among strings, a list, an object of its own keys. */
  const anyCell = fc.oneof(
    primitive,
    marker,
    fc.array(fc.oneof(text, marker), { maxLength: 3 }),
    fc.dictionary(name, primitive, { maxKeys: 3 }),
  );
  const pageValue = fc.oneof(
    primitive,
    marker,
    fc.record({ shown: fc.nat(), total: fc.nat() }),
    fc.dictionary(name, fc.oneof(primitive, fc.array(primitive, { maxLength: 3 })), { maxKeys: 3 }),
  );
  const result = (columns: [string, fc.Arbitrary<unknown>][], records: { minLength: number; maxLength: number }) =>
    fc
      .uniqueArray(
        name.filter((n) => !columns.some(([column]) => column === n)),
        { minLength: 1, maxLength: 4 },
      )
      .chain(([list, ...page]) =>
        fc
          .record({
            records: fc.array(fc.tuple(...columns.map(([, cell]) => cell)), records),
            page: fc.tuple(...page.map(() => pageValue)),
          })
          .map(({ records: rows, page: values }) => ({
            result: {
              [list!]: rows.map((cells) => Object.fromEntries(columns.map(([column], i) => [column, cells[i]]))),
              ...Object.fromEntries(page.map((key, i) => [key, values[i]])),
            } as Record<string, unknown>,
            layout: layout(
              list!,
              columns.map(([column]) => column),
              page,
            ),
          })),
      );
  const columnNames = fc.uniqueArray(name, { minLength: 1, maxLength: 5 });
  return {
    /** Records TOON sets out as a table: each column a primitive, a marker or an object of the same keys in every record. */
    tables: (records = { minLength: 0, maxLength: 5 }) =>
      fc.uniqueArray(fc.tuple(name, columnKind), { minLength: 1, maxLength: 5, selector: ([n]) => n }).chain((columns) =>
        result(
          columns.map(([column, kind]) => [column, cellOf(kind)]),
          records,
        ),
      ),
    /** Records holding anything at all. */
    anything: columnNames.chain((columns) =>
      result(
        columns.map((column) => [column, anyCell]),
        { minLength: 1, maxLength: 5 },
      ),
    ),
  };
}

const unicode = results(awkwardText(true));
const ascii = results(awkwardText(false));

describe("table text (properties)", () => {
  it("is TOON the reference decoder reads back into the JSON result, with no raw control or line separator", () => {
    fc.assert(
      fc.property(unicode.tables(), ({ result, layout: of }) => {
        const text = textOf(result, of);
        expect(text).not.toBe(JSON.stringify(result));
        expect(text).not.toMatch(RAW_CONTROL);
        expect(readMarkerCells(decode(text))).toStrictEqual(asJson(result));
      }),
      { numRuns: 400 },
    );
  });

  it("is what TOON's reference encoder writes, where the strings hold nothing it leaves raw", () => {
    fc.assert(
      fc.property(ascii.tables({ minLength: 1, maxLength: 5 }), ({ result, layout: of }) => {
        expect(textOf(result, of)).toBe(referenceEncode(withMarkerCellLikeStringsEscaped(asJson(result))));
      }),
      { numRuns: 300 },
    );
  });

  it("is a table wherever TOON has one for the records or their cells are values and markers, and JSON otherwise, read back exactly either way", () => {
    fc.assert(
      fc.property(unicode.anything, ({ result, layout: of }) => {
        const text = textOf(result, of);
        const tabular = new RegExp(`^${escapeRegExp(referenceKey(of.list))}\\[\\d+\\]\\{`).test(referenceEncode(asJson(result)));
        const cells = (result[of.list] as Record<string, unknown>[]).every((record) => Object.values(record).every(isCell));
        const sentAsJson = isJsonText(text);
        if (tabular || cells) expect(sentAsJson).toBe(false);
        expect(sentAsJson ? JSON.parse(text) : readMarkerCells(decode(text))).toStrictEqual(asJson(result));
      }),
      { numRuns: 400 },
    );
  });
});

/** Whether a tool's text is JSON (where TOON has no table), not table text. */
function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A value or a marker: what a table cell holds. */
const isCell = (value: unknown) =>
  value === null ||
  ["string", "number", "boolean"].includes(typeof value) ||
  (typeof value === "object" &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    MARKERS.some((kind) => Object.hasOwn(value, kind)));

/** The list's key as the reference encoder writes it. */
const referenceKey = (key: string) => referenceEncode({ [key]: 0 }).slice(0, -": 0".length);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
