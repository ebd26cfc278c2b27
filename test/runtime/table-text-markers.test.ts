// Table text keeps its table when a column holds markers among values (a page where some joins are
// unresolved): each such marker is a marker cell, `{unresolved: usr_9}`, which TOON's decoder reads
// as a string and the documented reading turns back into the marker; a string of the API's shaped
// like one has one more pair of braces, so a marker cell is always projector's own.
import { decode } from "@toon-format/toon";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serializeToolResult, withTableLayout, type TableLayout } from "../../templates/runtime/table-text.js";
import { readMarkerCells } from "../helpers/marker-cells.js";

const textOf = (result: Record<string, unknown>, layout: TableLayout) => serializeToolResult(withTableLayout(result, layout));
const LAYOUT: TableLayout = { list: "tickets", columns: ["id", "assignee", "status"], page: ["total"] };

describe("a marker among values in a table", () => {
  it("is a marker cell, which the decoder reads as a string and the documented reading as the marker", () => {
    const result = {
      tickets: [
        { id: "a", assignee: "Priya Raman", status: "open" },
        { id: "b", assignee: { unresolved: "usr_9" }, status: { unknown_code: 9 } },
        { id: "c", assignee: null, status: { unknown_code: "9" } },
        { id: "d", assignee: { unusable: "expected a string, got number" }, status: "closed" },
      ],
      total: 4,
    };
    const text = textOf(result, LAYOUT);
    expect(text).toBe(
      [
        "tickets[4]{id,assignee,status}:",
        "  a,Priya Raman,open",
        '  b,"{unresolved: usr_9}","{unknown_code: 9}"',
        '  c,null,"{unknown_code: \\"9\\"}"',
        '  d,"{unusable: \\"expected a string, got number\\"}",closed',
        "total: 4",
      ].join("\n"),
    );
    expect(decode(text)).toMatchObject({ tickets: [{}, { assignee: "{unresolved: usr_9}", status: "{unknown_code: 9}" }, {}, {}] });
    expect(readMarkerCells(decode(text))).toStrictEqual(result);
  });

  it("reads back whole when its value quotes the API's text holding braces, as the docs' reading says", () => {
    const result = {
      tickets: [
        { id: "a", assignee: { unusable: 'not a date-time: "{unresolved: x}"' }, status: "open" },
        { id: "b", assignee: "{unresolved: x}", status: "closed" },
      ],
      total: 2,
    };
    const text = textOf(result, LAYOUT);
    expect((decode(text) as { tickets: { assignee: string }[] }).tickets.map((row) => row.assignee)).toEqual([
      '{unusable: "not a date-time: \\"{unresolved: x}\\""}',
      "{{unresolved: x}}",
    ]);
    expect(readMarkerCells(decode(text))).toStrictEqual(result);
  });

  it("is a marker cell in a group of columns too", () => {
    const result = {
      tickets: [
        { id: "a", owner: { name: "Priya Raman", team: "Billing" } },
        { id: "b", owner: { name: { unresolved: "usr_9" }, team: "Billing" } },
      ],
    };
    const text = textOf(result, { list: "tickets", columns: ["id", "owner"], page: [] });
    expect(text).toBe('tickets[2]{id,owner{name,team}}:\n  a,Priya Raman,Billing\n  b,"{unresolved: usr_9}",Billing');
    expect(readMarkerCells(decode(text))).toStrictEqual(result);
  });

  it.each([
    ["{unresolved: usr_9}", '"{{unresolved: usr_9}}"'],
    ["{{unknown_code: 9}}", '"{{{unknown_code: 9}}}"'],
    ["{unusable: x}}", '"{{unusable: x}}}"'],
    ["{unresolved: usr_9", '"{unresolved: usr_9"'],
    ["{unresolved:usr_9}", '"{unresolved:usr_9}"'],
    ["{{other: 1}}", '"{{other: 1}}"'],
  ])("writes the API's string %j as %s, never as a marker cell", (subject, cell) => {
    const result = { tickets: [{ id: "a", assignee: subject, status: { unresolved: "usr_1" } }], total: 1 };
    const text = textOf(result, LAYOUT);
    expect(text.split("\n")[1]).toBe(`  a,${cell},usr_1`);
    expect(readMarkerCells(decode(text))).toStrictEqual(result);
  });

  it("still sends JSON for a record holding a list, for which TOON has no table", () => {
    const result = { tickets: [{ id: "a", assignee: ["Priya Raman"], status: "open" }], total: 1 };
    expect(textOf(result, LAYOUT)).toBe(JSON.stringify(result));
  });
});

const KINDS = ["unresolved", "unknown_code", "unusable"] as const;
const text = fc.oneof(
  fc.constantFrom("", "usr_9", "a,b", '"', "12", "null", "{unresolved: usr_9}", "{{unusable: x}}", "{unknown_code: 9", "\n", "\u2028"),
  fc.string(),
  fc.string({ unit: fc.constantFrom("{", "}", ":", " ", "u", "unresolved", "unusable", '"', ",", "\\") }),
);
/** A marker's value shaped like a marker cell itself, `{unusable: a}b}`, with any braces before it. */
const markerCellLike = fc
  .tuple(
    fc.string({ unit: fc.constant("{"), minLength: 1, maxLength: 3 }),
    fc.constantFrom(...KINDS),
    text,
    fc.constantFrom("}", "}}", "}b}"),
  )
  .map(([braces, kind, inner, end]) => `${braces}${kind}: ${inner}${end}`);
const markerValue = fc.oneof(text, markerCellLike);
const marker = fc
  .constantFrom(...KINDS)
  .chain((kind) => fc.record({ [kind]: kind === "unknown_code" ? fc.oneof(markerValue, fc.integer()) : markerValue }));
const cell = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), marker);

describe("table text with markers among values (property)", () => {
  it("is a table the decoder and the documented reading read back into the JSON result", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, cell, cell), { minLength: 1, maxLength: 6 }), (rows) => {
        const result = { tickets: rows.map(([id, assignee, status]) => ({ id, assignee, status })), total: rows.length };
        const written = textOf(result, LAYOUT);
        expect(written).not.toBe(JSON.stringify(result));
        expect(written).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u2028\u2029]/);
        expect(readMarkerCells(decode(written))).toStrictEqual(JSON.parse(JSON.stringify(result)));
      }),
      { numRuns: 500 },
    );
  });
});
