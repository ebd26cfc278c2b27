// The generated tools wired into the clients and libraries consumers use them with: the MCP SDK's
// servers, JSON Schema validators, and the model SDKs' own types.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../generated/support/index.js";
import { ROOT } from "./helpers/pipeline.js";
import { SCENARIOS, scenarioNames } from "./helpers/scenarios.js";

const FOLDERS = ["generated/support", ...scenarioNames.map((name) => `specs/scenarios/${name}/generated`)];

async function definitionsIn(folder: string): Promise<readonly ToolDefinition[]> {
  const module = (await import(join(ROOT, folder, "definitions.ts"))) as { toolDefinitions: readonly ToolDefinition[] };
  return module.toolDefinitions;
}

describe("JSON Schema validators in strict mode", () => {
  const validators = [
    ["draft-07", () => new Ajv({ strict: true })],
    ["2020-12", () => new Ajv2020({ strict: true })],
  ] as const;

  it("scenario folders are where the test looks for them", () => {
    expect(FOLDERS.length).toBeGreaterThan(5);
    expect(SCENARIOS).toBe(join(ROOT, "specs/scenarios"));
  });

  it.each(FOLDERS)("compile every input and output schema of %s", async (folder) => {
    const problems: string[] = [];
    for (const tool of await definitionsIn(folder))
      for (const [which, schema] of [
        ["input", tool.inputSchema],
        ["output", tool.outputSchema],
      ] as const)
        for (const [draft, validator] of validators)
          try {
            validator().compile(schema);
          } catch (error) {
            problems.push(`${tool.name} ${which} (${draft}): ${(error as Error).message}`);
          }
    expect(problems).toEqual([]);
  });

  it("validate a result with its markers against the output schema, in both drafts", async () => {
    const [getTicket] = (await definitionsIn("generated/support")).filter((tool) => tool.name === "get_ticket");
    const result = {
      id: "tkt_5498ee00",
      subject: "Refund",
      status: { unknown_code: 9 },
      priority: { unknown_code: "x" },
      assignee: { unresolved: "usr_0baa8c00" },
      org: null,
      opened: "2026-02-12",
      last_update: { unusable: "not a date-time" },
      sla_due: null,
    };
    for (const [, validator] of validators) {
      const validate = validator().compile(getTicket!.outputSchema);
      expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...result, status: { unknown_code: true } })).toBe(false);
      expect(validate({ ...result, opened: "12 February" })).toBe(false);
    }
  });

  it("compile the shipped annotation schema", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schema/projector.schema.json"), "utf8")) as object;
    for (const [, validator] of validators) {
      const validate = validator().compile(schema);
      const resolvers = { users: { type: "user", operation: "listUsers" } };
      expect(validate({ spec: "a.yaml", output: "out", resolvers })).toBe(false);
      expect(validate({ spec: "a.yaml", output: "out", resolvers: { users: { ...resolvers.users, label: "name" } } })).toBe(true);
    }
  });
});
