import { relative } from "node:path";
import { hasErrors, type Diagnostic } from "../diagnostics.js";
import { runtimeFiles, SOURCE_TYPES_FILE } from "../emit/emit.js";
import { formatSession } from "../format.js";
import { takeSourceTypesFromFile } from "../generate.js";
import { createGenerateCache, type GenerateCache } from "../generate-cache.js";
import type { Model } from "../model/types.js";
import { loadSpec, type LoadedSpec } from "../openapi/load.js";
import {
  cachePath,
  filesDigest,
  inputsDigest,
  portableInputsDigest,
  readCache,
  readSpecFiles,
  type DigestInputs,
} from "../output/digest.js";
import { formatCacheFile, readFormatCache, writeFormatCache } from "../output/format-cache.js";
import type { LockHolder } from "../output/lock.js";
import { MARKER, withMarker, type FolderRecord } from "../output/ownership.js";
import type { FolderDiff } from "../output/write.js";
import { untimed, type Stage } from "../progress.js";
import { loadsPlugins } from "../prettier-config.js";
import { digestedExtras, readExtras, type GenerateExtras } from "./extras.js";
import { generateProject, prettierProblem } from "./generate.js";
import { posix } from "./display-path.js";
import { compareOutput, filesIfExactly, writeOutput, type FolderCheck } from "./output-folder.js";
import { guardOutput, type OutputPlace } from "./output-guard.js";
import { readProject, type AnnotatedProject, type Project } from "./read.js";
import { loadWouldRead, type RefOptions } from "./up-to-date.js";

// The one generate: load (annotation, spec, templates, prettier config), the generator over them
// (model, check, emit, format, budgets: ./generate.ts), then write the output folder or, for
// --check, compare it. It prints nothing: the CLI and the watcher tell the outcome.

export interface DriverOptions extends RefOptions {
  config: string;
  check: boolean;
  force: boolean;
  allowOutsideOutput: boolean;
}

