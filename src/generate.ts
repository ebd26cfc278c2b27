import type * as prettier from "prettier";
import type { Annotation } from "./annotation/types.js";
import type { Diagnostic } from "./diagnostics.js";
import { hasErrors } from "./diagnostics.js";
import { banner, emitFiles, SOURCE_TYPES_FILE, type InputNames } from "./emit/emit.js";
import { sourceTypes } from "./emit/source-types.js";
import type { RuntimeTemplate } from "./emit/runtime-folder.js";
import { formatFiles } from "./format.js";
import { prettierVersion, type PrettierOptionsFor } from "./prettier-config.js";
import { formatKey, specResults, type GenerateCache, type SpecResults } from "./generate-cache.js";
import { buildModel } from "./model/build.js";
import type { Model } from "./model/types.js";
import { untimed, type Stage } from "./progress.js";
import type { LoadedSpec } from "./openapi/load.js";
import { validateSpec } from "./openapi/validate.js";

export interface GenerateInput {
  annotation: Annotation;
  spec: LoadedSpec;
  /** The modules of `templates/runtime/`. */
  runtimeTemplate: RuntimeTemplate;
  /** One set of options for every file, or the consumer's for each file (consumerPrettierConfig); null for prettier's defaults. */
  prettierOptions: prettier.Options | PrettierOptionsFor | null;
  names: InputNames;
  /** Prettier on by default; off when the files are only transpiled and run. */
  format?: boolean;
  /** Times each stage; see Progress. */
  stage?: Stage;
  /** Results of earlier runs in this process to reuse where their inputs are unchanged (generate --watch). */
  cache?: GenerateCache;
}

export interface GenerateOutput {
  diagnostics: Diagnostic[];
  model?: Model;
  /** Path relative to the output folder to file contents; empty when there are errors. */
  files: Map<string, string>;
}

/**
 * The whole generator as a pure function of its inputs: check the annotation against the spec,
 * then emit and format every file. It never touches the disk; the CLI reads and writes.
 */
export async function generate(input: GenerateInput): Promise<GenerateOutput> {
  const stage = input.stage ?? untimed;
  const { cache } = input;
  const forSpec = cache ? specResults(cache, input.spec.document) : {};
  const { model, diagnostics } = await stage("check", () => buildModel(input.annotation, input.spec));
  if (!model || hasErrors(diagnostics)) return { diagnostics, files: new Map() };
  const emitted = await stage("emit", () => emitFiles({ model, names: input.names, runtimeTemplate: input.runtimeTemplate }));
  // Prettier runs in worker threads meanwhile: neither needs the source types.
  const formatting =
    input.format === false
      ? Promise.resolve(emitted)
      : stage("format", async () => formatChanged(emitted, await optionsByFile(input.prettierOptions, [...emitted.keys()]), cache));
  // Schema warnings are computed while other threads are still busy: they cost no wall time.
  const warnings = await stage("validate", () => (forSpec.warnings ??= validateSpec(input.spec)));
  const types = await stage("source types", () => typeSpec(input, forSpec)).catch(async (error: unknown) => {
    await formatting.catch(() => undefined);
    throw error;
  });
  diagnostics.unshift(...warnings);
  const files = await formatting;
  // The source types stay as openapi-typescript prints them, as its own CLI leaves them: they run
  // to megabytes for real specs, and formatting them would triple the time of a generate.
  files.set(SOURCE_TYPES_FILE, banner(input.names) + types);
  return { diagnostics, model, files: new Map([...files].sort(([a], [b]) => a.localeCompare(b))) };
}

/**
 * Takes the source types from the file an up-to-date output folder holds for this very spec, so
 * that a watcher started on such a folder answers its first edit without typing the spec again.
 * A file that does not open with this annotation's banner is left alone.
 */
export function takeSourceTypesFromFile(cache: GenerateCache, document: object, fileText: string, names: InputNames): void {
  const head = banner(names);
  if (fileText.startsWith(head)) specResults(cache, document).sourceTypes ??= Promise.resolve(fileText.slice(head.length));
}

/** The spec's source types, from the cache when this document was typed before. */
function typeSpec(input: GenerateInput, forSpec: SpecResults): Promise<string> {
  if (forSpec.sourceTypes) return forSpec.sourceTypes;
  const typing = sourceTypes(input.spec.document, input.spec.file);
  forSpec.sourceTypes = typing;
  // A failure is not kept: the next run (`generate --watch`, the spec fixed) types it again.
  typing.catch(() => {
    if (forSpec.sourceTypes === typing) delete forSpec.sourceTypes;
  });
  return typing;
}

/** Each file's prettier options, from one set for all or the consumer's for each. */
async function optionsByFile(
  options: GenerateInput["prettierOptions"],
  paths: readonly string[],
): Promise<(path: string) => prettier.Options | null> {
  if (typeof options !== "function") return () => options;
  const byFile = await options(paths);
  return (path) => byFile?.[path] ?? null;
}

/**
 * Formats the files, taking from the cache every text it formatted before and keeping only what this
 * run used. A file whose options load prettier plugins is always formatted anew and never kept: no
 * key covers a plugin's code.
 */
async function formatChanged(
  files: Map<string, string>,
  optionsOf: (path: string) => prettier.Options | null,
  cache: GenerateCache | undefined,
): Promise<Map<string, string>> {
  if (!cache) return formatFiles(files, optionsOf);
  const release = prettierVersion();
  const keys = new Map(
    [...files].flatMap(([path, text]) => {
      const options = optionsOf(path);
      return options?.plugins?.length ? [] : [[path, formatKey(release, options, text)] as const];
    }),
  );
  const known = (path: string) => cache.formatted.get(keys.get(path) ?? "");
  const todo = new Map([...files].filter(([path]) => known(path) === undefined));
  const fresh = todo.size > 0 ? await formatFiles(todo, optionsOf) : new Map<string, string>();
  const formatted = new Map([...files.keys()].map((path) => [path, fresh.get(path) ?? known(path)!]));
  cache.formatted = new Map([...keys].map(([path, key]) => [key, formatted.get(path)!]));
  return formatted;
}
