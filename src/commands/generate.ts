import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { parseAnnotation } from "../annotation/parse.js";
import { DiagnosticError, formatDiagnostic, hasErrors, sortDiagnostics, type Diagnostic } from "../diagnostics.js";
import { consumerPrettierConfig } from "../format.js";
import { generate } from "../generate.js";
import { diffFolder, isClean, recoverInterruptedWrite, writeFolder } from "../output/write.js";
import { loadSpec } from "../spec/load.js";
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

const posix = (path: string) => path.split(sep).join("/");

/** The one place options become paths: everything after works from this context. */
export interface GenerateContext extends GenerateOptions {
  configPath: string;
  configDir: string;
  /** How messages name a file: relative to the working directory. */
  display(path: string): string;
}

function createContext(options: GenerateOptions, cwd: string): GenerateContext {
  const configPath = resolve(cwd, options.config);
  return { ...options, configPath, configDir: dirname(configPath), display: (path) => posix(relative(cwd, path)) || "." };
}

const templateUrl = new URL("../../templates/runtime.ts", import.meta.url);

export async function runGenerate(options: GenerateOptions, io: Io): Promise<number> {
  const ctx = createContext(options, io.cwd);
  const report = (diagnostics: readonly Diagnostic[]) => {
    for (const d of sortDiagnostics(diagnostics)) io.stderr.write(formatDiagnostic(d) + "\n");
  };
  try {
    let text: string;
    try {
      text = await readFile(ctx.configPath, "utf8");
    } catch {
      throw new DiagnosticError([
        {
          code: "PRJ001",
          severity: "error",
          message: "no annotation file here",
          help: "run `projector init SPEC` to draft one, or pass -c path/to/projector.yaml",
          location: { file: ctx.display(ctx.configPath) },
        },
      ]);
    }
    const annotation = parseAnnotation(text, ctx.display(ctx.configPath));
    const specPath = resolve(ctx.configDir, annotation.spec);
    const outputDir = resolve(ctx.configDir, annotation.output);
    const inside = relative(ctx.configDir, outputDir);
    if (!ctx.allowOutsideOutput && (inside === "" || inside.startsWith("..") || isAbsolute(inside))) {
      throw new DiagnosticError([
        {
          code: "PRJ006",
          severity: "error",
          message: `output ${annotation.output} is ${inside === "" ? "the project folder itself" : "outside the project"}; generate replaces that folder whole`,
          help: "point `output` at a folder of its own under the annotation file's folder, or pass --allow-outside-output",
          location: annotation.locate(["output"]),
        },
      ]);
    }
    const spec = await loadSpec(specPath, ctx.display(specPath), { allowRemoteRefs: ctx.allowRemoteRefs });
    const result = await generate({
      annotation,
      spec,
      runtimeTemplate: await readFile(templateUrl, "utf8"),
      prettierOptions: await consumerPrettierConfig(outputDir),
      names: { spec: posix(relative(ctx.configDir, specPath)), annotation: posix(relative(ctx.configDir, ctx.configPath)) },
    });
    report(result.diagnostics);
    if (hasErrors(result.diagnostics) || !result.model) {
      io.stderr.write(`projector: ${result.diagnostics.filter((d) => d.severity === "error").length} problem(s); ${ctx.display(outputDir)} was not touched\n`);
      return EXIT.problems;
    }
    if (!ctx.check) await recoverInterruptedWrite(outputDir);
    const diff = await diffFolder(outputDir, result.files);
    if (ctx.check) {
      if (isClean(diff)) {
        if (!ctx.silent) io.stdout.write(`${ctx.display(outputDir)} is up to date\n`);
        return EXIT.ok;
      }
      const stale = [
        ...diff.changed.map((p) => `  stale    ${ctx.display(resolve(outputDir, p))}`),
        ...diff.added.map((p) => `  missing  ${ctx.display(resolve(outputDir, p))}`),
        ...diff.removed.map((p) => `  extra    ${ctx.display(resolve(outputDir, p))}`),
      ];
      io.stderr.write(`${ctx.display(outputDir)} is out of date with its inputs:\n${stale.join("\n")}\nrun \`projector generate\` and commit the result\n`);
      return EXIT.problems;
    }
    await writeFolder(outputDir, result.files, diff);
    if (!ctx.silent) {
      io.stdout.write(summarize(result.model) + "\n\n");
      const written = diff.changed.length + diff.added.length;
      io.stdout.write(
        `${ctx.display(outputDir)}: ${written} file(s) written, ${result.files.size - written} unchanged${diff.removed.length ? `, ${diff.removed.length} removed` : ""}\n`,
      );
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DiagnosticError) {
      report(error.diagnostics);
      return EXIT.problems;
    }
    throw error;
  }
}
