// `text: table`: what serializeToolResult writes for a list tool, and that it reads back into the
// JSON result exactly, markers and all.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { serializeToolResult, tableLayout, withTableLayout, type TableLayout } from "../../templates/runtime/table-text.js";
import { ROOT } from "../helpers/pipeline.js";
import { parseTable } from "../helpers/table.js";

const layout = (list: string, columns: string[], page: string[] = []): TableLayout => ({ list, columns, page });
const asTable = (result: Record<string, unknown>, of: TableLayout) => serializeToolResult(withTableLayout(result, of));

describe("table text", () => {
  const cases: [string, Record<string, unknown>, TableLayout, string][] = [
    [
      "plain values bare, page keys on the last line",
      { tickets: [{ id: "tkt_1", subject: "Card declined at checkout", priority: 2, open: true }], total: 12, more: false },
      layout("tickets", ["id", "subject", "priority", "open"], ["total", "more"]),
      "tickets[1]{id,subject,priority,open}:\n  tkt_1,Card declined at checkout,2,true\ntotal: 12, more: false",
    ],
    [
      "null apart from the empty string, and strings that would read as something else quoted",
      {
        rows: [
          {
            a: null,
            b: "",
            c: "null",
            d: "12",
            e: "true",
            f: "a,b",
            g: ' "q"',
            h: "line\nbreak",
            i: "unresolved:x",
            j: "2026-02-14T16:02Z",
          },
        ],
      },
      layout("rows", ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]),
      'rows[1]{a,b,c,d,e,f,g,h,i,j}:\n  null,"","null","12","true","a,b"," \\"q\\"","line\\nbreak","unresolved:x",2026-02-14T16:02Z',
    ],
    [
      "markers as typed cells, lists and objects as compact JSON",
      {
        rows: [
          {
            who: { unresolved: "usr_0baa8c00" },
            status: { unknown_code: 9 },
            opened: { unusable: 'not a date: "yesterday"' },
            tags: ["a", "b"],
            where: { city: "Oslo" },
          },
        ],
      },
      layout("rows", ["who", "status", "opened", "tags", "where"]),
      'rows[1]{who,status,opened,tags,where}:\n  unresolved:usr_0baa8c00,unknown_code:9,unusable:"not a date: \\"yesterday\\"",["a","b"],{"city":"Oslo"}',
    ],
    [
      "an empty list keeps its header; a budget's cut is a page key",
      { tickets: [], truncated: { shown: 0, total: 3 } },
      layout("tickets", ["id", "subject"], ["truncated"]),
      'tickets[0]{id,subject}:\ntruncated: {"shown":0,"total":3}',
    ],
    [
      "names that are not plain words are quoted",
      { "the rows": [{ "a b": 1 }], "next page": null },
      layout("the rows", ["a b"], ["next page"]),
      '"the rows"[1]{"a b"}:\n  1\n"next page": null',
    ],
  ];
  it.each(cases)("%s", (_what, result, of, expected) => {
    expect(asTable(result, of)).toBe(expected);
    expect(parseTable(expected)).toStrictEqual(result);
  });

  it("falls back to JSON for a result that no longer has the tool's shape", () => {
    const of = layout("tickets", ["id"], ["total"]);
    expect(serializeToolResult(withTableLayout({ tickets: [{ id: "a", extra: 1 }], total: 1 }, of))).toBe(
      '{"tickets":[{"id":"a","extra":1}],"total":1}',
    );
    expect(serializeToolResult(withTableLayout({ tickets: [], total: 1, more: true }, of))).toBe('{"tickets":[],"total":1,"more":true}');
  });

  it("is chosen by the tool's name when the result was copied on the way", () => {
    tableLayout("table_text_test_tool", layout("rows", ["id"]));
    const copied = { rows: [{ id: "a" }] };
    expect(serializeToolResult(copied)).toBe('{"rows":[{"id":"a"}]}');
    expect(serializeToolResult(copied, "table_text_test_tool")).toBe("rows[1]{id}:\n  a");
  });

  it("reads back every scenario's expected list result exactly", () => {
    const scenarios = join(ROOT, "specs/scenarios");
    let lists = 0;
    for (const scenario of readdirSync(scenarios, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const { result } = JSON.parse(readFileSync(join(scenarios, scenario.name, "expected.json"), "utf8")) as {
        result: Record<string, unknown>;
      };
      const [list, ...page] = Object.keys(result);
      const records = result[list!];
      if (!Array.isArray(records)) continue;
      lists++;
      const text = asTable(result, layout(list!, Object.keys((records[0] as object | undefined) ?? {}), page));
      expect(text.startsWith(`${list}[${records.length}]{`), scenario.name).toBe(true);
      expect(parseTable(text), scenario.name).toStrictEqual(result);
    }
    expect(lists).toBeGreaterThan(0);
  });

  const tricky = fc.constantFrom(
    "",
    "null",
    "true",
    "false",
    "0",
    "-1.5e3",
    "007",
    "a,b",
    "a: b",
    "unresolved:x",
    "unknown_code:",
    " x",
    "x ",
    "\t",
    '"',
    "\\",
    "[1]",
    "{}",
    "\u2028",
    "\u0000",
    "é ü 中文",
  );
  const text = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), tricky);
  const primitive = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
  const marker = fc.oneof(
    fc.record({ unresolved: text }),
    fc.record({ unknown_code: fc.oneof(text, fc.integer()) }),
    fc.record({ unusable: text }),
  );
  const value = fc.oneof(
    primitive,
    marker,
    fc.array(fc.oneof(text, marker), { maxLength: 3 }),
    fc.dictionary(text, primitive, { maxKeys: 3 }),
  );
  const name = text.filter((n) => n !== "__proto__");

  it("reads back any result exactly: strings, numbers, null, markers, lists and objects in cells (property)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 1, maxLength: 6 }),
        fc.uniqueArray(name, { minLength: 1, maxLength: 3 }),
        fc.nat({ max: 5 }),
        fc.infiniteStream(value),
        (columns, [list, ...page], count, values) => {
          list = list!;
          const records = Array.from({ length: count }, () => Object.fromEntries(columns.map((c) => [c, values.next().value])));
          const result = { [list]: records, ...Object.fromEntries(page.map((p) => [p, values.next().value])) };
          const back = parseTable(asTable(result, layout(list, columns, page)));
          expect(back).toStrictEqual(JSON.parse(JSON.stringify(result)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("stays a table, and shorter than JSON, when a third of the assignees are unresolved", async () => {
    const { projectSearchTickets } = await import("../../generated/support/index.js");
    const page = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8")) as Parameters<
      typeof projectSearchTickets
    >[0];
    const labels = JSON.parse(readFileSync(join(ROOT, "specs/examples/labels.json"), "utf8")) as Record<string, Record<string, string>>;
    const users = Object.keys(labels["users"]!);
    const known = new Set(users.slice(0, Math.ceil((users.length * 2) / 3)));
    const result = await projectSearchTickets(page, {
      users: (ids) => new Map(ids.flatMap((id) => (known.has(id) ? [[id, labels["users"]![id]!] as const] : []))),
      orgs: (ids) => new Map(ids.flatMap((id) => (labels["orgs"]![id] ? [[id, labels["orgs"]![id]!] as const] : []))),
    });
    const markers = result.tickets.filter((t) => typeof t.assignee === "object" && t.assignee !== null).length;
    expect(markers).toBeGreaterThanOrEqual(3);
    const table = asTable(result, layout("tickets", Object.keys(result.tickets[0]!), ["total", "more"]));
    expect(table).toMatch(/,unresolved:usr_[0-9a-f]{8},/);
    expect(parseTable(table)).toStrictEqual(JSON.parse(JSON.stringify(result)));
    expect(encode(table).length).toBeLessThan(encode(JSON.stringify(result)).length);
  });
});
