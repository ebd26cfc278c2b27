// A tool result's short ids stay distinct: projected once with plain short ids, again only on a collision.
import { describe, expect, it } from "vitest";
import type { ProjectionIssue, RecordOptions } from "../../templates/runtime/context.js";
import { shortIdCheck, withDistinctShortIds } from "../../templates/runtime/distinct-short-ids.js";

const A = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const B = "tkt_9f3a71c4-2d19-4b6e-9c05-8ab3f2e17d90";
const C = "tkt_0b1c2d3e-2d18-4b6e-9c05-8ab3f2e17d90";

/** Projects ids as a tool does, counting its runs, reporting one issue per run. */
function projector(ids: string[]) {
  let runs = 0;
  const project = (options: RecordOptions) => {
    runs++;
    options.onIssue?.({ kind: "missing", resource: "ticket", field: "subject", value: null, message: `run ${runs}` });
    const given = options.shortIds;
    return ids.map((id) => (typeof given === "function" ? given(id) : (given?.get(id) ?? id.slice(0, 12))));
  };
  return { project, runs: () => runs };
}

describe("distinct short ids", () => {
  it("projects once when no two ids share a short form, passing its issues on", () => {
    const issues: ProjectionIssue[] = [];
    const { project, runs } = projector([A, C, A]);
    expect(withDistinctShortIds({ options: { onIssue: (issue) => issues.push(issue) }, expectedIds: 3 }, project)).toEqual([
      "tkt_9f3a71c4",
      "tkt_0b1c2d3e",
      "tkt_9f3a71c4",
    ]);
    expect(runs()).toBe(1);
    expect(issues.map((i) => i.message)).toEqual(["run 1"]);
  });

  it("projects again with lengthened forms when two ids collide, and reports only the kept run's issues", () => {
    const issues: ProjectionIssue[] = [];
    const { project, runs } = projector([A, B, C]);
    expect(withDistinctShortIds({ options: { onIssue: (issue) => issues.push(issue) }, expectedIds: 3 }, project)).toEqual([
      "tkt_9f3a71c4-2d18",
      "tkt_9f3a71c4-2d19",
      "tkt_0b1c2d3e",
    ]);
    expect(runs()).toBe(2);
    expect(issues.map((i) => i.message)).toEqual(["run 2"]);
  });

  it("passes on the issues of a projection that threw", () => {
    const issues: ProjectionIssue[] = [];
    const failing = (options: RecordOptions) => {
      options.onIssue?.({ kind: "unusable", resource: "ticket", field: "id", value: 1, message: "before the throw" });
      throw new Error("boom");
    };
    expect(() => withDistinctShortIds({ options: { onIssue: (issue) => issues.push(issue) }, expectedIds: 1 }, failing)).toThrow("boom");
    expect(issues.map((i) => i.message)).toEqual(["before the throw"]);
  });

  it("finds a collision with an id noted before the table grew past one chunk of slots", () => {
    // 20,000 ids against an expected 10: the table grows from 256 slots to 32,768, in four chunks.
    const many = Array.from({ length: 20_000 }, (_, i) => `tkt_${i.toString(16).padStart(8, "0")}-2d18-4b6e-9c05-8ab3f2e17d90`);
    const { project, runs } = projector([A, ...many, B]);
    const result = withDistinctShortIds({ options: {}, expectedIds: 10 }, project);
    expect(runs()).toBe(2);
    expect([result[0], result.at(-1)]).toEqual(["tkt_9f3a71c4-2d18", "tkt_9f3a71c4-2d19"]);
    expect(result.slice(1, -1)).toEqual(many.map((id) => id.slice(0, 12)));
  });

  it("projects a page of 20,000 distinct ids once", () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `usr_${(i * 7919).toString(16).padStart(8, "0")}-77aa-4f31-8d2c-1e5b6c9042af`);
    const { project, runs } = projector([...many, ...many]);
    expect(withDistinctShortIds({ options: {}, expectedIds: 40_000 }, project)).toEqual([...many, ...many].map((id) => id.slice(0, 12)));
    expect(runs()).toBe(1);
  });

  it("keeps each page's check to its own ids when tables are handed on or made while another is in use", () => {
    // 10,000 expected ids: tables of whole chunks, the ones handed on from page to page.
    const first = shortIdCheck(10_000);
    first.note(A);
    first.release();
    const second = shortIdCheck(10_000);
    const alongside = shortIdCheck(10_000);
    second.note(B);
    alongside.note(A);
    expect([second.collided(), alongside.collided()]).toEqual([false, false]);
    expect([second.ids(), alongside.ids()]).toEqual([[B], [A]]);
    second.note(A);
    expect(second.collided()).toBe(true);
  });

  it("fails a short id asked for after the projection returned, instead of writing into a table handed on", async () => {
    const late = withDistinctShortIds({ options: {}, expectedIds: 10_000 }, async (options) => {
      await null;
      return (options.shortIds as (id: string) => string)(A);
    });
    const other = shortIdCheck(10_000);
    other.note(B);
    await expect(late).rejects.toThrow("the projection must be synchronous");
    expect(other.ids()).toEqual([B]);
  });
});
