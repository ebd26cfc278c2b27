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

  it("is shared by records projected alike in a row, and never by records projected otherwise", () => {
    const options = recordOptions(() => undefined, undefined);
    const first = context("ticket", options);
    expect(context("ticket", options)).toBe(first);
    expect(context("ticket", recordOptions(options.onIssue, undefined))).toBe(first);
    const otherIssues = context(
      "ticket",
      recordOptions(() => undefined, undefined),
    );
    expect(otherIssues).not.toBe(first);
    expect(context("ticket", options)).toEqual({ resource: "ticket", onIssue: options.onIssue, shortIds: undefined });
    expect(context("user", options)).toEqual({ resource: "user", onIssue: options.onIssue, shortIds: undefined });
    const shortIds = new Map<string, string>();
    expect(context("user", { onIssue: options.onIssue, shortIds }).shortIds).toBe(shortIds);
  });
});
