// Real public specs from ../shared/real-specs; skipped cleanly where that folder is absent.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateOutput } from "../src/generate.js";
import { pascalCase } from "../src/naming.js";
import { cli, generateFrom, importGenerated, REAL_SPECS, recordingResolver, tempDir, typecheckFiles } from "./helpers/pipeline.js";

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

describe.each([
  ["datadog_v2_openapi.yaml", 300],
  ["tidal_api_oas.json", 200],
  ["pagerduty_rest_openapiv3.json", 150],
  ["sentry_openapi_derefed.json", 100],
  ["box_openapi.json", 100],
  ["digitalocean/specification/DigitalOcean-public.v2.yaml", 300],
])("init --accept-guesses then generate on the whole of %s", (file, minimumTools) => {
  const specPath = join(REAL_SPECS, file);
  let dir: string;
  let generated: Awaited<ReturnType<typeof generateFrom>>;
  beforeAll(async () => {
    if (!existsSync(specPath)) return;
    dir = tempDir();
    const init = await cli(["init", specPath, "--accept-guesses"], dir);
    expect(init.code).toBe(0);
    generated = await generateFrom(join(dir, "projector.yaml"));
  }, 240_000);

  it.skipIf(!existsSync(specPath))("drafts a tool per JSON GET operation and generates without a problem", () => {
    expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
    expect(generated.model!.tools.length).toBeGreaterThanOrEqual(minimumTools);
  });

  it.skipIf(!existsSync(specPath))("generates code that compiles under the strict flags", () => {
    expect(typecheckFiles(generated.files)).toEqual([]);
  }, 240_000);

  it.skipIf(!existsSync(specPath) || file !== "datadog_v2_openapi.yaml")("projects every recorded Datadog payload through the generated code", async () => {
    const module = await importGenerated<Record<string, (r: unknown, res: unknown, o: unknown) => Promise<Record<string, unknown>>>>(generated.files);
    const resolvers = Object.fromEntries(generated.model!.resolvers.map((r) => [r.name, async (ids: readonly string[]) => new Map(ids.map((id) => [id, `name of ${id}`]))]));
    for (const [payload, tool] of [
      ["dd_v2_users_list_page.json", "list_users"],
      ["dd_v2_powerpacks_list_page.json", "list_powerpacks"],
      ["dd_v2_oncall_escalation_policy_include.json", "get_on_call_escalation_policy"],
      ["dd_v2_team_memberships_page.json", "get_team_memberships"],
    ] as const) {
      const response = JSON.parse(readFileSync(join(REAL_SPECS, "examples", payload), "utf8"));
      const model = generated.model!.tools.find((t) => t.name === tool)!;
      const issues: unknown[] = [];
      const result = await module[`project${pascalCase(tool)}`]!(response, resolvers, { onIssue: (i: unknown) => issues.push(i) });
      const records = model.list === undefined ? [result] : (result[model.list] as Record<string, unknown>[]);
      expect(records, payload).toHaveLength(Array.isArray(response.data) ? response.data.length : 1);
      for (const record of records) expect(Object.keys(record).sort()).toEqual(model.resource.fields.map((f) => f.out).sort());
      expect(JSON.stringify(result)).not.toContain("https://api.datadoghq.com");
    }
  });
});
