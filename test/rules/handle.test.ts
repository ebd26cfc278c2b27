// `id_as`: the output name of the id kept beside a joined name.
import { describe, expect, it } from "vitest";
import { HANDLE } from "../../src/rules/handle.js";
import { fieldProblems } from "./field-problems.js";
import { checkProblems, facts } from "./rule-checks.js";

describe("the id_as rule", () => {
  it("names the id only beside both a join and an argument", () => {
    expect(checkProblems(HANDLE, { join: "users", argument: ["get_user"], id_as: "assignee_ref" }, facts({ role: "join key" }))).toEqual(
      [],
    );
    expect(checkProblems(HANDLE, { join: "users", id_as: "assignee_ref" }, facts({ name: "assignee_id", role: "join key" }))).toEqual([
      ["PRJ029", "`id_as` names the id kept beside a joined name, and this field is not both a join key and an argument", "id_as"],
    ]);
  });

  it("refuses an empty name", () => {
    expect(fieldProblems('      a: { join: users, argument: [t], id_as: "" }\n').map((d) => d.message)).toEqual([
      "`id_as` must be a non-empty name",
    ]);
  });
});
