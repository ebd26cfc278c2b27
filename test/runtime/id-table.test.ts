// The table a page's ids are looked up in finds exactly what a Map would, whatever the ids look like.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable } from "../../templates/runtime/id-table.js";

/** Sets every id in turn, then looks up each id and some never set, in a table and in a Map alike. */
function sameAsMap(ids: readonly string[], absent: readonly string[] = []) {
  const table = new IdTable<number>();
  const map = new Map<string, number>();
  ids.forEach((id, i) => {
    expect(table.get(id)).toBe(map.get(id));
    table.set(id, i);
    map.set(id, i);
  });
  for (const id of [...ids, ...absent]) expect(table.get(id)).toBe(map.get(id));
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

describe("IdTable", () => {
  it.each([
    ["sequential numbers", Array.from({ length: 3000 }, (_, i) => String(i))],
    [
      "ids that differ only in the middle, with a constant end",
      Array.from({ length: 2000 }, (_, i) => `usr_${hex(i, 8)}-77aa-4f31-8d2c-1e5b6c9042af`),
    ],
    [
      "UUIDv7-like ids made within one minute",
      Array.from({ length: 2000 }, (_, i) => `0190a5d3-${hex(i & 0xffff, 4)}-7${hex(i >>> 16, 3)}-9c05`),
    ],
    ["ids of several lengths with a shared prefix", Array.from({ length: 2000 }, (_, i) => `order-${i * 7919}-eu`)],
    [
      // More positions than the table reads: it moves its ids into a Map.
      "ids that differ in one character each, at every position",
      Array.from({ length: 40 }, (_, at) =>
        Array.from({ length: 26 }, (_, c) => "x".repeat(at) + String.fromCharCode(97 + c) + "x".repeat(39 - at)),
      ).flat(),
    ],
    ["the empty id and one-character ids", ["", "a", "b", "ab", "ba", "é"]],
  ])("finds what a Map finds: %s", (_name, ids) => {
    sameAsMap(ids, ["", "nope", `${ids[0]}x`, ids[0]!.slice(1)]);
  });

  it("finds what a Map finds for any ids, repeated or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 300 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 20 }),
        (ids, absent) => sameAsMap([...ids, ...ids.slice(0, 50)], absent),
      ),
    );
  });

  it("finds what a Map finds for ids that share all but scattered characters", () => {
    // Every id is the same 64 characters but for a few picked positions: each pair alike where the
    // table reads teaches it another position.
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 63 }), fc.constantFrom("a", "b")), { maxLength: 6 }), {
          minLength: 1,
          maxLength: 400,
        }),
        (edits) => {
          const ids = edits.map((changes) => {
            const chars = [..."x".repeat(64)];
            for (const [at, char] of changes) chars[at] = char;
            return chars.join("");
          });
          sameAsMap(ids, ["x".repeat(64), "y".repeat(64)]);
        },
      ),
    );
  });

  it("keeps the last value set for an id, as a Map does, before and after it grows", () => {
    const table = new IdTable<string>();
    const ids = Array.from({ length: 500 }, (_, i) => `tkt_${hex(i, 8)}`);
    for (const id of ids) table.set(id, "first");
    table.set(ids[3]!, "second");
    for (const id of ids.slice(100)) table.set(`${id}-more`, "other");
    expect(table.get(ids[3]!)).toBe("second");
    expect(table.get(ids[4]!)).toBe("first");
    expect(table.get(`${ids[499]!}-more`)).toBe("other");
  });

  it("moves into a Map, still finding what a Map finds, when ids come to share one hash", () => {
    // As if the ids were made to share a hash: each lookup would step through all of them.
    const table = new IdTable<number>();
    let hashed = 0;
    Object.defineProperty(table, "hashOf", { value: () => (hashed++, 7) });
    const ids = Array.from({ length: 5000 }, (_, i) => `usr_${hex(i, 6)}`);
    ids.forEach((id, i) => table.set(id, i));
    expect(hashed).toBeLessThan(1000);
    ids.forEach((id, i) => expect(table.get(id)).toBe(i));
    expect(table.get("usr_zzzzzz")).toBeUndefined();
  });
});
