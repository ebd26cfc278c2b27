import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { displayPath, posix } from "./display-path.js";
import { parseAnnotation } from "../annotation/parse.js";
import type { Annotation } from "../annotation/types.js";
import { refusal } from "../diagnostics.js";
import type { InputNames } from "../emit/emit.js";
import { untimed, type Stage } from "../progress.js";
import { loadSpec, type LoadedSpec } from "../openapi/load.js";
import { checkOutputPath } from "./output-path.js";

export interface ProjectOptions {
  config: string;
  allowRemoteRefs?: boolean;
  allowOutsideOutput?: boolean;
}

/** An annotation file read and checked, with its paths resolved; the spec not yet loaded. */
export interface AnnotatedProject {
  configPath: string;
  configDir: string;
  specPath: string;
  outputDir: string;
  annotationText: string;
  annotation: Annotation;
  names: InputNames;
  /** How messages name a file: relative to the working directory. */
  display(path: string): string;
}

/** Everything a command needs about one annotation file, its spec and its output folder, resolved once. */
export interface Project extends AnnotatedProject {
  spec: LoadedSpec;
}

/** Reads the annotation file and the spec it names. Throws DiagnosticError for bad input. */
export async function loadProject(options: ProjectOptions, cwd: string, stage: Stage = untimed): Promise<Project> {
  const project = await stage("annotation", () => readProject(options, cwd));
  return {
    ...project,
    spec: await stage("spec", () =>
      loadSpec(project.specPath, project.display(project.specPath), { allowRemoteRefs: options.allowRemoteRefs === true }),
    ),
  };
}

/** Reads and checks the annotation file alone. */
export async function readProject(options: ProjectOptions, cwd: string): Promise<AnnotatedProject> {
  const configPath = resolve(cwd, options.config);
  const configDir = dirname(configPath);
  const display = (path: string) => displayPath(cwd, path);
  let text: string;
  try {
    text = await readFile(configPath, "utf8");
  } catch (error) {
    const absent = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw refusal(
      "PRJ001",
      absent ? "cannot read the annotation file: no such file" : `cannot read the annotation file: ${(error as Error).message}`,
      options.config === "projector.yaml"
        ? "pass -c path/to/projector.yaml, or write one (see the README's annotation walkthrough)"
        : "check the path given to -c",
      { file: display(configPath) },
    );
  }
  const annotation = parseAnnotation(text, display(configPath));
  const specPath = resolve(configDir, annotation.spec);
  const outputDir = resolve(configDir, annotation.output);
  await checkOutputPath({ configPath, specPath, outputDir }, annotation, options.allowOutsideOutput === true);
  return {
    configPath,
    configDir,
    specPath,
    outputDir,
    annotationText: text,
    annotation,
    names: { spec: posix(relative(configDir, specPath)), annotation: posix(relative(configDir, configPath)) },
    display,
  };
}
