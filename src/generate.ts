import type { Annotation } from "./annotation/types.js";
import type { Diagnostic } from "./diagnostics.js";
import { hasErrors } from "./diagnostics.js";
import { banner, emitFiles, SOURCE_TYPES_FILE, type InputNames } from "./emit/emit.js";
import { sourceTypes, usedParts } from "./emit/source-types.js";
import type { RuntimeTemplate } from "./emit/runtime-folder.js";
import { formatSession, type FormatSession, type PrettierOptionsInput } from "./format.js";
import { specResults, type GenerateCache, type SpecResults } from "./generate-cache.js";
import { buildModel } from "./model/build.js";
import type { Model } from "./model/types.js";
import { untimed, type Stage } from "./progress.js";
import type { LoadedSpec } from "./openapi/load.js";
import { validateSpec } from "./openapi/validate.js";
import { withinDepth } from "./openapi/too-deep.js";

export interface GenerateInput {
  annotation: Annotation;
  spec: LoadedSpec;
  /** The modules of `templates/runtime/`. */
  runtimeTemplate: RuntimeTemplate;
  /** One set of options for every file, or the consumer's for each file (consumerPrettierConfig); null for prettier's defaults. */
  prettierOptions: PrettierOptionsInput;
  /**
   * The prettier session to format in, which the caller may have asked for files already (the
   * runtime's, before the spec loaded), and closes; without one, generate opens its own.
   */
  formatSession?: FormatSession;
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
  const session = input.formatSession ?? formatSession(input.prettierOptions, input.cache?.formatted);
  try {
    return await generateIn(input, session);
  } finally {
    if (!input.formatSession) session.close();
  }
}

async function generateIn(input: GenerateInput, session: FormatSession): Promise<GenerateOutput> {
  const stage = input.stage ?? untimed;
  const { cache } = input;
  const forSpec = cache ? specResults(cache, input.spec.document) : {};
  const { model, diagnostics } = await stage("check", () => withinDepth(input.spec.file, () => buildModel(input.annotation, input.spec)));
  if (!model || hasErrors(diagnostics)) return { diagnostics, files: new Map() };
  const emitted = await stage("emit", () => emitFiles({ model, names: input.names, runtimeTemplate: input.runtimeTemplate }));
  // Prettier runs in worker threads meanwhile: neither needs the source types.
  const formatting = input.format === false ? Promise.resolve(emitted) : stage("format", () => session.format(emitted));
  await session.started();
  // Schema warnings are computed while other threads are still busy: they cost no wall time.
  const warnings = await stage("validate", () => (forSpec.warnings ??= validateSpec(input.spec)));
  const types = await stage("source types", () => typeSpec(input, model, forSpec)).catch(async (error: unknown) => {
    await formatting.catch(() => undefined);
    throw error;
  });
  diagnostics.unshift(...warnings);
  const files = await formatting;
  // Only what this run used is kept, so the cache never grows past one output.
  if (cache && input.format !== false) cache.formatted = new Map(session.used);
  // The source types stay as openapi-typescript prints them, as its own CLI leaves them: they run
  // to megabytes for real specs, and formatting them would triple the time of a generate.
  files.set(SOURCE_TYPES_FILE, banner(input.names) + types);
  return { diagnostics, model, files: new Map([...files].sort(([a], [b]) => a.localeCompare(b))) };
}

/**
 * Takes the source types from the file an up-to-date output folder holds for this very spec and
 * annotation, so that a watcher started on such a folder answers its first edit without typing the
 * spec again, unless that edit names another operation or schema. A file that does not open with
 * this annotation's banner is left alone.
 */
export function takeSourceTypesFromFile(
  cache: GenerateCache,
  project: { annotation: Annotation; spec: LoadedSpec },
  fileText: string,
  names: InputNames,
): void {
  const head = banner(names);
  if (!fileText.startsWith(head)) return;
  const { model } = buildModel(project.annotation, project.spec);
  if (model)
    specResults(cache, project.spec.document).sourceTypes ??= { used: usedKey(model), types: Promise.resolve(fileText.slice(head.length)) };
}

const usedKey = (model: Model) => JSON.stringify(usedParts(model));

/** The source types of the parts of the spec the model names, from the cache when the same parts were typed before. */
function typeSpec(input: GenerateInput, model: Model, forSpec: SpecResults): Promise<string> {
  const used = usedParts(model);
  const key = JSON.stringify(used);
  if (forSpec.sourceTypes?.used === key) return forSpec.sourceTypes.types;
  const typing = sourceTypes(input.spec.document, input.spec.file, used, (pointer) => input.spec.locate(pointer));
  const entry = { used: key, types: typing };
  forSpec.sourceTypes = entry;
  // A failure is not kept: the next run (`generate --watch`, the spec fixed) types it again.
  typing.catch(() => {
    if (forSpec.sourceTypes === entry) delete forSpec.sourceTypes;
  });
  return typing;
}
