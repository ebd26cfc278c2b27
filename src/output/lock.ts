import { mkdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
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

/** The lock file of an output folder, beside it so that it guards exactly that folder and its staging. */
export const lockPath = (folder: string) => `${folder}.projector-lock`;

async function readHolder(lock: string): Promise<LockHolder | undefined> {
  try {
    const holder = JSON.parse(await readFile(lock, "utf8")) as Partial<LockHolder>;
    return typeof holder.pid === "number" && typeof holder.host === "string" ? { pid: holder.pid, host: holder.host } : undefined;
  } catch {
    // Gone, or not yet written by a run that has just created it.
    return undefined;
  }
}

const sameHolder = (a: LockHolder | undefined, b: LockHolder) => a?.pid === b.pid && a.host === b.host;

/** Only a process of this machine that no longer exists has certainly let go; any other is waited for. */
function ended(holder: LockHolder): boolean {
  if (holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Removes the lock file of a run that ended without removing it. Two runs may find the same one;
 * the `.break` folder lets one of them at a time look again and remove it, so neither removes the
 * lock the other has taken meanwhile. Returns false when another run is doing it.
 */
async function breakLock(lock: string, holder: LockHolder): Promise<boolean> {
  const guard = `${lock}.break`;
  try {
    await mkdir(guard);
  } catch {
    return false;
  }
  try {
    if (sameHolder(await readHolder(lock), holder)) await rm(lock, { force: true });
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
 * removed when the work ends. A lock whose process has ended is taken over.
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
    const holder = await readHolder(lock);
    if (holder && ended(holder) && (await breakLock(lock, holder))) continue;
    if (Date.now() >= deadline) throw new LockBusyError(lock, holder);
    if (!waiting) options.onWait?.(holder);
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
