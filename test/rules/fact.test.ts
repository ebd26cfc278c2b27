// `fact`: a value named like an id that people quote, kept as it is.
import { describe, expect, it } from "vitest";
import { FACT } from "../../src/rules/fact.js";
import { fieldProblems } from "./field-problems.js";
import { checkProblems, facts, place } from "./rule-checks.js";

describe("the fact rule", () => {
  it("needs its reason, and says so at the key's value", () => {
    const [problem, ...rest] = fieldProblems('      ticket_id: { fact: " " }\n');
    expect(rest).toEqual([]);
    expect(problem!.message).toBe("`fact` needs its reason");
    expect(place(problem!)).toEqual([6, 26]);
  });

  it("refuses each key that would read the value otherwise, at that key", () => {
    expect(checkProblems(FACT, { fact: "people quote it", join: "users", shorten: true }, facts({ role: "join key" }))).toEqual([
      ["PRJ029", "a fact is kept as it is; `join` says otherwise", "join"],
      ["PRJ029", "a fact is kept as it is; `shorten` says otherwise", "shorten"],
    ]);
    expect(checkProblems(FACT, { fact: "people quote it", as: "ticket" })).toEqual([]);
  });
});
