import type { LockHolder } from "../output/lock.js";
import { displayPath } from "../project/display-path.js";
import { runGenerate as drive, type DriverOptions, type GenerateHooks } from "../project/driver.js";
import { commandProgress } from "../progress.js";
import { summarize } from "../summary.js";
import { EXIT, type Io } from "./io.js";
import { printDiagnostics } from "./print.js";
import { upToDate } from "./up-to-date.js";
import { tellCheck } from "./tell-check.js";

export const GENERATE_HELP = `Usage: projector generate [-c projector.yaml] [--check | --watch]

Reads the annotation file and the OpenAPI document it names, checks that every field the spec
declares is classified, and writes the output folder: typed projectors, resolver types, tool result
types and JSON Schemas. The folder is replaced as a whole, and only when it is new, empty or
written by generate (marked by its .projector file); identical files are not rewritten. Two
generates of one folder take turns: the second waits up to PROJECTOR_LOCK_TIMEOUT seconds (60).

Options:
  -c, --config FILE         annotation file (default ./projector.yaml)
      --check               write nothing; exit 1 if the folder is stale or a field is unclassified
                            (vouched for by the record in its .projector when nothing changed)
      --watch               generate, then again whenever the annotation, the spec, a file its
                            $refs reach or the prettier config changes; Ctrl-C stops
      --silent              print only problems
      --verbose             print every stage and its time (on a terminal, shown anyway past one second)
      --force               regenerate even when no input changed since the last generate;
                            with --check, generate and compare even when the record vouches
      --allow-remote-refs   let the spec's $refs fetch http(s) documents (off: no network access)
      --allow-outside-refs  let the spec's $refs read files outside the spec's folder
      --allow-outside-output  let \`output\` point outside the annotation file's folder
  -h, --help                this text

Exit codes: 0 ok, 1 problems in the inputs or stale output, 2 bad usage, 3 internal error (a bug
in projector; PROJECTOR_DEBUG=1 prints its stack). With --watch, problems are printed and watching
goes on; Ctrl-C exits 0.
`;

export interface GenerateOptions extends DriverOptions {
  silent: boolean;
  verbose: boolean;
}

/** One generate, told on the console; its exit code. */
export async function runGenerate(options: GenerateOptions, io: Io, hooks?: GenerateHooks): Promise<number> {
  const progress = commandProgress(options, io.stderr);
  const waiting = (holder: LockHolder | undefined, folder: string) => {
    if (!options.silent)
      io.stderr.write(
        `projector: waiting for another generate${holder ? ` (process ${holder.pid})` : ""} to finish writing ${displayPath(io.cwd, folder)}\n`,
      );
  };
  const outcome = await drive(options, io.cwd, { stage: progress.stage, waiting }, hooks);
  const { display, folder } = outcome;
  printDiagnostics(io, outcome.diagnostics);
  if (outcome.kind !== "problems") progress.finish();
  switch (outcome.kind) {
    case "up to date":
      if (!options.silent) io.stdout.write(upToDate(display(folder)));
      return EXIT.ok;
    case "problems": {
      const errors = outcome.diagnostics.filter((d) => d.severity === "error");
      // A tool over its budget (an error only for --check) is found once the files are made: the inputs themselves passed.
      if (errors.some((d) => d.code !== "PRJ042"))
        io.stderr.write(`projector: ${errors.length} problem(s); ${display(folder)} was not touched\n`);
      return EXIT.problems;
    }
    case "checked":
      return tellCheck(outcome.check, display, folder, options, io) ? EXIT.ok : EXIT.problems;
    case "written": {
      if (!options.silent) {
        io.stdout.write(`${summarize(outcome.model)}\n\n`);
        const { diff, fileCount } = outcome;
        const written = diff.changed.length + diff.added.length;
        io.stdout.write(
          `${display(folder)}: ${written} file(s) written, ${fileCount - written} unchanged${diff.removed.length ? `, ${diff.removed.length} removed` : ""}\n`,
        );
      }
      return EXIT.ok;
    }
  }
}
