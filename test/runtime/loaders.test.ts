// A resolver from a DataLoader and a DataLoader batch function from a resolver.
import { describe, expect, it } from "vitest";
import { batchFunction, resolverFromLoader } from "../../templates/runtime/loaders.js";

describe("loaders", () => {
  it("reads a loader's answers: labels kept, null left out, a per-id Error kept", async () => {
    const failed = new Error("gone");
    const resolver = resolverFromLoader({ loadMany: async () => ["Ana", null, failed] });
    expect(await resolver(["u1", "u2", "u3"])).toEqual(
      new Map<string, string | Error>([
        ["u1", "Ana"],
        ["u3", failed],
      ]),
    );
  });

  it("fails as a whole when the batch failed as a whole", async () => {
    const failed = new Error("db down");
    const resolver = resolverFromLoader({ loadMany: async () => [failed, failed] });
    await expect(resolver(["u1", "u2"])).rejects.toBe(failed);
  });

  it("answers a batch in the order asked, once per distinct id, null where there is no label", async () => {
    const asked: string[][] = [];
    const batch = batchFunction((ids) => {
      asked.push([...ids]);
      return new Map([["u1", "Ana"]]);
    });
    expect(await batch(["u1", "u2", "u1"])).toEqual(["Ana", null, "Ana"]);
    expect(asked).toEqual([["u1", "u2"]]);
    expect(await batch([])).toEqual([]);
    expect(asked).toHaveLength(1);
  });
});
