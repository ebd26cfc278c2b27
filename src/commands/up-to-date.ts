import { displayPath } from "../project/display-path.js";
import { unchangedSinceLastGenerate, vouchedByRecord, type RefOptions } from "../project/up-to-date.js";
import { commandProgress } from "../progress.js";
import { EXIT, type Io } from "./io.js";

// A generate with nothing to do, told and answered before generate's own modules load: this
// module loads only what the answer needs, a tenth of what a generate loads.

export const upToDate = (folder: string) => `${folder}: up to date, inputs unchanged since the last generate (--force regenerates)\n`;

/**
 * Answers a plain `generate` whose inputs are unchanged since it last wrote its folder, and a
 * `generate --check` whose folder's record vouches for it; undefined when there is work to do.
 */
export async function answerIfUpToDate(
  options: { config: string; check: boolean; silent: boolean; verbose: boolean } & RefOptions,
  io: Io,
): Promise<number | undefined> {
  const progress = commandProgress(options, io.stderr);
  const folder = await progress.stage("digest", () =>
    (options.check ? vouchedByRecord : unchangedSinceLastGenerate)(options.config, io.cwd, options),
  );
  if (folder === undefined) return undefined;
  progress.finish();
  const display = displayPath(io.cwd, folder);
  if (!options.silent) io.stdout.write(options.check ? `${display} is up to date\n` : upToDate(display));
  return EXIT.ok;
}
