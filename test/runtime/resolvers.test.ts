// Resolvers are asked once each, for the ids still unnamed; a failure fails the call naming the resolver.
import { describe, expect, it } from "vitest";
import { resolveLabels, ResolverError, type Resolver } from "../../templates/runtime/resolvers.js";

describe("resolveLabels", () => {
  it("asks each resolver once, for the ids the response did not already name, and ignores labels it was not asked for", async () => {
    const asked: string[][] = [];
    const users: Resolver = (ids) => {
      asked.push([...ids]);
      return new Map([
        ["u2", "Bo"],
        ["u9", "not asked"],
      ]);
    };
    const orgs: Resolver = () => {
      throw new Error("never called: nothing is missing");
    };
    const labels = await resolveLabels(
      { users: new Set(["u1", "u2"]), orgs: new Set(["o1"]) },
      { users, orgs },
      new Map([
        ["users", new Map([["u1", "Ana"]])],
        ["orgs", new Map([["o1", "Northwind"]])],
      ]),
    );
    expect(asked).toEqual([["u2"]]);
    expect(labels.users).toEqual(
      new Map([
        ["u1", "Ana"],
        ["u2", "Bo"],
      ]),
    );
    expect(labels.orgs).toEqual(new Map([["o1", "Northwind"]]));
  });

  it.each([
    ["throws", () => Promise.reject(new Error("db down")), 'resolver "users" failed: db down'],
    ["returns no Map", () => ({}) as never, 'resolver "users" failed: returned object, expected a Map of id to label'],
  ])("fails the call with a ResolverError when the resolver %s", async (_, resolver: Resolver, message) => {
    const call = resolveLabels({ users: new Set(["u1"]) }, { users: resolver }, new Map());
    await expect(call).rejects.toBeInstanceOf(ResolverError);
    await expect(call).rejects.toThrow(message);
  });

  it("asks no resolver once the call is aborted, and refuses a timeout that is no positive number", async () => {
    let called = false;
    const users: Resolver = () => {
      called = true;
      return new Map();
    };
    const aborted = AbortSignal.abort(new Error("user left"));
    await expect(resolveLabels({ users: new Set(["u1"]) }, { users }, new Map(), { signal: aborted })).rejects.toThrow(
      'resolver "users" failed: user left',
    );
    expect(called).toBe(false);
    await expect(resolveLabels({ users: new Set(["u1"]) }, { users }, new Map(), { timeoutMs: 0 })).rejects.toThrow(RangeError);
  });
});
