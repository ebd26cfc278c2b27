// `drop: "reason"`: a field never sent.
import { describe, expect, it } from "vitest";
import { parseDrop } from "../../src/rules/drop.js";
import { RULE_KEYS } from "../../src/rules/field-rules.js";
import { fieldProblems } from "./field-problems.js";

describe("the drop rule", () => {
  it("keeps its reason", () => {
    expect(
      parseDrop(
        { drop: "staff only" },
        () => undefined,
        (key) => RULE_KEYS.includes(key),
      ),
    ).toEqual({
      kind: "drop",
      reason: "staff only",
    });
  });

  it("tells a reason cut at a comma from another option, at the word after the comma", () => {
    const [cut] = fieldProblems("      notes: { drop: staff only, never shown }\n");
    expect(cut!.message).toBe('the drop reason stops at a comma: "staff only", then "never shown" reads as another option');
    expect(cut!.help).toBe('quote it: `{ drop: "staff only, never shown" }`');
    expect(cut!.location.column).toBe(34);
    expect(fieldProblems("      notes: { drop: staff only, as: x }\n").map((d) => d.message)).toEqual([
      'a dropped field takes no other options (found "as")',
    ]);
  });

  it("needs its reason", () => {
    expect(fieldProblems("      notes: drop\n      other: { drop: '' }\n").map((d) => d.message)).toEqual([
      "a drop needs its reason",
      "a drop needs its reason",
    ]);
  });
});
