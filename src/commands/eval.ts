import { readFile } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { DiagnosticError, refusal, hasErrors, type Diagnostic } from "../diagnostics.js";
import { evaluate, formatEvaluation, type Question } from "../evidence/eval.js";
import { didYouMean } from "../suggest.js";
import { parseYamlSource } from "../yaml-source.js";
import { generateProject } from "../project/generate.js";
import { loadProject } from "../project/read.js";
import { printDiagnostics } from "./print.js";
import { EXIT, type Io } from "./io.js";

export const EVAL_HELP = `Usage: projector eval QUESTIONS.yaml [-c projector.yaml] [--json]

For each question the agent is asked, says whether the projection carries the source fields it
needs, and for each one it lacks, whether the annotation dropped it (and why) or the spec never had
it. Exit 1 when any question cannot be answered.

QUESTIONS.yaml:
  config: projector.yaml          # optional, relative to this file; -c overrides it
  questions:
    - ask: Which tickets are about to breach their SLA?
      tool: search_tickets
      needs: [sla_due_at, status_code]   # source fields, as the annotation names them

Options:
  -c, --config FILE   annotation file (default: the questions file's config, else ./projector.yaml)
      --json          print the results as JSON
  -h, --help          this text
`;

export interface EvalOptions {
  questions: string;
  config?: string;
  json: boolean;
}

interface QuestionsFile {
  config?: string;
  questions: (Question & { index: number })[];
  locate(path: (string | number)[]): Diagnostic["location"];
}

function parseQuestions(text: string, file: string): QuestionsFile {
  const source = parseYamlSource(text, file);
  const problems: Diagnostic[] = source.errors.map((e) => ({
    code: "PRJ043",
    severity: "error",
    message: `YAML syntax: ${e.message}`,
    help: "fix the syntax at this position",
    location: { file, line: e.line, column: e.column },
  }));
  if (problems.length) throw new DiagnosticError(problems);
  const root = source.document.toJS() as { config?: unknown; questions?: unknown } | null;
  const problem = (path: (string | number)[], message: string, help: string) =>
    problems.push({ code: "PRJ043", severity: "error", message, help, location: source.locate(path) });
  const questions: QuestionsFile["questions"] = [];
  if (!root || typeof root !== "object" || !Array.isArray(root.questions)) {
    problem([], "the questions file needs a `questions:` list", "see `projector eval --help` for the format");
  } else {
    root.questions.forEach((entry: unknown, index: number) => {
      const q = entry as { ask?: unknown; tool?: unknown; needs?: unknown } | null;
      if (typeof q?.ask === "string" && typeof q.tool === "string" && Array.isArray(q.needs) && q.needs.every((n) => typeof n === "string"))
        questions.push({ ask: q.ask, tool: q.tool, needs: q.needs as string[], index });
      else
        problem(
          ["questions", index],
          "each question needs `ask` (text), `tool` (a tool name) and `needs` (a list of source field names)",
          "see `projector eval --help` for the format",
        );
    });
  }
  if (problems.length) throw new DiagnosticError(problems);
  return { ...(typeof root?.config === "string" ? { config: root.config } : {}), questions, locate: (path) => source.locate(path) };
}

export async function runEval(options: EvalOptions, io: Io): Promise<number> {
  const questionsPath = resolve(io.cwd, options.questions);
  const display = relative(io.cwd, questionsPath).split(sep).join("/");
  let text: string;
  try {
    text = await readFile(questionsPath, "utf8");
  } catch {
    throw refusal("PRJ040", "cannot read the questions file", "pass the path of a questions YAML file", { file: display });
  }
  const parsed = parseQuestions(text, display);
  const config =
    options.config !== undefined
      ? resolve(io.cwd, options.config)
      : parsed.config !== undefined
        ? resolve(dirname(questionsPath), parsed.config)
        : resolve(io.cwd, "projector.yaml");
  const project = await loadProject({ config }, io.cwd);
  const generated = await generateProject(project, { format: false });
  printDiagnostics(io, generated.diagnostics);
  if (hasErrors(generated.diagnostics) || !generated.model) return EXIT.problems;
  const tools = generated.model.tools.map((t) => t.name);
  const unknown = parsed.questions.filter((q) => !tools.includes(q.tool));
  if (unknown.length)
    throw new DiagnosticError(
      unknown.map((q) => ({
        code: "PRJ043",
        severity: "error",
        message: `question "${q.ask}" names tool "${q.tool}", which the annotation does not declare${didYouMean(q.tool, tools)}`,
        help: `tools: ${tools.join(", ")}`,
        location: parsed.locate(["questions", q.index, "tool"]),
      })),
    );
  const results = evaluate(generated.model, parsed.questions);
  io.stdout.write(options.json ? `${JSON.stringify(results, null, 2)}\n` : formatEvaluation(results));
  return results.every((r) => r.answerable) ? EXIT.ok : EXIT.problems;
}
