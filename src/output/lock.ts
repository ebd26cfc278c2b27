import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, rm, rmdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** The run holding a lock, as written in the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
}

/** Another run held the lock for longer than this one would wait. */
export class LockBusyError extends Error {
  constructor(
    readonly lock: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(`${lock} is held${holder ? ` by process ${holder.pid} on ${holder.host}` : ""}`);
    this.name = "LockBusyError";
  }
}

/** What stands at the lock's path is not a file generate could have made: a link (even one leading nowhere), a folder, a pipe. */
export class LockNotAFileError extends Error {
  constructor(
    readonly lock: string,
    /** What it is, as the message says it: "a symbolic link". */
    readonly found: string,
  ) {
    super(`${lock} is ${found}, not a lock file`);
    this.name = "LockNotAFileError";
  }
}

/** The lock file of an output folder, beside it so that it guards exactly that folder and its staging. */
export const lockPath = (folder: string) => `${folder}.projector-lock`;

/** A lock file as found: its holder when it names one, and what tells this file from a later one at the same path. */
interface FoundLock {
  holder: LockHolder | undefined;
  inode: number;
  modifiedMs: number;
}

/** Opened without following a link, and without waiting on a pipe: what is there is looked at, never what it leads to. */
const AS_FOUND = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What a path holds that is not a regular file, in words. */
async function notAFile(path: string): Promise<string | undefined> {
  const stats = await lstat(path).catch(() => undefined);
  return stats === undefined || stats.isFile() ? undefined : notAFileWords(stats);
}

const notAFileWords = (stats: Stats) =>
  stats.isSymbolicLink() ? "a symbolic link" : stats.isDirectory() ? "a folder" : "not a regular file";

/** The lock file as found, undefined when it is gone; a path holding anything but a file is {@link LockNotAFileError}. */
async function readLock(lock: string): Promise<FoundLock | undefined> {
  let file: FileHandle;
  try {
    file = await open(lock, AS_FOUND);
  } catch (error) {
    const found = await notAFile(lock);
    if (found !== undefined) throw new LockNotAFileError(lock, found);
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw new LockNotAFileError(lock, notAFileWords(stats));
    let holder: LockHolder | undefined;
    try {
      const parsed = JSON.parse(await file.readFile("utf8")) as Partial<LockHolder>;
      if (typeof parsed.pid === "number" && typeof parsed.host === "string") holder = { pid: parsed.pid, host: parsed.host };
    } catch {
      // Not yet written by the run that has just created it, or that run was killed in between.
    }
    return { holder, inode: stats.ino, modifiedMs: stats.mtimeMs };
  } finally {
    await file.close();
  }
}

const sameLock = (a: FoundLock | undefined, b: FoundLock) =>
  a !== undefined &&
  a.inode === b.inode &&
  a.modifiedMs === b.modifiedMs &&
  a.holder?.pid === b.holder?.pid &&
  a.holder?.host === b.holder?.host;

/** A run writes its name into the lock file at once; one still blank after this long was left by a run killed in between. */
const BLANK_LOCK_MS = 10_000;

/** Only a process of this machine that no longer exists has certainly let go; any other is waited for. */
function abandoned(found: FoundLock): boolean {
  const holder = found.holder;
  if (!holder) return Date.now() - found.modifiedMs > BLANK_LOCK_MS;
  if (holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Removes a lock file its run left behind. Two runs may find the same one; the `.break` folder
 * lets one of them at a time look again and remove it, so neither removes the lock the other has
 * taken meanwhile. Returns false when another run is doing it.
 */
async function breakLock(lock: string, found: FoundLock): Promise<boolean> {
  const guard = `${lock}.break`;
  try {
    await mkdir(guard);
  } catch {
    return false;
  }
  try {
    if (sameLock(await readLock(lock), found)) await rm(lock, { force: true });
    return true;
  } finally {
    await rmdir(guard);
  }
}

export interface LockOptions {
  /** How long to wait for another run to let go before giving up with LockBusyError. */
  waitMs: number;
  /** Called once, when the lock is found held by a live run. */
  onWait?: (holder: LockHolder | undefined) => void;
}

/**
 * Runs `work` holding the folder's lock: a file created only if absent, naming this process, and
 * removed when the work ends. A lock whose process has ended, or that was left blank, is taken over.
 * Anything else at the lock's path (a symbolic link, dangling or not, a folder, a pipe) was not made
 * by generate: it is never followed nor removed, but refused with {@link LockNotAFileError}.
 */
export async function withFolderLock<T>(folder: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const lock = lockPath(folder);
  const me: LockHolder = { pid: process.pid, host: hostname() };
  await mkdir(dirname(folder), { recursive: true });
  const deadline = Date.now() + options.waitMs;
  let pause = 20;
  let waiting = false;
  for (;;) {
    try {
      await writeFile(lock, JSON.stringify(me), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const found = await readLock(lock);
    if (found && abandoned(found) && (await breakLock(lock, found))) continue;
    if (Date.now() >= deadline) throw new LockBusyError(lock, found?.holder);
    if (!waiting) options.onWait?.(found?.holder);
    waiting = true;
    await sleep(pause);
    pause = Math.min(pause * 2, 250);
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
