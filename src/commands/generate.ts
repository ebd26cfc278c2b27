import { resolve } from "node:path";
import { hasErrors } from "../diagnostics.js";
import { entryKind, readFolder } from "../output/listing.js";
import { LockBusyError, withFolderLock, type LockHolder } from "../output/lock.js";
import { withMarker } from "../output/ownership.js";
import { backupFolder, diffFolder, isClean, recoverInterruptedWrite, writeFolder, type FolderDiff } from "../output/write.js";
import { checkBudgets } from "../evidence/budget-check.js";
import { cachePath, filesDigest, inputsDigest, readCache, writeCache } from "../output/digest.js";
import { Progress } from "../progress.js";
import { loadSpec, type LoadedSpec } from "../spec/load.js";
import { guardOutput, isSystemError, lockRefusal, writeRefusal, type OutputPlace } from "./output-guard.js";
import { generateProject, printDiagnostics, readExtras, readProject, type AnnotatedProject } from "./project.js";
import { summarize } from "../summary.js";
import { EXIT, type Io } from "./run.js";

export const GENERATE_HELP = `Usage: projector generate [-c projector.yaml] [--check | --watch]

Reads the annotation file and the OpenAPI document it names, checks that every field the spec
declares is classified, and writes the output folder: typed projectors, resolver types, tool result
types and JSON Schemas. The folder is replaced as a whole, and only when it is new, empty or
written by generate (marked by its .projector file); identical files are not rewritten. Two
generates of one folder take turns: the second waits up to PROJECTOR_LOCK_TIMEOUT seconds (60).

Options:
  -c, --config FILE         annotation file (default ./projector.yaml)
      --check               write nothing; exit 1 if the folder is stale or a field is unclassified
      --watch               generate, then again whenever the annotation, the spec, a file its
                            $refs reach or the prettier config changes; Ctrl-C stops
      --silent              print only problems
      --verbose             print every stage and its time (on a terminal, shown anyway past one second)
      --force               regenerate even when no input changed since the last generate
      --allow-remote-refs   let the spec's $refs fetch http(s) documents (off: no network access)
      --allow-outside-output  let \`output\` point outside the annotation file's folder
  -h, --help                this text

Exit codes: 0 ok, 1 problems in the inputs or stale output, 2 bad usage, 3 internal error (a bug
in projector; PROJECTOR_DEBUG=1 prints its stack). With --watch, problems are printed and watching
goes on; Ctrl-C exits 0.
`;

export interface GenerateOptions {
  config: string;
  check: boolean;
  silent: boolean;
  verbose: boolean;
  force: boolean;
  allowRemoteRefs: boolean;
  allowOutsideOutput: boolean;
}

/** How --watch follows a run: which files it read, and when it swaps the output folder. */
export interface GenerateHooks {
  /** Called once the annotation is read, and again with the spec once it is loaded. */
  read: (project: AnnotatedProject, spec?: LoadedSpec) => void;
  /** Wraps every write to the output folder and the cache, so a stopping watcher can wait for it to end. */
  write: <T>(work: () => Promise<T>) => Promise<T>;
}

export async function runGenerate(options: GenerateOptions, io: Io, hooks?: GenerateHooks): Promise<number> {
  const progress = new Progress((text) => io.stderr.write(text), options.silent ? "silent" : options.verbose ? "verbose" : "normal", io.stderr.isTTY === true);
  const annotated = await progress.stage("annotation", () => readProject(options, io.cwd));
  hooks?.read(annotated);
  const { display, outputDir } = annotated;
  const place: OutputPlace = { folder: outputDir, location: annotated.annotation.locate(["output"]), display };
  // Before any work, and before any lock file: a folder generate may not replace is refused untouched.
  await guardOutput(place);
  const cache = cachePath(annotated.configDir, outputDir);
  const extras = await readExtras(annotated, true);
  const digest = await progress.stage("digest", () =>
    inputsDigest({
      annotationText: annotated.annotationText,
      specPath: annotated.specPath,
      ...extras,
    }),
  );
  if (!options.check && !options.force) {
    const last = await readCache(cache);
    if (last?.inputs === digest && (await holdsOnly(outputDir, last.files))) {
      // A watcher still needs the files the spec's $refs reach, which only loading the spec tells.
      if (hooks) hooks.read(annotated, await loadSpec(annotated.specPath, display(annotated.specPath), { allowRemoteRefs: options.allowRemoteRefs }));
      progress.finish();
      if (!options.silent) io.stdout.write(`${display(outputDir)}: up to date, inputs unchanged since the last generate (--force regenerates)\n`);
      return EXIT.ok;
    }
  }
  const spec = await progress.stage("spec", () => loadSpec(annotated.specPath, display(annotated.specPath), { allowRemoteRefs: options.allowRemoteRefs }));
  hooks?.read(annotated, spec);
  const project = { ...annotated, spec };
  const result = await generateProject(project, { format: true, stage: progress.stage, extras });
  printDiagnostics(io, result.diagnostics);
  if (hasErrors(result.diagnostics) || !result.model) {
    io.stderr.write(`projector: ${result.diagnostics.filter((d) => d.severity === "error").length} problem(s); ${display(outputDir)} was not touched\n`);
    return EXIT.problems;
  }
  const model = result.model;
  const budgets = await progress.stage("budgets", () => checkBudgets(model, result.files, project.annotation, options.check ? "error" : "warning"));
  printDiagnostics(io, budgets);
  if (hasErrors(budgets)) return EXIT.problems;
  const files = withMarker(result.files);
  if (options.check) {
    progress.finish();
    return checkOutput(place, files, options, io);
  }
  const writing = hooks?.write ?? ((work) => work());
  const diff = await writing(() => writeOutput(place, files, { digest, cache, progress, silent: options.silent, io }));
  progress.finish();
  if (!options.silent) {
    io.stdout.write(summarize(model) + "\n\n");
    const written = diff.changed.length + diff.added.length;
    io.stdout.write(
      `${display(outputDir)}: ${written} file(s) written, ${files.size - written} unchanged${diff.removed.length ? `, ${diff.removed.length} removed` : ""}\n`,
    );
  }
  return EXIT.ok;
}

