// `text: table`: what serializeToolResult writes for a list tool, and that TOON's reference decoder
// reads it back into the JSON result exactly, markers and all.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decode, encode as referenceEncode } from "@toon-format/toon";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { serializeToolResult, tableLayout, withTableLayout, type TableLayout } from "../../templates/runtime/table-text.js";
import { readMarkerCells } from "../helpers/marker-cells.js";
import { ROOT } from "../helpers/pipeline.js";

const layout = (list: string, columns: string[], page: string[] = []): TableLayout => ({ list, columns, page });
const asTable = (result: Record<string, unknown>, of: TableLayout) => serializeToolResult(withTableLayout(result, of));

describe("table text", () => {
  const cases: [string, Record<string, unknown>, TableLayout, string][] = [
    [
      "plain values bare, a page key to a line",
      { tickets: [{ id: "tkt_1", subject: "Card declined at checkout", priority: 2, open: true }], total: 12, more: false },
      layout("tickets", ["id", "subject", "priority", "open"], ["total", "more"]),
      "tickets[1]{id,subject,priority,open}:\n  tkt_1,Card declined at checkout,2,true\ntotal: 12\nmore: false",
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
      'rows[1]{a,b,c,d,e,f,g,h,i,j}:\n  null,"","null","12","true","a,b"," \\"q\\"","line\\nbreak","unresolved:x","2026-02-14T16:02Z"',
    ],
    [
      "a column of markers, or of objects with the same keys, as a group of their keys",
      {
        rows: [
          { who: { unresolved: "usr_0baa8c00" }, status: { unknown_code: 9 }, where: { city: "Oslo", zip: "0150" } },
          { who: { unresolved: "usr_41c2be09" }, status: { unknown_code: "x" }, where: { city: "Bergen", zip: null } },
        ],
      },
      layout("rows", ["who", "status", "where"]),
      'rows[2]{who{unresolved},status{unknown_code},where{city,zip}}:\n  usr_0baa8c00,9,Oslo,"0150"\n  usr_41c2be09,x,Bergen,null',
    ],
    [
      "an empty list keeps its header; a budget's cut is a page key",
      { tickets: [], truncated: { shown: 0, total: 3 } },
      layout("tickets", ["id", "subject"], ["truncated"]),
      "tickets[0]{id,subject}:\ntruncated:\n  shown: 0\n  total: 3",
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
    expect(decode(expected)).toStrictEqual(result);
  });

  it("falls back to JSON for a result that no longer has the tool's shape", () => {
    const of = layout("tickets", ["id"], ["total"]);
    expect(serializeToolResult(withTableLayout({ tickets: [{ id: "a", extra: 1 }], total: 1 }, of))).toBe(
      '{"tickets":[{"id":"a","extra":1}],"total":1}',
    );
    expect(serializeToolResult(withTableLayout({ tickets: [], total: 1, more: true }, of))).toBe('{"tickets":[],"total":1,"more":true}');
  });

  it("falls back to JSON where TOON has no table: a list in a cell", () => {
    const of = layout("tickets", ["id", "assignee"]);
    const result = {
      tickets: [
        { id: "a", assignee: "Priya Raman" },
        { id: "b", assignee: ["Priya Raman", "Mei Chen"] },
      ],
    };
    expect(serializeToolResult(withTableLayout(result, of))).toBe(JSON.stringify(result));
  });

  it("is chosen by the tool's name when the result was copied on the way", () => {
    tableLayout("table_text_test_tool", layout("rows", ["id"]));
    const copied = { rows: [{ id: "a" }] };
    expect(serializeToolResult(copied)).toBe('{"rows":[{"id":"a"}]}');
    expect(serializeToolResult(copied, "table_text_test_tool")).toBe("rows[1]{id}:\n  a");
  });

  it("sends every scenario's expected list result as a table where TOON has one, else as JSON, read back exactly", () => {
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
      // The scenarios plant lists in records, for which TOON has no table, and markers among values, which are marker cells.
      if (text !== JSON.stringify(result)) expect(readMarkerCells(decode(text)), scenario.name).toStrictEqual(result);
      else expect(referenceEncode(result).startsWith(`${list}[${records.length}]{`), scenario.name).toBe(false);
    }
    expect(lists).toBeGreaterThan(0);
  });

  const searchTickets = async (knownUsers: number) => {
    const { projectSearchTickets, serializeToolResult: sent } = await import("../../generated/support/index.js");
    const page = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8")) as Parameters<
      typeof projectSearchTickets
    >[0];
    const labels = JSON.parse(readFileSync(join(ROOT, "specs/examples/labels.json"), "utf8")) as Record<string, Record<string, string>>;
    const known = new Set(Object.keys(labels["users"]!).slice(0, Math.ceil(Object.keys(labels["users"]!).length * knownUsers)));
    const result = await projectSearchTickets(page, {
      users: (ids) => new Map(ids.flatMap((id) => (known.has(id) ? [[id, labels["users"]![id]!] as const] : []))),
      orgs: (ids) => new Map(ids.flatMap((id) => (labels["orgs"]![id] ? [[id, labels["orgs"]![id]!] as const] : []))),
    });
    return { result, text: sent(result) };
  };

  it("sets out the bundled page as a table, in fewer tokens than JSON", async () => {
    const { result, text: table } = await searchTickets(1);
    expect(table.split("\n")[0]).toBe("tickets[12]{id,subject,status,priority,assignee,org,opened,last_update,sla_due}:");
    expect(decode(table)).toStrictEqual(JSON.parse(JSON.stringify(result)));
    expect(encode(table).length).toBeLessThan(encode(JSON.stringify(result)).length);
  });

  it("sets out a page where a third of the assignees are unresolved as a table of marker cells, in far fewer tokens than JSON", async () => {
    const { result, text } = await searchTickets(2 / 3);
    const markers = result.tickets.filter((t) => typeof t.assignee === "object" && t.assignee !== null).length;
    expect(markers).toBeGreaterThanOrEqual(3);
    expect(text.split("\n")[10]).toMatch(/^ {2}tkt_\w+,[^"]+,new,low,"\{unresolved: usr_\w+\}",/);
    expect(readMarkerCells(decode(text))).toStrictEqual(JSON.parse(JSON.stringify(result)));
    const json = JSON.stringify(result);
    // TOON's own list form, for a column mixing names and markers, costs more than JSON.
    expect(encode(referenceEncode(JSON.parse(json))).length).toBeGreaterThan(encode(json).length);
    expect(encode(text).length).toBeLessThan(encode(json).length * 0.8);
  });
});
