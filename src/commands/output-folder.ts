import { resolve } from "node:path";
import { entryKind, readFolder, readFolderBytes } from "../output/listing.js";
import { filesDigest, writeCache } from "../output/digest.js";
import { LockBusyError, LockNotAFileError, withFolderLock, type LockHolder } from "../output/lock.js";
import { backupFolder, diffFolder, isClean, recoverInterruptedWrite, writeFolder, type FolderDiff } from "../output/write.js";
import type { Progress } from "../progress.js";
import { guardOutput, isSystemError, lockPathRefusal, lockRefusal, writeRefusal, type OutputPlace } from "./output-guard.js";
import type { Io } from "./io.js";

// What generate does with the output folder once the files are ready: compare them (--check) or write them.

/** Whether the folder holds exactly the files of the digest and nothing else; a folder another run is swapping does not. */
export async function holdsOnly(folder: string, digest: string): Promise<boolean> {
  return (await filesIfExactly(folder, digest)) !== undefined;
}

/** The folder's files, as bytes, when it holds exactly the files of the digest and nothing else (not while another run swaps it). */
export async function filesIfExactly(folder: string, digest: string): Promise<Map<string, Buffer> | undefined> {
  try {
    const existing = await readFolderBytes(folder);
    return existing.strays.length === 0 && filesDigest(existing.files) === digest ? existing.files : undefined;
  } catch {
    return undefined;
  }
}

const commandLine = (options: { config: string; silent: boolean }) =>
  options.config === "projector.yaml" ? "projector generate" : `projector generate -c ${options.config}`;

/** --check: whether the folder holds exactly the files generate would write, saying how it differs if not; reads only. */
export async function checkOutput(
  place: OutputPlace,
  files: ReadonlyMap<string, string>,
  options: { config: string; silent: boolean },
  io: Io,
): Promise<boolean> {
  const { folder, display } = place;
  if ((await entryKind(folder)) === "absent" && (await entryKind(backupFolder(folder))) === "folder") {
    // Between the two renames of a write the folder is gone; whatever the backup holds, the folder the build reads is not there.
    io.stderr.write(
      `${display(folder)} is not there: a generate was cut off while swapping it and left the previous output in ${display(backupFolder(folder))}\n` +
        `run \`${commandLine(options)}\` to put it back and bring it up to date\n`,
    );
    return false;
  }
  const diff = diffFolder(await readFolder(folder), files);
  if (isClean(diff)) {
    if (!options.silent) io.stdout.write(`${display(folder)} is up to date\n`);
    return true;
  }
  const stale = [
    ...diff.changed.map((p) => `  stale    ${display(resolve(folder, p))}`),
    ...diff.added.map((p) => `  missing  ${display(resolve(folder, p))}`),
    ...diff.removed.map((p) => `  extra    ${display(resolve(folder, p))}`),
  ];
  io.stderr.write(
    `${display(folder)} is out of date with its inputs:\n${stale.join("\n")}\nrun \`${commandLine(options)}\` and commit the result\n`,
  );
  return false;
}

/** How long a generate waits for another one writing the same folder: PROJECTOR_LOCK_TIMEOUT seconds, 60 by default. */
function lockWaitMs(): number {
  const seconds = Number(process.env["PROJECTOR_LOCK_TIMEOUT"] ?? "60");
  return (Number.isFinite(seconds) && seconds >= 0 ? seconds : 60) * 1000;
}

export interface WriteContext {
  digest: string;
  /** The files the spec was read from, so the next run can hash them without loading it. */
  specFiles: readonly string[];
  cache: string | undefined;
  progress: Progress;
  silent: boolean;
  io: Io;
}

/**
 * Replaces the output folder, holding its lock so that two generates never build or swap it at
 * once. The folder is checked again under the lock: the run that held it may have changed it.
 */
export async function writeOutput(place: OutputPlace, files: ReadonlyMap<string, string>, context: WriteContext): Promise<FolderDiff> {
  const { folder, display } = place;
  const onWait = (holder: LockHolder | undefined) => {
    if (!context.silent)
      context.io.stderr.write(
        `projector: waiting for another generate${holder ? ` (process ${holder.pid})` : ""} to finish writing ${display(folder)}\n`,
      );
  };
  try {
    return await withFolderLock(folder, { waitMs: lockWaitMs(), onWait }, async () => {
      await guardOutput(place);
      await recoverInterruptedWrite(folder);
      const diff = diffFolder(await readFolder(folder), files);
      await context.progress.stage("write", () => writeFolder(folder, files, diff));
      await writeCache(context.cache, { inputs: context.digest, files: filesDigest(files), specFiles: [...context.specFiles] });
      return diff;
    });
  } catch (error) {
    if (error instanceof LockBusyError) throw lockRefusal(place, error);
    if (error instanceof LockNotAFileError) throw lockPathRefusal(place, error);
    if (isSystemError(error)) throw writeRefusal(place, error);
    throw error;
  }
}
