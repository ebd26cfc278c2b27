// The `join` rule: a relationship or a foreign key named through a resolver.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JOIN } from "../../src/rules/join.js";
import { ROOT } from "../helpers/pipeline.js";
import { fieldProblems } from "./field-problems.js";
import { checkProblems, facts } from "./rule-checks.js";

const generated = (path: string) => readFileSync(join(ROOT, path), "utf8");

describe("a join's generated reader call", () => {
  it("names the id type and the record types it gives a relationship's reader", () => {
    const ticket = generated("generated/support/resources/ticket.ts");
    expect(ticket).toContain(
      'relationshipIds(relationships?.["organization"], {\n        ids: TEXT_IDS,\n        types: ["organization"],\n      })',
    );
    expect(ticket).not.toMatch(/relationshipIds\([^{]*, TEXT_/);
  });

  it("leaves out the record keys of a foreign key the spec declares a plain id", () => {
    const incident = generated("specs/scenarios/rest-foreign-keys/generated/resources/incident.ts");
    const owner = incident.slice(incident.indexOf("owner: refOne("), incident.indexOf("watchers: refMany("));
    expect(owner).toContain("ids: TEXT_IDS,");
    expect(owner).not.toContain("keys:");
    expect(incident).toContain("keys: RECORD_KEYS.services,");
    expect(incident).not.toContain("keys: null");
  });
});

describe("the join rule", () => {
  it("names a resolver, refused at the key's value otherwise", () => {
    expect(JOIN.parse!({ join: "users" }, () => undefined)).toEqual({ join: "users" });
    expect(fieldProblems("      owner_id: { join: 7 }\n").map((d) => [d.message, d.location.column])).toEqual([
      ["`join` must name a resolver", 25],
    ]);
  });

  it("needs its resolver declared, at the key", () => {
    expect(checkProblems(JOIN, { join: "user" }, facts({ role: "join key" }))).toEqual([
      ["PRJ026", 'resolver "user" is not declared (did you mean "users"?)', "join"],
    ]);
    expect(checkProblems(JOIN, { join: "users" }, facts({ role: "relationship" }))).toEqual([]);
  });
});
