import type * as prettier from "prettier";
import type { Annotation } from "./annotation/types.js";
import type { Diagnostic } from "./diagnostics.js";
import { hasErrors } from "./diagnostics.js";
import { emitFiles, type InputNames } from "./emit/emit.js";
import { formatFiles } from "./format.js";
import { buildModel } from "./model/build.js";
import type { Model } from "./model/types.js";
import type { LoadedSpec } from "./spec/load.js";

export interface GenerateInput {
  annotation: Annotation;
  spec: LoadedSpec;
  /** The text of `templates/runtime.ts`. */
  runtimeTemplate: string;
  prettierOptions: prettier.Options | null;
  names: InputNames;
  /** Prettier on by default; off when the files are only transpiled and run. */
  format?: boolean;
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
  const { model, diagnostics } = buildModel(input.annotation, input.spec);
  if (!model || hasErrors(diagnostics)) return { diagnostics, files: new Map() };
  const emitted = await emitFiles({ model, names: input.names, document: input.spec.document, runtimeTemplate: input.runtimeTemplate, specFile: input.spec.file });
  const files = input.format === false ? emitted : await formatFiles(emitted, input.prettierOptions);
  return { diagnostics, model, files };
}
