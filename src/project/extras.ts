import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { RuntimeTemplate } from "../emit/runtime-folder.js";
import { consumerPrettierConfig, prettierVersion } from "../prettier-config.js";
import { withPeerSync } from "../peers.js";
import type { AnnotatedProject } from "./read.js";
import { readRuntimeTemplate } from "../emit/runtime-template.js";

/** What a generate reads besides the spec and annotation; read once, shared by the digest and the run. */
export interface GenerateExtras {
  runtimeTemplate: RuntimeTemplate;
  prettierOptions: Awaited<ReturnType<typeof consumerPrettierConfig>>;
  /** The prettier release the output is laid out as: an upgrade makes the last generate stale. */
  prettierRelease: string;
  /** The openapi-typescript and TypeScript releases that print the source types: an upgrade of either makes it stale too. */
  typesRelease: string;
}

export async function readExtras(project: Pick<AnnotatedProject, "outputDir">, format: boolean): Promise<GenerateExtras> {
  return {
    runtimeTemplate: await readRuntimeTemplate(),
    prettierOptions: format ? await consumerPrettierConfig(project.outputDir) : null,
    prettierRelease: prettierVersion(),
    typesRelease: sourceTypesRelease(),
  };
}

/** openapi-typescript's release and that of the TypeScript it prints with, from their package.json files, neither loaded. */
function sourceTypesRelease(): string {
  if (typesRelease === undefined) {
    const here = createRequire(import.meta.url);
    const openapiTypescript = createRequire(here.resolve("openapi-typescript"));
    typesRelease = `openapi-typescript ${release(here, "openapi-typescript")}, typescript ${withPeerSync("typescript", () => release(openapiTypescript, "typescript"))}`;
  }
  return typesRelease;
}

const release = (require: NodeJS.Require, name: string) =>
  (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;

let typesRelease: string | undefined;
