import { DiagnosticError, hasErrors, sortDiagnostics, type Diagnostic } from "../diagnostics.js";
import { checkBudgets } from "../evidence/budget-check.js";
import { prettierConfigProblem, type FormatSession } from "../format.js";
import * as core from "../generate.js";
import type { GenerateInput, GenerateOutput } from "../generate.js";
import type { GenerateCache } from "../generate-cache.js";
import { untimed, type Stage } from "../progress.js";
import { readExtras, type GenerateExtras } from "./extras.js";
import type { Project } from "./read.js";

/**
 * The generator over loaded inputs, as every caller runs it (the library, the CLI, `--watch`): the
 * model and its check, emit and format (`src/generate.ts`), then the budget check, which runs the
 * emitted projectors over the spec's examples (PRJ042, a warning here, an error for --check).
 */
export async function generate(input: GenerateInput, budgets: Diagnostic["severity"] = "warning"): Promise<GenerateOutput> {
  const output = await core.generate(input);
  const { model } = output;
  // In the order the CLI prints them: by file, line and column.
  if (!model || hasErrors(output.diagnostics)) return { ...output, diagnostics: sortDiagnostics(output.diagnostics) };
  const stage = input.stage ?? untimed;
  const overBudget = await stage("budgets", () => checkBudgets(model, output.files, input.annotation, budgets));
  const diagnostics = sortDiagnostics([...output.diagnostics, ...overBudget]);
  // A tool over its budget as an error leaves no files, as any other error does.
  return hasErrors(overBudget) ? { ...output, diagnostics, files: new Map() } : { ...output, diagnostics };
}

/**
 * Runs the generator over a loaded project; `format: false` skips prettier when the files are only
 * executed, and the budget check runs only when `budgets` says how to report a tool over budget.
 */
export async function generateProject(
  project: Project,
  options: {
    format: boolean;
    budgets?: Diagnostic["severity"];
    stage?: Stage;
    extras?: GenerateExtras;
    cache?: GenerateCache;
    formatSession?: FormatSession;
  },
): Promise<GenerateOutput> {
  const extras = options.extras ?? (await readExtras(project, options.format));
  const input: GenerateInput = {
    annotation: project.annotation,
    spec: project.spec,
    runtimeTemplate: extras.runtimeTemplate,
    prettierOptions: extras.prettierOptions,
    names: project.names,
    format: options.format,
    ...(options.stage ? { stage: options.stage } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.formatSession ? { formatSession: options.formatSession } : {}),
  };
  const generated = options.budgets === undefined ? core.generate(input) : generate(input, options.budgets);
  return generated.catch(prettierProblem(project.outputDir, project.display));
}

/** A failure of the consumer's prettier config as the problem with the inputs it is; anything else as it was. */
export const prettierProblem =
  (outputFolder: string, display: (path: string) => string) =>
  async (error: unknown): Promise<never> => {
    const problem = await prettierConfigProblem(error, outputFolder, display);
    throw problem ? new DiagnosticError([problem]) : error;
  };
