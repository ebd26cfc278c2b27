// The one generate driver (src/project/driver.ts), which the CLI, --watch and the library all run:
// the same diagnostics whichever calls it, the over-budget check (PRJ042) included, and outcomes
// told to the caller rather than printed.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, generate, loadSpec, parseAnnotation } from "../src/index.js";
import { readRuntimeTemplate } from "../src/emit/runtime-template.js";
import { runGenerate } from "../src/project/driver.js";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";

const SPEC = "specs/support-tickets.openapi.yaml";
const OPTIONS = {
  config: "projector.yaml",
  check: false,
  force: false,
  allowRemoteRefs: false,
  allowOutsideRefs: false,
  allowOutsideOutput: false,
};

/** The bundled example with search_tickets given a token budget its spec example does not fit. */
function overBudgetProject(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "specs"));
  cpSync(join(ROOT, SPEC), join(dir, SPEC));
  writeFileSync(
    join(dir, "projector.yaml"),
    readFileSync(join(ROOT, "projector.yaml"), "utf8").replace(
      "    page: { total: meta.page.total, more: links.next }\n",
      "    page: { total: meta.page.total, more: links.next }\n    budget: { tokens: 60 }\n",
    ),
  );
  return dir;
}

describe("the generate driver", () => {
  it("reports a tool over its budget from the library's generate() as the CLI does", async () => {
    const dir = overBudgetProject();
    const annotation = parseAnnotation(readFileSync(join(dir, "projector.yaml"), "utf8"), "projector.yaml");
    const output = await generate({
      annotation,
      spec: await loadSpec(join(dir, SPEC), SPEC),
      runtimeTemplate: await readRuntimeTemplate(),
      prettierOptions: null,
      names: { spec: SPEC, annotation: "projector.yaml" },
    });
    const overBudget = output.diagnostics.filter((d) => d.code === "PRJ042");
    expect(overBudget.map((d) => [d.severity, d.message])).toEqual([
      ["warning", "tool search_tickets: the spec's example response does not fit its budget of 60 tokens; 0 of 2 records would be shown"],
    ]);
    expect(output.files.size).toBeGreaterThan(0);

    const printed = await cli(["generate"], dir);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toContain(formatDiagnostic(overBudget[0]!));
  });

  it("gives no files from the library's generate() when a tool over its budget is an error, as for any error", async () => {
    const dir = overBudgetProject();
    const input = {
      annotation: parseAnnotation(readFileSync(join(dir, "projector.yaml"), "utf8"), "projector.yaml"),
      spec: await loadSpec(join(dir, SPEC), SPEC),
      runtimeTemplate: await readRuntimeTemplate(),
      prettierOptions: null,
      names: { spec: SPEC, annotation: "projector.yaml" },
    };
    const output = await generate(input, "error");
    expect(output.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["error PRJ042"]);
    expect(output.files.size).toBe(0);
  });

  it("gives the library's diagnostics in the order the CLI prints them", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "specs"));
    cpSync(join(ROOT, SPEC), join(dir, SPEC));
    // A field the spec does not declare, below one it declares that is left out.
    const text = readFileSync(join(ROOT, "projector.yaml"), "utf8")
      .replace("      subject: keep\n", "")
      .replace(
        "      sla_due_at: { as: sla_due, format: datetime }\n",
        "      sla_due_at: { as: sla_due, format: datetime }\n      not_in_spec: keep\n",
      );
    writeFileSync(join(dir, "projector.yaml"), text);
    const output = await generate({
      annotation: parseAnnotation(text, "projector.yaml"),
      spec: await loadSpec(join(dir, SPEC), SPEC),
      runtimeTemplate: await readRuntimeTemplate(),
      prettierOptions: null,
      names: { spec: SPEC, annotation: "projector.yaml" },
    });
    expect(output.diagnostics.length).toBeGreaterThan(1);
    const printed = await cli(["generate"], dir);
    expect(printed.stderr).toContain(output.diagnostics.map((d) => formatDiagnostic(d)).join("\n"));
  });

  it("tells its outcome without printing: written, checked, problems", async () => {
    const dir = overBudgetProject();
    const written = await runGenerate(OPTIONS, dir);
    expect(written.kind).toBe("written");
    expect(written.kind === "written" && written.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["warning PRJ042"]);
    expect(written.folder).toBe(join(dir, "generated/support"));

    const checked = await runGenerate({ ...OPTIONS, check: true }, dir);
    expect(checked.kind).toBe("problems");
    expect(checked.kind === "problems" && checked.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["error PRJ042"]);

    writeFileSync(
      join(dir, "projector.yaml"),
      readFileSync(join(dir, "projector.yaml"), "utf8").replace("budget: { tokens: 60 }", "budget: { tokens: 100000 }"),
    );
    const fits = await runGenerate(OPTIONS, dir);
    expect(fits.kind === "written" && fits.diagnostics).toEqual([]);
    const clean = await runGenerate({ ...OPTIONS, check: true }, dir);
    expect(clean.kind === "checked" && clean.check).toEqual({ kind: "up to date" });
  });

  it("tells the warnings of the run that wrote the folder again when it finds the folder up to date", async () => {
    const dir = overBudgetProject();
    mkdirSync(join(dir, "node_modules"));
    const written = await runGenerate(OPTIONS, dir);
    expect(written.kind).toBe("written");
    const warnings = written.kind === "written" ? written.diagnostics : [];
    expect(warnings.map((d) => `${d.severity} ${d.code}`)).toEqual(["warning PRJ042"]);
    const again = await runGenerate(OPTIONS, dir);
    expect(again.kind).toBe("up to date");
    expect(again.kind === "up to date" && again.diagnostics).toEqual(warnings);
  });
});
