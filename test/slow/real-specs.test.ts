// Real public specs from ../shared/real-specs; skipped cleanly where that folder is absent.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateOutput } from "../../src/generate.js";
import { parseAnnotation } from "../../src/annotation/parse.js";
import { initAnnotation } from "../../src/init/init.js";
import { buildModel } from "../../src/model/build.js";
import { findOperation, listOperations, successBody } from "../../src/model/operations.js";
import { pascalCase } from "../../src/naming.js";
import { loadSpec } from "../../src/openapi/load.js";
import { SchemaReader, type SchemaAt } from "../../src/openapi/schema.js";
import {
  cli,
  generateFrom,
  importGenerated,
  REAL_SPEC_FILES,
  REAL_SPECS,
  recordingResolver,
  tempDir,
  typecheckFiles,
} from "../helpers/pipeline.js";

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
  ["digitalocean/specification/DigitalOcean-public.v2.yaml", 250],
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

  it.skipIf(!existsSync(specPath))(
    "generates code that compiles under the strict flags",
    () => {
      expect(typecheckFiles(generated.files)).toEqual([]);
    },
    240_000,
  );

  it.skipIf(!existsSync(specPath) || file !== "datadog_v2_openapi.yaml")(
    "projects every recorded Datadog payload through the generated code",
    async () => {
      const module = await importGenerated<Record<string, (r: unknown, res: unknown, o: unknown) => Promise<Record<string, unknown>>>>(
        generated.files,
      );
      const resolvers = Object.fromEntries(
        generated.model!.resolvers.map((r) => [r.name, async (ids: readonly string[]) => new Map(ids.map((id) => [id, `name of ${id}`]))]),
      );
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
    },
  );
});

describe.each(REAL_SPEC_FILES)("every single-record tool init drafts on %s", (file) => {
  const specPath = join(REAL_SPECS, file);
  it.skipIf(!existsSync(specPath))(
    "projects the operation's own response record, or the one object its envelope wraps",
    async () => {
      const spec = await loadSpec(specPath, file);
      const reader = new SchemaReader(spec.document);
      const { text, draft } = initAnnotation(spec, { file: "projector.yaml", spec: file, output: "generated/api", acceptGuesses: true });
      const annotation = parseAnnotation(text, "projector.yaml");
      const built = buildModel(annotation, spec);
      expect(built.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`)).toEqual([]);
      // The drafted inputs cost no tool: every argument name init proposes is the one generate passes.
      expect(draft.skipped.filter((s) => /would both be passed as|has no parameter|cannot be dropped/.test(s.reason))).toEqual([]);
      for (const tool of built.model!.tools) {
        const proposed = annotation.tools.find((t) => t.name === tool.name)!.inputs.filter((i) => i.as !== undefined);
        for (const input of proposed)
          expect(tool.inputs.parameters.find((p) => p.name === input.name)?.argument, `${tool.name} ${input.name}`).toBe(input.as);
      }
      const operations = listOperations(reader);
      const own = (at: SchemaAt) => reader.unwrapNullable(at).pointer;
      let single = 0;
      for (const tool of built.model!.tools.filter((t) => !t.many)) {
        const planned = annotation.tools.find((t) => t.name === tool.name)!;
        const body = successBody(reader, findOperation(operations, planned.operation)!)!;
        const response = reader.unwrapNullable(body.schema);
        // The record is the response itself, or the one object under a single key beside links and meta.
        const wrapper = tool.rowsPath.length === 1 ? reader.property(response, tool.rowsPath[0]!) : undefined;
        const others = reader
          .properties(response)
          .filter(
            (p) =>
              p.name !== tool.rowsPath[0] &&
              reader.kind(p.at) === "object" &&
              !["links", "_links", "meta", "pagination", "included"].includes(p.name),
          );
        expect(tool.rowsPath.length, tool.name).toBeLessThanOrEqual(1);
        if (wrapper && !tool.jsonapi) {
          expect(
            others.map((p) => p.name),
            `${tool.name} wraps one object`,
          ).toEqual([]);
          expect(reader.property(response, "id"), `${tool.name}: a response with an id is the record`).toBeUndefined();
        }
        const expected = own(wrapper ? wrapper.at : response);
        const source = annotation.resources.find((r) => r.name === tool.resource.name)!;
        const classified = source.schema !== undefined && !tool.jsonapi ? `/components/schemas/${source.schema}` : expected;
        expect(own(reader.pointer(classified) ?? response), `${tool.name} (${planned.operation})`).toBe(expected);
        single++;
      }
      expect(single).toBeGreaterThan(0);
    },
    240_000,
  );
});
