import { hasErrors } from "../diagnostics.js";
import { SOURCE_TYPES_FILE } from "../emit/emit.js";
import { takeSourceTypesFromFile } from "../generate.js";
import { withMarker } from "../output/ownership.js";
import { checkBudgets } from "../evidence/budget-check.js";
import { cachePath, inputsDigest, readCache, type SpecFilesRead } from "../output/digest.js";
import { typesKnown, type GenerateCache } from "../generate-cache.js";
import { commandProgress } from "../progress.js";
import { loadSpec, type LoadedSpec } from "../openapi/load.js";
import type { SourceTypesThreads, TypeSpec } from "../openapi/source-types-thread.js";
import { checkOutput, filesIfExactly, writeOutput } from "./output-folder.js";
import { guardOutput, type OutputPlace } from "./output-guard.js";
import { readExtras, type GenerateExtras } from "../project/extras.js";
import { generateProject } from "../project/generate.js";
import { readProject, type AnnotatedProject, type Project } from "../project/read.js";
import { loadSpecAhead } from "../project/spec-ahead.js";
import { upToDate } from "./up-to-date.js";
import { printDiagnostics } from "./print.js";
import { summarize } from "../summary.js";
import { EXIT, type Io } from "./io.js";

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
      --allow-outside-refs  let the spec's $refs read files outside the spec's folder
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
  allowOutsideRefs: boolean;
  allowOutsideOutput: boolean;
}

/** How --watch follows a run: which files it read, and when it swaps the output folder. */
export interface GenerateHooks {
  /** Called once the annotation is read, and again with the spec once it is loaded. */
  read: (project: AnnotatedProject, spec?: LoadedSpec) => void;
  /** Wraps every write to the output folder and the cache, so a stopping watcher can wait for it to end. */
  write: <T>(work: () => Promise<T>) => Promise<T>;
  /** The spec as last loaded, when none of its files changed since: a watcher does not parse it again. */
  unchangedSpec?: (specPath: string) => LoadedSpec | undefined;
  /** Results of earlier runs to reuse where their inputs are unchanged. */
  cache?: GenerateCache;
  /** Called when the output folder was found up to date with the project, which a watcher may prepare its next run from. */
  foundUpToDate?: (project: Project, extras: GenerateExtras) => void;
}

/** One generate; `threads`, when given, type the spec in a worker thread, and are all ended when it returns. */
export async function runGenerate(options: GenerateOptions, io: Io, hooks?: GenerateHooks, threads?: SourceTypesThreads): Promise<number> {
  try {
    return await generateOnce(options, io, hooks, threads);
  } finally {
    await threads?.close();
  }
}

