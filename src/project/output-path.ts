import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import type { Annotation } from "../annotation/types.js";
import { DiagnosticError, type Code } from "../diagnostics.js";

/**
 * The path with every symbolic link in it resolved, as the operating system will follow it. The
 * part that does not exist yet is taken as written: it cannot hold a link.
 */
export async function realPathOf(path: string): Promise<string> {
  const missing: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(at) === at) throw error;
      missing.push(basename(at));
    }
  }
}

/** Whether `inner` is `outer` or lies under it; both real paths. */
function within(outer: string, inner: string): boolean {
  const path = relative(outer, inner);
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

export interface OutputPaths {
  configPath: string;
  specPath: string;
  outputDir: string;
}

/**
 * Refuses an `output` generate must never replace, judged on real paths so that a symbolic link
 * on the way cannot lead it elsewhere: outside the annotation file's folder (unless allowed), that
 * folder itself or one holding it, or a folder holding the annotation, the spec or a git repository.
 */
export async function checkOutputPath(paths: OutputPaths, annotation: Annotation, allowOutside: boolean): Promise<void> {
  const refuse = (code: Code, message: string, help: string): never => {
    throw new DiagnosticError([{ code, severity: "error", message, help, location: annotation.locate(["output"]) }]);
  };
  const projectDir = await realpath(dirname(paths.configPath));
  let output: string;
  try {
    output = await realPathOf(paths.outputDir);
  } catch (error) {
    return refuse(
      "PRJ052",
      `output ${annotation.output} cannot be resolved: ${(error as Error).message}`,
      "point `output` at a folder generate can create and write",
    );
  }
  const lexical = relative(dirname(paths.configPath), paths.outputDir);
  const real = relative(projectDir, output);
  const where =
    real === lexical ? "" : ` (through a symbolic link, it is ${real.split(sep).join("/") || "."} from the annotation file's folder)`;
  if (!allowOutside && (output === projectDir || !within(projectDir, output)))
    refuse(
      "PRJ006",
      `output ${annotation.output} is ${output === projectDir ? "the project folder itself" : "outside the project"}${where}; generate replaces that folder whole`,
      "point `output` at a folder of its own under the annotation file's folder, or pass --allow-outside-output",
    );
  const ownFolder = "point `output` at a folder of its own, such as generated/<api>";
  const holds = async (path: string, what: string) => {
    const real = await realPathOf(path);
    if (within(output, real))
      refuse(
        "PRJ051",
        `output ${annotation.output} ${real === output ? "is" : "holds"} the ${what}${where}; generate would delete it`,
        ownFolder,
      );
  };
  if (within(output, projectDir))
    refuse(
      "PRJ051",
      `output ${annotation.output} is the project folder or a folder holding it${where}; generate would replace it whole`,
      ownFolder,
    );
  await holds(paths.configPath, "annotation file");
  await holds(paths.specPath, "spec");
  if (output.split(sep).includes(".git"))
    refuse("PRJ051", `output ${annotation.output} is in a git repository's .git folder${where}`, ownFolder);
}
