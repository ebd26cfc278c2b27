// A label is written into the object or array waiting for it exactly as `holder[key] = value` would.
import { describe, expect, it } from "vitest";
import { storeField } from "../../templates/runtime/field-stores.js";

describe("storeField", () => {
  it("writes each of more keys than it has stores of their own, into objects of any shape", () => {
    const keys = Array.from({ length: 12 }, (_, i) => `field_${i}`);
    const shapes = [
      () => Object.fromEntries(keys.map((key) => [key, null])),
      () => ({ id: "tkt_1", [keys[0]!]: null }),
      () => ({}) as Record<string, unknown>,
    ];
    for (const make of shapes)
      for (const key of keys) {
        const holder = make();
        const before = { ...holder };
        storeField(holder, key, `label of ${key}`);
        expect(holder).toEqual({ ...before, [key]: `label of ${key}` });
      }
  });

  it("writes an array's items by index, leaving the others", () => {
    const holder = ["Ana Lima", null, null];
    storeField(holder as unknown as Record<number, unknown>, 2, "Ben Okafor");
    storeField(holder as unknown as Record<number, unknown>, 1, {
      unresolved: "usr_5d8804f1",
    });
    expect(holder).toEqual(["Ana Lima", { unresolved: "usr_5d8804f1" }, "Ben Okafor"]);
  });
});
