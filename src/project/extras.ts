import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { RuntimeTemplate } from "../emit/runtime-folder.js";
import type { DigestInputs } from "../output/digest.js";
import { consumerPrettierConfig, prettierVersion, type PrettierOptionsFor } from "../prettier-config.js";
import { withPeerSync } from "../peers.js";
import type { AnnotatedProject } from "./read.js";
import { readRuntimeTemplate } from "../emit/runtime-template.js";

/** What a generate reads besides the spec and annotation; read once, shared by the digest and the run. */
export interface GenerateExtras {
  runtimeTemplate: RuntimeTemplate;
  prettierOptions: PrettierOptionsFor;
  /** The prettier release the output is laid out as: an upgrade makes the last generate stale. */
  prettierRelease: string;
  /** The openapi-typescript and TypeScript releases that print the source types: an upgrade of either makes it stale too. */
  typesRelease: string;
}

export async function readExtras(project: Pick<AnnotatedProject, "outputDir">, format: boolean): Promise<GenerateExtras> {
  return {
    runtimeTemplate: await readRuntimeTemplate(),
    prettierOptions: format ? consumerPrettierConfig(project.outputDir) : async () => null,
    prettierRelease: prettierVersion(),
    typesRelease: sourceTypesRelease(),
  };
}

/**
 * The extras as a digest covers them, the prettier options resolved for these files of the output
 * folder (the marker aside): a record's files are the folder's, so what vouches for the folder is
 * hashed for the very files in it.
 */
export async function digestedExtras(extras: GenerateExtras, paths: readonly string[]): Promise<DigestExtras> {
  return { ...extras, prettierOptions: await extras.prettierOptions(paths) };
}

export type DigestExtras = Omit<DigestInputs, "annotationText" | "specFiles" | "specFilesRead">;

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
