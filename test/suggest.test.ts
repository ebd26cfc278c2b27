// A did-you-mean finds the nearest name: through the index of deletions where it looks a few edits
// away, exactly as measuring every candidate would.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closest, closestAmong } from "../src/suggest.js";

/** The nearest candidate within `within` edits, ties to the first in sorted order, by measuring every one. */
function measuredEach(word: string, candidates: readonly string[], within: number): string | undefined {
  const distance = (a: string, b: string): number => {
    const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    return rows[a.length]![b.length]!;
  };
  const near = candidates
    .map((candidate) => ({ candidate, d: distance(word.toLowerCase(), candidate.toLowerCase()) }))
    .filter(({ d }) => d <= within)
    .sort((x, y) => x.d - y.d || (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0));
  return near[0]?.candidate;
}

describe("closest", () => {
  it("names the tool a letter or two from a word, and none further", () => {
    const tools = ["list_servers", "get_server", "list_tasks"];
    expect(closest("list_severs", tools, 2)).toBe("list_servers");
    expect(closest("get_srv", tools, 2)).toBeUndefined();
    expect(closest("x".repeat(300), ["x".repeat(300)], 2)).toBeUndefined();
  });

  it("finds through its index what measuring every candidate finds", () => {
    const letters = fc.constantFrom("a", "b", "c", "_");
    const name = fc.string({ unit: letters, minLength: 0, maxLength: 9 });
    fc.assert(
      fc.property(fc.array(name, { maxLength: 30 }), name, (candidates, word) => {
        const unique = [...new Set(candidates)];
        expect(closestAmong(unique, 2)(word)).toBe(measuredEach(word, unique, 2));
      }),
      { numRuns: 300 },
    );
  });

  it("compares no name longer than a tool name may be, a few edits apart", () => {
    const long = `get_${"x".repeat(70)}`;
    expect(closestAmong([long], 2)(`${long}y`)).toBeUndefined();
    expect(closestAmong(["get_server"], 2)("get_servr")).toBe("get_server");
  });
});
