import type * as prettier from "prettier";
import type { Annotation } from "./annotation/types.js";
import type { Diagnostic } from "./diagnostics.js";
import { hasErrors } from "./diagnostics.js";
import { banner, emitFiles, SOURCE_TYPES_FILE, sourceTypes, type InputNames } from "./emit/emit.js";
import { formatFiles } from "./format.js";
import { buildModel } from "./model/build.js";
import type { Model } from "./model/types.js";
import { untimed, type Stage } from "./progress.js";
import type { LoadedSpec } from "./spec/load.js";
import { validateSpec } from "./spec/validate.js";

export interface GenerateInput {
  annotation: Annotation;
  spec: LoadedSpec;
  /** The text of `templates/runtime.ts`. */
  runtimeTemplate: string;
  prettierOptions: prettier.Options | null;
  names: InputNames;
  /** Prettier on by default; off when the files are only transpiled and run. */
  format?: boolean;
  /** Times each stage; see Progress. */
  stage?: Stage;
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
  const { model, diagnostics } = await stage("check", () => buildModel(input.annotation, input.spec));
  if (!model || hasErrors(diagnostics)) return { diagnostics, files: new Map() };
  const emitted = await stage("emit", () => emitFiles({ model, names: input.names, runtimeTemplate: input.runtimeTemplate }));
  // Prettier runs in worker threads while openapi-typescript runs here: neither needs the other.
  const formatting = input.format === false ? Promise.resolve(emitted) : stage("format", () => formatFiles(emitted, input.prettierOptions));
  const types = await stage("source types", () => sourceTypes(input.spec.document, input.spec.file)).catch(async (error: unknown) => {
    await formatting.catch(() => undefined);
    throw error;
  });
  // Schema warnings are computed while the formatting worker is still busy: they cost no wall time.
  diagnostics.unshift(...(await stage("validate", () => validateSpec(input.spec))));
  const files = await formatting;
  // The source types stay as openapi-typescript prints them, as its own CLI leaves them: they run
  // to megabytes for real specs, and formatting them would triple the time of a generate.
  files.set(SOURCE_TYPES_FILE, banner(input.names) + types);
  return { diagnostics, model, files: new Map([...files].sort(([a], [b]) => a.localeCompare(b))) };
}
