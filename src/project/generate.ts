import { consumerPrettierConfig, prettierVersion } from "../format.js";
import { generate, type GenerateOutput } from "../generate.js";
import type { GenerateCache } from "../generate-cache.js";
import type { RuntimeTemplate } from "../emit/runtime-folder.js";
import type { TypeSpec } from "../openapi/source-types-thread.js";
import type { Stage } from "../progress.js";
import { readRuntimeTemplate, type AnnotatedProject, type Project } from "./read.js";

/** What a generate reads besides the spec and annotation; read once, shared by the digest and the run. */
export interface GenerateExtras {
  runtimeTemplate: RuntimeTemplate;
  prettierOptions: Awaited<ReturnType<typeof consumerPrettierConfig>>;
  /** The prettier release the output is laid out as: an upgrade makes the last generate stale. */
  prettierRelease: string;
}

export async function readExtras(project: Pick<AnnotatedProject, "outputDir">, format: boolean): Promise<GenerateExtras> {
  return {
    runtimeTemplate: await readRuntimeTemplate(),
    prettierOptions: format ? await consumerPrettierConfig(project.outputDir) : null,
    prettierRelease: prettierVersion(),
  };
}

/** Runs the generator over a loaded project; `format: false` skips prettier when the files are only executed. */
export async function generateProject(
  project: Project,
  options: { format: boolean; stage?: Stage; extras?: GenerateExtras; cache?: GenerateCache; sourceTypes?: TypeSpec },
): Promise<GenerateOutput> {
  const extras = options.extras ?? (await readExtras(project, options.format));
  return generate({
    annotation: project.annotation,
    spec: project.spec,
    runtimeTemplate: extras.runtimeTemplate,
    prettierOptions: extras.prettierOptions,
    names: project.names,
    format: options.format,
    ...(options.stage ? { stage: options.stage } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.sourceTypes ? { sourceTypes: options.sourceTypes } : {}),
  });
}
