import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { cachePath, inputsDigest, readCache } from "../output/digest.js";
import { displayPath } from "../project/display-path.js";
import { readExtras } from "../project/extras.js";
import { topLevelScalar } from "../project/top-level-scalar.js";
import { commandProgress } from "../progress.js";
import { EXIT, type Io } from "./io.js";
import { holdsOnly } from "./output-folder.js";

// A regenerate with nothing to do, told and answered before generate's own modules load: this
// module loads only what the answer needs, a tenth of what a generate loads.

export const upToDate = (folder: string) => `${folder}: up to date, inputs unchanged since the last generate (--force regenerates)\n`;

/** Answers a plain `generate` whose inputs are unchanged since it last wrote its folder; undefined when there is work to do. */
export async function answerIfUpToDate(
  options: { config: string; silent: boolean; verbose: boolean },
  io: Io,
): Promise<number | undefined> {
  const progress = commandProgress(options, io.stderr);
  const unchanged = await progress.stage("digest", () => upToDateAhead(options.config, io.cwd));
  if (unchanged === undefined) return undefined;
  progress.finish();
  if (!options.silent) io.stdout.write(upToDate(displayPath(io.cwd, unchanged)));
  return EXIT.ok;
}

/**
 * The output folder, when a regenerate has nothing to do, told without parsing the annotation: its
 * `output:` read off the text, and the digest of the text as it is against the cache entry for that
 * folder. An entry whose digest matches was written by a generate of this very text, which wrote to
 * that folder; anything less plain (an output written another way, or outside the annotation's
 * folder, where options decide) takes the ordinary way.
 */
async function upToDateAhead(config: string, cwd: string): Promise<string | undefined> {
  const configPath = resolve(cwd, config);
  const text = await readFile(configPath, "utf8").catch(() => undefined);
  const output = text === undefined ? undefined : topLevelScalar(text, "output");
  if (text === undefined || output === undefined) return undefined;
  const configDir = dirname(configPath);
  const outputDir = resolve(configDir, output);
  const inside = relative(configDir, outputDir);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return undefined;
  const last = await readCache(cachePath(configDir, outputDir));
  if (!last) return undefined;
  const digest = await inputsDigest({ annotationText: text, specFiles: last.specFiles, ...(await readExtras({ outputDir }, true)) });
  return digest === last.inputs && (await holdsOnly(outputDir, last.files)) ? outputDir : undefined;
}
