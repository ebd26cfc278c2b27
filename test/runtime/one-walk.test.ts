// A page with joins, projected in one walk: the same result and issues as with every label known first.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue, type RecordOptions } from "../../templates/runtime/context.js";
import { withDistinctShortIds } from "../../templates/runtime/distinct-short-ids.js";
import { relationshipIds, shortArgumentId, TEXT_OR_NUMBER_IDS } from "../../templates/runtime/ids.js";
import { joinMany, joinOne } from "../../templates/runtime/joins.js";
import { placed } from "../../templates/runtime/labels-later.js";
import { legendLookup } from "../../templates/runtime/legends.js";
import { projectInOneWalk } from "../../templates/runtime/one-walk.js";
import { objects, recordObject } from "../../templates/runtime/records.js";
import { refOne } from "../../templates/runtime/refs.js";
import type { Labels, Resolver } from "../../templates/runtime/resolvers.js";
import { string } from "../../templates/runtime/values.js";

const T = (n: number) => `tkt_${n.toString(16).padStart(8, "0")}-2d18-4b6e-9c05-8ab3f2e17d90`;
const U = (n: number) => `usr_${n.toString(16).padStart(8, "0")}-77aa-4f31-8d2c-1e5b6c9042af`;
const KEYS = { id: "gid", label: "name" } as const;
type Names = "models" | "orgs" | "users";

/** A record projected as generated code projects one: a join, a list of joins, a foreign key, a looked-up code, joins in a list of objects. */
function projectRecord(record: unknown, lookups: Readonly<Record<Names, Labels>>, options: RecordOptions) {
  const ctx = context("ticket", options);
  const root = recordObject(record, ctx);
  return {
    id: shortArgumentId(root?.["id"], { field: "id", required: true, ctx }),
    subject: string(root?.["subject"], { field: "subject", required: true, ctx }),
    assignee: joinOne(relationshipIds(root?.["assignee"], { ids: TEXT_OR_NUMBER_IDS }), {
      labels: lookups["users"],
      resolver: "users",
      key: "assignee",
      field: "assignee",
      ctx,
    }),
    watchers: joinMany(relationshipIds(root?.["watchers"], { ids: TEXT_OR_NUMBER_IDS }), {
      labels: lookups["users"],
      resolver: "users",
      field: "watchers",
      ctx,
    }),
    org: refOne(root?.["org"], {
      ids: TEXT_OR_NUMBER_IDS,
      labels: lookups["orgs"],
      resolver: "orgs",
      key: "org",
      keys: KEYS,
      field: "org",
      ctx,
    }),
    model: legendLookup(root?.["model_code"], {
      labels: lookups["models"],
      resolver: "models",
      key: "model",
      field: "model_code",
      required: false,
      ctx,
    }),
    lines: objects(root?.["lines"], { field: "lines", required: false, ctx }, (part) => ({
      by: refOne(part["by"], {
        ids: TEXT_OR_NUMBER_IDS,
        labels: lookups["users"],
        resolver: "users",
        key: "by",
        keys: KEYS,
        field: "lines.by",
        ctx,
      }),
    })),
  };
}

const page = [
  {
    id: T(1),
    subject: "Card declined",
    assignee: { data: { type: "user", id: U(1) } },
    watchers: {
      data: [
        { type: "user", id: U(2) },
        { type: "user", id: U(3) },
      ],
    },
    org: "org_1",
    model_code: 7,
    lines: [{ by: U(3) }],
  },
  {
    id: T(2),
    subject: null,
    assignee: { data: { type: "user", id: U(4) } },
    watchers: null,
    org: { gid: "org_2", name: "Carried Inc" },
    model_code: 9,
    lines: [{ by: { gid: U(2) } }, 5],
  },
  { id: T(3), subject: "Refund", assignee: { data: { type: "user", id: U(5) } }, org: "org_1", model_code: "7" },
];
/** What `included` named: only U(1). */
const known = new Map([["users", new Map([[U(1), "Ana Lima"]])]]);
const answers: Record<Names, Map<string, string | Error>> = {
  users: new Map<string, string | Error>([
    [U(2), "Bo Chen"],
    [U(3), "Cy Diaz"],
    [U(5), new Error("timed out")],
  ]),
  orgs: new Map([["org_1", "Northwind"]]),
  models: new Map([["7", "Model Seven"]]),
};

