// Real public specs from ../shared/real-specs; skipped cleanly where that folder is absent.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateOutput } from "../src/generate.js";
import { generateFrom, importGenerated, REAL_SPECS, recordingResolver, tempDir, typecheckFiles } from "./helpers/pipeline.js";

const DATADOG = join(REAL_SPECS, "datadog_v2_openapi.yaml");

describe.skipIf(!existsSync(DATADOG))("Datadog v2: team memberships", () => {
  let generated: GenerateOutput;
  beforeAll(async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "projector.yaml"),
      [
        `spec: ${JSON.stringify(DATADOG)}`,
        "output: generated/datadog",
        "resolvers:",
        "  users: { type: users, label: name }",
        "resources:",
        "  team_memberships:",
        "    fields:",
        '      id: { drop: "no tool takes a membership id" }',
        "      role: keep",
        "      provisioned_by: keep",
        "      provisioned_by_id: { as: provisioned_by_user, join: users }",
        "      user: { join: users }",
        '      team: { drop: "the tool is called for one team" }',
        "tools:",
        "  get_team_memberships:",
        "    operation: GetTeamMemberships",
        "    list: members",
        "    page: { total: meta.pagination.total, more: links.next }",
      ].join("\n"),
    );
    const result = await generateFrom(join(dir, "projector.yaml"));
    expect(result.problems).toEqual([]);
    generated = result;
  }, 120_000);

  it("projects the recorded page: role null kept as null, user names from included, one call for the rest", async () => {
    const page = JSON.parse(readFileSync(join(REAL_SPECS, "examples/dd_v2_team_memberships_page.json"), "utf8"));
    const module = await importGenerated<{ projectGetTeamMemberships: (r: unknown, res: unknown) => Promise<unknown> }>(generated.files);
    const users = recordingResolver({ "6018c832-80a7-11ea-93dd-43183212bc7a": "Provisioning Bot" });
    const result = await module.projectGetTeamMemberships(page, { users: users.resolver });
    expect(result).toStrictEqual({
      members: [
        { provisioned_by: null, provisioned_by_user: "Provisioning Bot", role: null, user: "Datadog API Client Python" },
        { provisioned_by: null, provisioned_by_user: "Provisioning Bot", role: null, user: "Datadog API Client Python" },
      ],
      total: 3,
      more: true,
    });
    expect(users.calls).toEqual([["6018c832-80a7-11ea-93dd-43183212bc7a"]]);
  });

  it("generates code that compiles under the strict flags", () => {
    expect(typecheckFiles(generated.files)).toEqual([]);
  }, 120_000);
});
