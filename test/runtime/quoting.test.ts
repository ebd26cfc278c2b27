// Markers and messages name values bounded, by type for objects, and survive whatever was thrown.
import { describe, expect, it } from "vitest";
import { clipped, described, ISSUE_VALUE_CHARACTERS, messageOf, typeName } from "../../templates/runtime/quoting.js";

describe("quoting", () => {
  it.each([
    [null, "null"],
    [[1], "array"],
    [{ a: 1 }, "object"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [Number.NaN, "NaN"],
    ["x", "string"],
    [3, "number"],
    [undefined, "undefined"],
  ])("names the type of %j as %s", (value, name) => {
    expect(typeName(value)).toBe(name);
  });

  it.each([
    ["open", '"open"'],
    ["x".repeat(41), `"${"x".repeat(40)}"… (41 characters)`],
    [3, "3"],
    [false, "false"],
    [{ secret: "s3cr3t" }, "object"],
    [null, "null"],
  ])("describes %j as %s", (value, text) => {
    expect(described(value)).toBe(text);
  });

  it("clips long text and says how long it was", () => {
    expect(clipped("abc", 3)).toBe("abc");
    expect(clipped("abcdef", 3)).toBe("abc… (6 characters)");
  });

  it("reads a message from anything thrown, bounded", () => {
    expect(messageOf(new Error("boom"))).toBe("boom");
    expect(messageOf("plain")).toBe("plain");
    expect(messageOf(42)).toBe("42");
    expect(messageOf(Object.create(null))).toBe("a thrown object");
    const hostile = new Error("x");
    Object.defineProperty(hostile, "message", {
      get() {
        throw new Error("no");
      },
    });
    expect(messageOf(hostile)).toBe("an error that cannot be read");
    expect(messageOf("y".repeat(ISSUE_VALUE_CHARACTERS + 1))).toBe(`${"y".repeat(ISSUE_VALUE_CHARACTERS)}… (201 characters)`);
  });
});
