import { generate, type GenerateOutput } from "../generate.js";
import type { GenerateCache } from "../generate-cache.js";
import type { TypeSpec } from "../openapi/source-types-thread.js";
import type { Stage } from "../progress.js";
import { readExtras, type GenerateExtras } from "./extras.js";
import type { Project } from "./read.js";

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