/** Resolvers answering from `answers`, noting every call. */
function recordingResolvers(answer: (name: Names, ids: readonly string[]) => Promise<Labels> | Labels = (name) => answers[name]) {
  const calls: [string, readonly string[]][] = [];
  const resolver =
    (name: Names): Resolver =>
    (ids) => {
      calls.push([name, [...ids]]);
      return answer(name, ids);
    };
  return { calls, resolvers: { users: resolver("users"), orgs: resolver("orgs"), models: resolver("models") } };
}

const names: Names[] = ["models", "orgs", "users"];
const inOneWalk = (records: unknown[], resolvers: Record<Names, Resolver>, onIssue?: (issue: ProjectionIssue) => void) =>
  projectInOneWalk(
    { resolverNames: names, resolvers, included: known, options: onIssue ? { onIssue } : {}, expectedIds: records.length },
    (lookups, options) => records.map((record) => placed(projectRecord(record, lookups, options))),
  );

/** The same page projected the way it was before one walk: every label known first. */
function allKnownFirst(records: unknown[], onIssue: (issue: ProjectionIssue) => void) {
  const lookups = Object.fromEntries(
    names.map((name): [Names, Labels] => [name, new Map([...(known.get(name) ?? []), ...answers[name]])]),
  ) as Record<Names, Labels>;
  return withDistinctShortIds({ options: { onIssue }, expectedIds: records.length }, (options) =>
    records.map((record) => projectRecord(record, lookups, options)),
  );
}