async function generateOnce(options: GenerateOptions, io: Io, hooks?: GenerateHooks, threads?: SourceTypesThreads): Promise<number> {
  const progress = commandProgress(options, io.stderr);
  // With work to do, openapi-typescript's thread loads while the annotation and the spec are read.
  // A watcher's run starts it later, once it knows there is work and a spec to type (below).
  if (!hooks) threads?.prestart();
  const loadOptions = { allowRemoteRefs: options.allowRemoteRefs, allowOutsideRefs: options.allowOutsideRefs };
  // A watcher knows which spec it loaded last, and so loads only a changed one, after the annotation.
  const early = hooks
    ? undefined
    : await loadSpecAhead(
        { config: options.config, readsCache: !options.check && !options.force, load: loadOptions, stage: progress.stage },
        io.cwd,
        threads,
      );
  const annotated = await progress.stage("annotation", () => readProject(options, io.cwd));
  hooks?.read(annotated);
  const ahead = early?.specPath === annotated.specPath ? early : undefined;
  const { display, outputDir } = annotated;
  const place: OutputPlace = { folder: outputDir, location: () => annotated.annotation.locate(["output"]), display };
  // Before any work, and before any lock file: a folder generate may not replace is refused untouched.
  await guardOutput(place);
  const cache = cachePath(annotated.configDir, outputDir);
  const extras = await readExtras(annotated, true);
  const digestOf = (specFiles: readonly string[], specFilesRead?: SpecFilesRead) =>
    inputsDigest({ annotationText: annotated.annotationText, specFiles, ...(specFilesRead ? { specFilesRead } : {}), ...extras });
  const last = options.check || options.force ? undefined : await readCache(cache);
  // Hashed as read before the spec is loaded, so an edit made while generate runs leaves the cache stale, never falsely fresh.
  const digested = last?.specFiles ?? [annotated.specPath];
  const digest = await progress.stage("digest", () => digestOf(digested, last ? undefined : ahead?.read));
  const upToDateFiles = last && last.inputs === digest ? await filesIfExactly(outputDir, last.files) : undefined;
  if (upToDateFiles) {
    // A watcher still needs the files the spec's $refs reach, which only loading the spec tells.
    if (hooks) {
      const spec =
        hooks.unchangedSpec?.(annotated.specPath) ?? (await loadSpec(annotated.specPath, display(annotated.specPath), loadOptions));
      hooks.read(annotated, spec);
      // The folder's source types, as the files digest just vouched for them, are this spec's only if
      // its files hash as they did for the inputs digest: a spec saved since was loaded as it is now.
      const sourceTypes = upToDateFiles.get(SOURCE_TYPES_FILE)?.toString("utf8");
      if (hooks.cache && sourceTypes !== undefined && (await digestOf([...(spec.files ?? [annotated.specPath])])) === digest)
        takeSourceTypesFromFile(hooks.cache, spec.document, sourceTypes, annotated.names);
      hooks.foundUpToDate?.({ ...annotated, spec }, extras);
    }
    progress.finish();
    if (!options.silent) io.stdout.write(upToDate(display(outputDir)));
    return EXIT.ok;
  }
  const reused = hooks?.unchangedSpec?.(annotated.specPath);
  // A watcher's spec typed before needs no thread: loading openapi-typescript would take a core for nothing.
  if (hooks && (reused === undefined || !typesKnown(hooks.cache, reused.document))) threads?.prestart();
  const spec =
    reused ?? (await (ahead?.spec ?? progress.stage("spec", () => loadSpec(annotated.specPath, display(annotated.specPath), loadOptions))));
  const specFiles = [...(spec.files ?? [annotated.specPath])].sort();
  const sameFiles = specFiles.join("\0") === [...digested].sort().join("\0");
  hooks?.read(annotated, spec);
  const project = { ...annotated, spec };
  const result = await generateProject(project, {
    format: true,
    stage: progress.stage,
    extras,
    ...(hooks?.cache ? { cache: hooks.cache } : {}),
    ...(ahead?.types ? { sourceTypes: typedAhead(ahead.types) } : threads ? { sourceTypes: threads.type } : {}),
  });
  printDiagnostics(io, result.diagnostics);
  if (hasErrors(result.diagnostics) || !result.model) {
    io.stderr.write(
      `projector: ${result.diagnostics.filter((d) => d.severity === "error").length} problem(s); ${display(outputDir)} was not touched\n`,
    );
    return EXIT.problems;
  }
  const model = result.model;
  const budgets = await progress.stage("budgets", () =>
    checkBudgets(model, result.files, project.annotation, options.check ? "error" : "warning"),
  );
  printDiagnostics(io, budgets);
  if (hasErrors(budgets)) return EXIT.problems;
  const files = withMarker(result.files);
  if (options.check) {
    progress.finish();
    return (await checkOutput(place, files, options, io)) ? EXIT.ok : EXIT.problems;
  }
  const writing = hooks?.write ?? ((work) => work());
  const inputs = sameFiles ? digest : await digestOf(specFiles);
  const diff = await writing(() => writeOutput(place, files, { digest: inputs, specFiles, cache, progress, silent: options.silent, io }));
  progress.finish();
  if (!options.silent) {
    io.stdout.write(`${summarize(model)}\n\n`);
    const written = diff.changed.length + diff.added.length;
    io.stdout.write(
      `${display(outputDir)}: ${written} file(s) written, ${files.size - written} unchanged${diff.removed.length ? `, ${diff.removed.length} removed` : ""}\n`,
    );
  }
  return EXIT.ok;
}

/** The types a worker thread was asked for when the spec was loaded ahead: that spec is the one generate types. */
const typedAhead =
  (types: Promise<string>): TypeSpec =>
  () =>
    types;
