// Foreign keys: a plain id or an embedded record, named by what the record carries or by the resolver.
import { describe, expect, it } from "vitest";
import { context } from "../../templates/runtime/context.js";
import { TEXT_OR_NUMBER_IDS } from "../../templates/runtime/ids.js";
import { refMany, refOne } from "../../templates/runtime/refs.js";

const ctx = context("task", {});
const labels = new Map<string, string | Error>([["12", "Greg Sanchez"]]);
const keys = { id: "gid", label: "name" };

describe("foreign keys", () => {
  it.each([
    ["12", "Greg Sanchez"],
    [12, "Greg Sanchez"],
    [{ gid: "12" }, "Greg Sanchez"],
    [{ gid: "99", name: "Carried Name" }, "Carried Name"],
    [{ gid: "99" }, { unresolved: "99" }],
    [{ other: 1 }, { unusable: "expected a record with `gid`, got an object without it" }],
    [true, { unusable: "expected an id or a record with `gid`, got boolean" }],
    [["12"], { unusable: "expected one id or record, got a list" }],
    [null, null],
  ])("refOne reads %j as %j", (value, expected) => {
    expect(refOne(value, { ids: TEXT_OR_NUMBER_IDS, labels, resolver: "users", key: "assignee", keys, field: "assignee", ctx })).toEqual(
      expected,
    );
  });

  it("reads a list of ids or records, and never one id as a list of one", () => {
    expect(
      refMany(["12", { gid: "1", name: "Ann" }], { ids: TEXT_OR_NUMBER_IDS, labels, resolver: "users", keys, field: "followers", ctx }),
    ).toEqual(["Greg Sanchez", "Ann"]);
    expect(refMany("12", { ids: TEXT_OR_NUMBER_IDS, labels, resolver: "users", keys, field: "followers", ctx })).toEqual({
      unusable: "expected a list of ids or records, got string",
    });
  });
});
