import type { RuntimeTemplate } from "../emit/runtime-folder.js";
import { consumerPrettierConfig, prettierVersion } from "../prettier-config.js";
import type { AnnotatedProject } from "./read.js";
import { readRuntimeTemplate } from "./runtime-template.js";

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