describe("a page projected in one walk", () => {
  it("gives the result and the issues of a projection with every label known first", async () => {
    const issues: ProjectionIssue[] = [];
    const { resolvers } = recordingResolvers();
    const result = await inOneWalk(page, resolvers, (issue) => issues.push(issue));
    const expectedIssues: ProjectionIssue[] = [];
    expect(result).toEqual(allKnownFirst(page, (issue) => expectedIssues.push(issue)));
    expect(issues).toEqual(expectedIssues);
    expect(result.map((r) => [r.assignee, r.watchers, r.org, r.model, r.lines])).toEqual([
      ["Ana Lima", ["Bo Chen", "Cy Diaz"], "Northwind", "Model Seven", [{ by: "Cy Diaz" }]],
      [
        { unresolved: "usr_00000004" },
        null,
        "Carried Inc",
        { unknown_code: 9 },
        [{ by: "Bo Chen" }, { unusable: "expected an object, got number" }],
      ],
      [{ unresolved: "usr_00000005" }, null, "Northwind", "Model Seven", null],
    ]);
  });

  it("reports each record's issues field by field, an unresolved id's among the others", async () => {
    const issues: ProjectionIssue[] = [];
    await inOneWalk(page, recordingResolvers().resolvers, (issue) => issues.push(issue));
    expect(issues.map((i) => `${i.kind} ${i.field}`)).toEqual([
      "missing subject",
      "unresolved assignee",
      "unknown_code model_code",
      "unusable lines[1]",
      "unresolved assignee",
    ]);
    expect(issues[1]!.message).toBe(`ticket.assignee: ${U(4)}: resolver "users" has no label for it`);
    expect(issues[4]!.message).toBe(`ticket.assignee: ${U(5)}: resolver "users" failed for it: timed out`);
  });

  it("asks each resolver once, for the ids `included` did not name, first met first, each once", async () => {
    const { calls, resolvers } = recordingResolvers();
    await inOneWalk(page, resolvers);
    expect(calls.sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ["models", ["7", "9"]],
      ["orgs", ["org_1"]],
      ["users", [U(2), U(3), U(4), U(5)]],
    ]);
  });

  it("counts the ids of unresolved markers among the short ids kept apart, and passes on the kept run's issues only", async () => {
    const A = "usr_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
    const B = "usr_9f3a71c4-2d19-4b6e-9c05-8ab3f2e17d90";
    const records = [
      { id: T(1), subject: "a", assignee: { data: { type: "user", id: A } } },
      { id: T(2), subject: "b", assignee: { data: { type: "user", id: B } } },
    ];
    const issues: ProjectionIssue[] = [];
    const result = await inOneWalk(records, recordingResolvers().resolvers, (issue) => issues.push(issue));
    expect(result.map((r) => r.assignee)).toEqual([{ unresolved: "usr_9f3a71c4-2d18" }, { unresolved: "usr_9f3a71c4-2d19" }]);
    expect(issues.map((i) => i.value)).toEqual([A, B]);
  });

  it("fails with a resolver's error before passing any issue on", async () => {
    const issues: ProjectionIssue[] = [];
    const { resolvers } = recordingResolvers(async (name) => {
      if (name === "orgs") throw new Error("down");
      return answers[name];
    });
    await expect(inOneWalk(page, resolvers, (issue) => issues.push(issue))).rejects.toThrow('resolver "orgs" failed: down');
    expect(issues).toEqual([]);
  });

  it("passes on the issues of a walk that threw, and leaves the next page unharmed", async () => {
    const issues: ProjectionIssue[] = [];
    const failing = projectInOneWalk(
      {
        resolverNames: names,
        resolvers: recordingResolvers().resolvers,
        included: known,
        options: { onIssue: (issue) => issues.push(issue) },
        expectedIds: 1,
      },
      (lookups, options) => {
        placed(projectRecord(page[1], lookups, options));
        throw new Error("boom");
      },
    );
    await expect(failing).rejects.toThrow("boom");
    expect(issues.map((i) => i.field)).toEqual(["subject", "lines[1]"]);
    const result = await inOneWalk(page, recordingResolvers().resolvers);
    expect(result[0]!.assignee).toBe("Ana Lima");
    expect(result[0]!.watchers).toEqual(["Bo Chen", "Cy Diaz"]);
  });

  it("keeps apart the places of pages projected at once, whichever resolver answers first", async () => {
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const first = inOneWalk(
      [page[0]],
      recordingResolvers(async (name) => {
        await slow;
        return answers[name];
      }).resolvers,
    );
    const second = await inOneWalk([page[2]], recordingResolvers().resolvers);
    release();
    expect(second[0]!.org).toBe("Northwind");
    expect(second[0]!.assignee).toEqual({ unresolved: "usr_00000005" });
    expect((await first)[0]!.watchers).toEqual(["Bo Chen", "Cy Diaz"]);
  });

  it("makes the result from what the walk made only once the labels are in it", async () => {
    const seen: string[] = [];
    const result = await projectInOneWalk(
      { resolverNames: names, resolvers: recordingResolvers().resolvers, included: known, options: {}, expectedIds: 1 },
      (lookups, options) => [placed(projectRecord(page[0], lookups, options))],
      (records) => {
        seen.push(JSON.stringify(records[0]!.watchers));
        return { kept: records.length };
      },
    );
    expect(seen).toEqual(['["Bo Chen","Cy Diaz"]']);
    expect(result).toEqual({ kept: 1 });
  });

  it("gives what a projection with every label known first gives, on any page", async () => {
    // Ids from a small pool, so that pages repeat them; two of them share a short form. A few come
    // from a pool wide enough that a page's table of ids grows and learns where they differ.
    const ids = [U(1), U(2), U(3), U(4), U(5), "usr_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "usr_9f3a71c4-2d19-4b6e-9c05-8ab3f2e17d90", "7"];
    const id = fc.oneof(
      { arbitrary: fc.constantFrom(...ids), weight: 3 },
      { arbitrary: fc.integer({ min: 6, max: 400 }).map(U), weight: 1 },
    );
    const related = fc.oneof(
      fc.constant(null),
      id.map((i) => ({ data: { type: "user", id: i } })),
      fc.array(id, { maxLength: 3 }).map((list) => ({ data: list.map((i) => ({ type: "user", id: i })) })),
      fc.constant("broken"),
    );
    const record = fc.record(
      {
        id: fc.nat(40).map(T),
        subject: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null), fc.nat()),
        assignee: related,
        watchers: related,
        org: fc.oneof(fc.constantFrom("org_1", "org_2"), fc.record({ gid: fc.constantFrom("org_1", "org_3") }), fc.constant([])),
        model_code: fc.oneof(fc.constantFrom(7, "7", 9, "x".repeat(70)), fc.constant(undefined)),
        lines: fc.option(fc.array(fc.oneof(fc.record({ by: id }), fc.constant(null), fc.nat()), { maxLength: 3 })),
      },
      { requiredKeys: ["id"] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 12 }), async (records) => {
        const issues: ProjectionIssue[] = [];
        const { calls, resolvers } = recordingResolvers();
        const result = await inOneWalk(records, resolvers, (issue) => issues.push(issue));
        const expectedIssues: ProjectionIssue[] = [];
        expect(result).toEqual(allKnownFirst(records, (issue) => expectedIssues.push(issue)));
        expect(issues).toEqual(expectedIssues);
        // Each resolver once at most, never with an id twice or one `included` named.
        for (const [name, asked] of calls) {
          expect(calls.filter(([other]) => other === name)).toHaveLength(1);
          expect(new Set(asked).size).toBe(asked.length);
          expect(asked.every((i) => !known.get(name)?.has(i))).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
