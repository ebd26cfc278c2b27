// Every record's context and every tool's record options have one layout, whatever the caller passed.
import { describe, expect, it } from "vitest";
import { context, recordOptions, type ProjectionIssue } from "../../templates/runtime/context.js";

describe("context", () => {
  it("carries the resource, onIssue and shortIds", () => {
    const onIssue = (_issue: ProjectionIssue) => undefined;
    const shortIds = new Map([["a", "b"]]);
    expect(context("ticket", { onIssue, shortIds })).toEqual({ resource: "ticket", onIssue, shortIds });
  });

  it("has the same keys in the same order however many options were given", () => {
    const keys = Object.keys(context("ticket", {}));
    expect(keys).toEqual(["resource", "onIssue", "shortIds"]);
    expect(Object.keys(context("user", { shortIds: (id) => id }))).toEqual(keys);
    expect(Object.keys(recordOptions(undefined, undefined))).toEqual(["onIssue", "shortIds"]);
  });
});
