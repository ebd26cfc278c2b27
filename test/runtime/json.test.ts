// Reading parsed JSON: objects only, own keys only.
import { describe, expect, it } from "vitest";
import { asObject, read } from "../../templates/runtime/json.js";

describe("json", () => {
  it.each([
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ["x", false],
    [3, false],
  ])("asObject(%j) is an object: %s", (value, isObject) => {
    expect(asObject(value) !== undefined).toBe(isObject);
  });

  it("reads own keys only, never the prototype's", () => {
    expect(read({}, "toString")).toBeUndefined();
    expect(read({ constructor: "mine" }, "constructor")).toBe("mine");
    expect(read(JSON.parse('{"__proto__": 1}') as Record<string, unknown>, "__proto__")).toBe(1);
    expect(read(undefined, "a")).toBeUndefined();
  });
});
