import { resolve } from "node:path";
import { hasErrors } from "../diagnostics.js";
import { diffFolder, isClean, recoverInterruptedWrite, writeFolder } from "../output/write.js";
import { checkBudgets } from "../evidence/budget-check.js";
import { generateProject, loadProject, printDiagnostics } from "./project.js";
import { summarize } from "../summary.js";
import { EXIT, type Io } from "./run.js";

export const GENERATE_HELP = `Usage: projector generate [-c projector.yaml] [--check]

Reads the annotation file and the OpenAPI document it names, checks that every field the spec
declares is classified, and writes the output folder: typed projectors, resolver types, tool result
types and JSON Schemas. The folder is replaced as a whole; identical files are not rewritten.

Options:
  -c, --config FILE         annotation file (default ./projector.yaml)
      --check               write nothing; exit 1 if the folder is stale or a field is unclassified
      --silent              print only problems
      --allow-remote-refs   let the spec's $refs fetch http(s) documents (off: no network access)
      --allow-outside-output  let \`output\` point outside the annotation file's folder
  -h, --help                this text

Exit codes: 0 ok, 1 problems in the inputs or stale output, 2 bad usage.
`;

export interface GenerateOptions {
  config: string;
  check: boolean;
  silent: boolean;
  allowRemoteRefs: boolean;
  allowOutsideOutput: boolean;
}

export async function runGenerate(options: GenerateOptions, io: Io): Promise<number> {
  const project = await loadProject(options, io.cwd);
  const { display, outputDir } = project;
  const result = await generateProject(project, { format: true });
  printDiagnostics(io, result.diagnostics);
  if (hasErrors(result.diagnostics) || !result.model) {
    io.stderr.write(`projector: ${result.diagnostics.filter((d) => d.severity === "error").length} problem(s); ${display(outputDir)} was not touched\n`);
    return EXIT.problems;
  }
  const budgets = await checkBudgets(result.model, result.files, project.annotation, options.check ? "error" : "warning");
  printDiagnostics(io, budgets);
  if (hasErrors(budgets)) return EXIT.problems;
  if (!options.check) await recoverInterruptedWrite(outputDir);
  const diff = await diffFolder(outputDir, result.files);
  if (options.check) {
    if (isClean(diff)) {
      if (!options.silent) io.stdout.write(`${display(outputDir)} is up to date\n`);
      return EXIT.ok;
    }
    const stale = [
      ...diff.changed.map((p) => `  stale    ${display(resolve(outputDir, p))}`),
      ...diff.added.map((p) => `  missing  ${display(resolve(outputDir, p))}`),
      ...diff.removed.map((p) => `  extra    ${display(resolve(outputDir, p))}`),
    ];
    io.stderr.write(`${display(outputDir)} is out of date with its inputs:\n${stale.join("\n")}\nrun \`projector generate\` and commit the result\n`);
    return EXIT.problems;
  }
  await writeFolder(outputDir, result.files, diff);
  if (!options.silent) {
    io.stdout.write(summarize(result.model) + "\n\n");
    const written = diff.changed.length + diff.added.length;
    io.stdout.write(
      `${display(outputDir)}: ${written} file(s) written, ${result.files.size - written} unchanged${diff.removed.length ? `, ${diff.removed.length} removed` : ""}\n`,
    );
  }
  return EXIT.ok;
}