/** How a run tells what it is doing while it runs. */
export interface DriverEvents {
  stage: Stage;
  /** Another generate holds the output folder's lock; this one waits for it. */
  waiting: (holder: LockHolder | undefined, folder: string) => void;
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

/** What a run came to; `display` names files as messages do. */
export type DriverOutcome = { folder: string; display: (path: string) => string; diagnostics: Diagnostic[] } & (
  | { kind: "up to date" | "problems" }
  | { kind: "checked"; check: FolderCheck }
  | { kind: "written"; model: Model; diff: FolderDiff; fileCount: number }
);

/** One generate of the project the annotation file names. Throws DiagnosticError where an input is refused. */
export async function runGenerate(
  options: DriverOptions,
  cwd: string,
  events: DriverEvents = { stage: untimed, waiting: () => {} },
  hooks?: GenerateHooks,
): Promise<DriverOutcome> {
  const { stage } = events;
  const annotated = await stage("annotation", () => readProject(options, cwd));
  hooks?.read(annotated);
  const { display, outputDir } = annotated;
  const loadTheSpec = () => loadSpec(annotated.specPath, display(annotated.specPath), options);
  const place: OutputPlace = { folder: outputDir, location: () => annotated.annotation.locate(["output"]), display };
  // Before any work, and before any lock file: a folder generate may not replace is refused untouched.
  await guardOutput(place);
  const lastRun = cachePath(annotated.configDir, outputDir);
  const extras = await readExtras(annotated, true);
  const cached = options.check || options.force ? undefined : await readCache(lastRun, cwd);
  const last = cached && loadWouldRead(annotated.specPath, cached.specFiles, options) ? cached : undefined;
  // Read before the spec is loaded, so that an edit made while generate runs leaves the cache entry
  // and the folder's record stale, never falsely fresh.
  const digested = last?.specFiles ?? [annotated.specPath];
  const specFilesRead = await readSpecFiles(digested);
  const { annotationText } = annotated;
  const present = last && (await filesIfExactly(outputDir, last.files));
  const presentExtras = present ? await digestedExtras(extras, outputPaths(present)).catch(prettierProblem(outputDir, display)) : undefined;
  const digest = await stage("digest", async () =>
    // A plugin's code shapes the output unseen by any digest: a run with one is never taken as up to date.
    presentExtras && !loadsPlugins(presentExtras.prettierOptions)
      ? inputsDigest({ annotationText, specFiles: digested, specFilesRead, ...presentExtras })
      : undefined,
  );
  const upToDateFiles = digest !== undefined && digest === last?.inputs ? present : undefined;
  const ended = { folder: outputDir, display };
  if (upToDateFiles) {
    // A watcher still needs the files the spec's $refs reach, which only loading the spec tells.
    if (hooks) {
      const spec = hooks.unchangedSpec?.(annotated.specPath) ?? (await loadTheSpec());
      hooks.read(annotated, spec);
      // The folder's source types, as the files digest just vouched for them, are this spec's only if
      // its files hash as they did for the inputs digest: a spec saved since was loaded as it is now.
      const sourceTypes = upToDateFiles.get(SOURCE_TYPES_FILE)?.toString("utf8");
      const asLoaded = { annotationText, specFiles: spec.files ?? [annotated.specPath], ...presentExtras! };
      if (hooks.cache && sourceTypes !== undefined && (await inputsDigest(asLoaded)) === digest)
        takeSourceTypesFromFile(hooks.cache, { annotation: annotated.annotation, spec }, sourceTypes, annotated.names);
      hooks.foundUpToDate?.({ ...annotated, spec }, extras);
    }
    // The inputs that gave the last run its warnings give them still: this run tells them too.
    return { ...ended, kind: "up to date", diagnostics: last!.warnings };
  }
  // --check formats anew: its verdict on the folder rests on nothing a file outside it could make up.
  const formatCache = options.check ? undefined : formatCacheFile(annotated.configDir, outputDir);
  // --force formats every file anew, trusting no text the cache holds; the cache it writes is fresh.
  const stored = formatCache === undefined ? undefined : options.force ? new Map<string, string>() : await readFormatCache(formatCache);
  const cache = hooks?.cache ?? (stored ? createGenerateCache() : undefined);
  if (cache && stored && cache.formatted.size === 0) cache.formatted = stored;
  const formattedBefore = cache?.formatted;
  const formatting = formatSession(extras.prettierOptions, formattedBefore);
  try {
    // The runtime's modules depend on nothing the spec says: prettier lays them out while it loads.
    formatting.format(runtimeFiles(extras.runtimeTemplate, annotated.names)).catch(() => undefined);
    await formatting.started();
    const spec = hooks?.unchangedSpec?.(annotated.specPath) ?? (await stage("spec", loadTheSpec));
    const specFiles = [...(spec.files ?? [annotated.specPath])].sort();
    hooks?.read(annotated, spec);
    const project = { ...annotated, spec };
    const result = await generateProject(project, {
      format: true,
      budgets: options.check ? "error" : "warning",
      stage,
      extras,
      formatSession: formatting,
      ...(cache ? { cache } : {}),
    });
    const { diagnostics, model } = result;
    if (hasErrors(diagnostics) || !model) return { ...ended, kind: "problems", diagnostics };
    const generatedExtras = await digestedExtras(extras, [...result.files.keys()]);
    const record = await folderRecord(project, { specFiles, specFilesRead, ...generatedExtras }, result.files, diagnostics);
    const files = withMarker(result.files, record);
    if (options.check) return { ...ended, kind: "checked", diagnostics, check: await compareOutput(outputDir, files) };
    const writing = hooks?.write ?? ((work) => work());
    const inputs = await inputsDigest({ annotationText, specFiles, specFilesRead, ...generatedExtras });
    const diff = await writing(async () => {
      const diff = await writeOutput(place, files, {
        digest: inputs,
        specFiles,
        warnings: diagnostics,
        cwd,
        cache: lastRun,
        stage,
        onWait: (holder) => events.waiting(holder, outputDir),
      });
      if (formatCache && cache && !sameKeys(cache.formatted, formattedBefore)) await writeFormatCache(formatCache, cache.formatted);
      return diff;
    });
    return { ...ended, kind: "written", diagnostics, model, diff, fileCount: files.size };
  } finally {
    formatting.close();
  }
}

const sameKeys = (entries: ReadonlyMap<string, string>, before: ReadonlyMap<string, string> | undefined) =>
  entries.size === before?.size && [...entries.keys()].every((key) => before.has(key));

/** The files of an output folder a digest covers the prettier options of: all but the marker. */
const outputPaths = (files: ReadonlyMap<string, unknown>) => [...files.keys()].filter((path) => path !== MARKER);

/**
 * What the folder records of the run that wrote it, for `generate --check` to vouch for it later
 * without generating. None when a tool is over its budget (--check fails on that, so it must
 * generate to say so), when the spec reaches remote documents, which only fetching them hashes,
 * or when prettier loads plugins, whose code no digest covers.
 */
async function folderRecord(
  project: Project,
  inputs: Omit<DigestInputs, "annotationText">,
  files: ReadonlyMap<string, string>,
  diagnostics: readonly Diagnostic[],
): Promise<FolderRecord | undefined> {
  const { specFiles } = inputs;
  if (diagnostics.some((d) => d.code === "PRJ042") || specFiles.some((file) => /^https?:/i.test(file))) return undefined;
  if (loadsPlugins(inputs.prettierOptions)) return undefined;
  return {
    inputs: await portableInputsDigest({ annotationText: project.annotationText, ...inputs }, project.configDir),
    files: filesDigest(files),
    specFiles: specFiles.map((file) => posix(relative(project.configDir, file))),
  };
}
