import type { Diagnostic } from "../diagnostics.js";
import { entryKind, plainFiles, readFolderBytes } from "../output/listing.js";
import { filesDigest, writeCache } from "../output/digest.js";
import { LockBusyError, LockNotAFileError, withFolderLock, type LockHolder } from "../output/lock.js";
import { backupFolder, diffFolder, isClean, recoverInterruptedWrite, writeFolder, type FolderDiff } from "../output/write.js";
import type { Stage } from "../progress.js";
import { guardOutput, isSystemError, lockPathRefusal, lockRefusal, writeRefusal, type OutputPlace } from "./output-guard.js";

// What generate does with the output folder once the files are ready: compare them (--check) or write them.

/**
 * The folder's files, as bytes, when it holds exactly the files of the digest, as generate writes
 * them (none executable), and nothing else (not while another run swaps it).
 */
export async function filesIfExactly(folder: string, digest: string): Promise<Map<string, Buffer> | undefined> {
  const files = await plainFiles(folder);
  return files && filesDigest(files) === digest ? files : undefined;
}

/** What --check found in the output folder, against the files generate would write. */
export type FolderCheck =
  | { kind: "up to date" }
  | { kind: "stale"; diff: FolderDiff }
  /** Between the two renames of a write the folder is gone, the previous output left in the backup. */
  | { kind: "mid-swap"; backup: string };

/** --check: how the folder differs from the files generate would write; reads only. */
export async function compareOutput(folder: string, files: ReadonlyMap<string, string>): Promise<FolderCheck> {
  if ((await entryKind(folder)) === "absent" && (await entryKind(backupFolder(folder))) === "folder")
    return { kind: "mid-swap", backup: backupFolder(folder) };
  const diff = diffFolder(await readFolderBytes(folder), files);
  return isClean(diff) ? { kind: "up to date" } : { kind: "stale", diff };
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
  /** The run's warnings, kept with the digest for a run that finds the folder up to date. */
  warnings: readonly Diagnostic[];
  /** The working folder the warnings name files from. */
  cwd: string;
  cache: string | undefined;
  stage: Stage;
  /** Told when another generate holds the folder's lock, before waiting for it. */
  onWait: (holder: LockHolder | undefined) => void;
}

/**
 * Replaces the output folder, holding its lock so that two generates never build or swap it at
 * once. The folder is checked again under the lock: the run that held it may have changed it.
 */
export async function writeOutput(place: OutputPlace, files: ReadonlyMap<string, string>, context: WriteContext): Promise<FolderDiff> {
  const { folder } = place;
  try {
    return await withFolderLock(folder, { waitMs: lockWaitMs(), onWait: context.onWait }, async () => {
      await guardOutput(place);
      await recoverInterruptedWrite(folder);
      const diff = diffFolder(await readFolderBytes(folder), files);
      await context.stage("write", () => writeFolder(folder, files, diff));
      await writeCache(context.cache, {
        inputs: context.digest,
        files: filesDigest(files),
        specFiles: [...context.specFiles],
        warnings: [...context.warnings],
        cwd: context.cwd,
      });
      return diff;
    });
  } catch (error) {
    if (error instanceof LockBusyError) throw lockRefusal(place, error);
    if (error instanceof LockNotAFileError) throw lockPathRefusal(place, error);
    if (isSystemError(error)) throw writeRefusal(place, error);
    throw error;
  }
}
