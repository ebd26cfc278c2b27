import { displayPath } from "../project/display-path.js";
import type { DriverOptions } from "../project/driver.js";
import { unchangedSinceLastGenerate, vouchedByRecord, type UpToDate } from "../project/up-to-date.js";
import { commandProgress } from "../progress.js";
import { EXIT, type Io } from "./io.js";
import { printDiagnostics } from "./print.js";

// A generate with nothing to do, told and answered before generate's own modules load: this
// module loads only what the answer needs, a tenth of what a generate loads.

export const upToDate = (folder: string) => `${folder}: up to date, inputs unchanged since the last generate (--force regenerates)\n`;

/**
 * Answers a plain `generate` whose inputs are unchanged since it last wrote its folder, and a
 * `generate --check` whose folder's record vouches for it; undefined when there is work to do.
 */
export async function answerIfUpToDate(
  options: DriverOptions & { silent: boolean; verbose: boolean },
  io: Io,
): Promise<number | undefined> {
  const progress = commandProgress(options, io.stderr);
  const found = await progress.stage("digest", async (): Promise<UpToDate | undefined> => {
    if (!options.check) return unchangedSinceLastGenerate(options.config, io.cwd, options);
    const folder = await vouchedByRecord(options.config, io.cwd, options);
    return folder === undefined ? undefined : { folder, warnings: [] };
  });
  if (found === undefined) return undefined;
  printDiagnostics(io, found.warnings);
  progress.finish();
  const display = displayPath(io.cwd, found.folder);
  if (!options.silent) io.stdout.write(options.check ? `${display} is up to date\n` : upToDate(display));
  return EXIT.ok;
}