/** Whether the folder holds exactly the files of the digest and nothing else; a folder another run is swapping does not. */
async function holdsOnly(folder: string, digest: string): Promise<boolean> {
  try {
    const existing = await readFolder(folder);
    return existing.strays.length === 0 && filesDigest(existing.files) === digest;
  } catch {
    return false;
  }
}

const commandLine = (options: GenerateOptions) => (options.config === "projector.yaml" ? "projector generate" : `projector generate -c ${options.config}`);

/** --check: compares the folder with the files generate would write; reads only. */
async function checkOutput(place: OutputPlace, files: ReadonlyMap<string, string>, options: GenerateOptions, io: Io): Promise<number> {
  const { folder, display } = place;
  if ((await entryKind(folder)) === "absent" && (await entryKind(backupFolder(folder))) === "folder") {
    // Between the two renames of a write the folder is gone; whatever the backup holds, the folder the build reads is not there.
    io.stderr.write(
      `${display(folder)} is not there: a generate was cut off while swapping it and left the previous output in ${display(backupFolder(folder))}\n` +
        `run \`${commandLine(options)}\` to put it back and bring it up to date\n`,
    );
    return EXIT.problems;
  }
  const diff = diffFolder(await readFolder(folder), files);
  if (isClean(diff)) {
    if (!options.silent) io.stdout.write(`${display(folder)} is up to date\n`);
    return EXIT.ok;
  }
  const stale = [
    ...diff.changed.map((p) => `  stale    ${display(resolve(folder, p))}`),
    ...diff.added.map((p) => `  missing  ${display(resolve(folder, p))}`),
    ...diff.removed.map((p) => `  extra    ${display(resolve(folder, p))}`),
  ];
  io.stderr.write(`${display(folder)} is out of date with its inputs:\n${stale.join("\n")}\nrun \`${commandLine(options)}\` and commit the result\n`);
  return EXIT.problems;
}

/** How long a generate waits for another one writing the same folder: PROJECTOR_LOCK_TIMEOUT seconds, 60 by default. */
function lockWaitMs(): number {
  const seconds = Number(process.env["PROJECTOR_LOCK_TIMEOUT"] ?? "60");
  return (Number.isFinite(seconds) && seconds >= 0 ? seconds : 60) * 1000;
}

interface WriteContext {
  digest: string;
  cache: string | undefined;
  progress: Progress;
  silent: boolean;
  io: Io;
}

/**
 * Replaces the output folder, holding its lock so that two generates never build or swap it at
 * once. The folder is checked again under the lock: the run that held it may have changed it.
 */
async function writeOutput(place: OutputPlace, files: ReadonlyMap<string, string>, context: WriteContext): Promise<FolderDiff> {
  const { folder, display } = place;
  const onWait = (holder: LockHolder | undefined) => {
    if (!context.silent) context.io.stderr.write(`projector: waiting for another generate${holder ? ` (process ${holder.pid})` : ""} to finish writing ${display(folder)}\n`);
  };
  try {
    return await withFolderLock(folder, { waitMs: lockWaitMs(), onWait }, async () => {
      await guardOutput(place);
      await recoverInterruptedWrite(folder);
      const diff = diffFolder(await readFolder(folder), files);
      await context.progress.stage("write", () => writeFolder(folder, files, diff));
      await writeCache(context.cache, { inputs: context.digest, files: filesDigest(files) });
      return diff;
    });
  } catch (error) {
    if (error instanceof LockBusyError) throw lockRefusal(place, error);
    if (isSystemError(error)) throw writeRefusal(place, error);
    throw error;
  }
}
