// An annotation's `argument` list names the tools an id is passed to: a list naming none is no
// argument at all, and is refused where it is written.
import { describe, expect, it } from "vitest";
import { fieldProblems } from "./rules/field-problems.js";

describe("an argument list", () => {
  it("naming no tool is refused with a coded diagnostic at its place and a help line", () => {
    const [problem, ...others] = fieldProblems("      id: { argument: [] }\n");
    expect(others).toEqual([]);
    expect(problem).toMatchObject({
      code: "PRJ002",
      message: "`argument` must name at least one tool, and names none",
      help: "list the tools that take this id, `argument: [get_ticket]`, or remove `argument`",
      location: { file: "projector.yaml", line: 6, column: 23 },
    });
  });

  it("naming one tool, as a list or alone, is taken", () => {
    expect(fieldProblems("      id: { argument: [get_ticket] }\n")).toEqual([]);
    expect(fieldProblems("      id: { argument: get_ticket }\n")).toEqual([]);
  });
});
