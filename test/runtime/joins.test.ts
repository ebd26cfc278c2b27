// Related records named through a resolver's labels; a missing or failed label is a marker keeping the short id.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { includedLabels, joinMany, joinOne } from "../../templates/runtime/joins.js";

const U1 = "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af";
const U2 = "usr_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802";
const issues: ProjectionIssue[] = [];
const ctx = context("ticket", { onIssue: (issue) => issues.push(issue) });
const labels = new Map<string, string | Error>([
  [U1, "Ana Lima"],
  [U2, new Error("timed out")],
]);

describe("joins", () => {
  it("names one related record, or marks it", () => {
    issues.length = 0;
    expect(joinOne(U1, { labels, resolver: "users", key: "assignee", field: "assignee", ctx })).toBe("Ana Lima");
    expect(joinOne(null, { labels, resolver: "users", key: "assignee", field: "assignee", ctx })).toBeNull();
    expect(joinOne("usr_gone", { labels, resolver: "users", key: "assignee", field: "assignee", ctx })).toEqual({ unresolved: "usr_gone" });
    expect(joinOne(U2, { labels, resolver: "users", key: "assignee", field: "assignee", ctx })).toEqual({ unresolved: "usr_5d8804f1" });
    expect(joinOne([U1], { labels, resolver: "users", key: "assignee", field: "assignee", ctx })).toEqual({
      unusable: "expected one related record, got a list",
    });
    expect(issues.map((i) => i.message)).toEqual([
      'ticket.assignee: usr_gone: resolver "users" has no label for it',
      `ticket.assignee: ${U2}: resolver "users" failed for it: timed out`,
      "ticket.assignee: expected one related record, got a list",
    ]);
  });

  it("names each of many related records, and never reads one as a list of one", () => {
    expect(joinMany([U1, "usr_gone"], { labels, resolver: "users", field: "watchers", ctx })).toEqual([
      "Ana Lima",
      { unresolved: "usr_gone" },
    ]);
    expect(joinMany(U1, { labels, resolver: "users", field: "watchers", ctx })).toEqual({
      unusable: "expected a list of related records, got one",
    });
  });

  it("takes the labels a JSON:API response already includes, per resolver", () => {
    const response = {
      included: [
        { type: "user", id: U1, attributes: { name: "Ana Lima" } },
        { type: "org", id: "7", attributes: { title: "Northwind" } },
        { type: "user", id: U2, attributes: { name: 3 } },
        "junk",
      ],
    };
    const found = includedLabels(response, [
      { resolver: "users", type: "user", label: "name" },
      { resolver: "orgs", type: "org", label: "title" },
    ]);
    expect(found).toEqual(
      new Map([
        ["users", new Map([[U1, "Ana Lima"]])],
        ["orgs", new Map([["7", "Northwind"]])],
      ]),
    );
  });
});
