import { existsSync } from "node:fs";
import { link, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { FolderContents } from "./listing.js";
import { MARKER } from "./ownership.js";

export interface FolderDiff {
  changed: string[];
  added: string[];
  /** Files generate would not write, and entries that are not files at all (links, empty folders). */
  removed: string[];
}

/**
 * How the folder on disk differs from the files generate would write, byte for byte: a file whose
 * bytes are not valid UTF-8 differs even where its decoded text (every bad byte read as U+FFFD)
 * would match. A file with an execute bit differs too: generate writes it anew, without one.
 */
export function diffFolder(existing: FolderContents, files: ReadonlyMap<string, string>): FolderDiff {
  const diff: FolderDiff = {
    changed: [],
    added: [],
    removed: [...[...existing.files.keys()].filter((path) => !files.has(path)), ...existing.strays].sort(),
  };
  const executable = new Set(existing.executable);
  for (const [path, text] of files) {
    if (!existing.files.has(path)) diff.added.push(path);
    else if (executable.has(path) || !Buffer.from(text, "utf8").equals(existing.files.get(path)!)) diff.changed.push(path);
  }
  return diff;
}

export const isClean = (diff: FolderDiff) => diff.changed.length + diff.added.length + diff.removed.length === 0;

/** The file system calls a write makes: Node's, or a test's that fails where it says. */
export type WriteFileSystem = Pick<typeof import("node:fs/promises"), "link" | "mkdir" | "rename" | "rm" | "writeFile">;
const NODE_FILE_SYSTEM: WriteFileSystem = { link, mkdir, rename, rm, writeFile };

/** Where a write builds the new folder, and where the old one waits during the swap. */
export const stagingFolder = (folder: string) => `${folder}.projector-new`;
export const backupFolder = (folder: string) => `${folder}.projector-old`;

/**
 * A run killed between the two renames below leaves the old folder under its backup name; put it
 * back, and clear what such a run left. The caller holds the folder's lock and has checked that
 * the staging and backup folders are generate's own.
 */
export async function recoverInterruptedWrite(folder: string, fs = NODE_FILE_SYSTEM): Promise<void> {
  if (!existsSync(folder) && existsSync(backupFolder(folder))) await fs.rename(backupFolder(folder), folder);
  await fs.rm(stagingFolder(folder), { recursive: true, force: true });
  await fs.rm(backupFolder(folder), { recursive: true, force: true });
}

/**
 * Replaces the folder as a whole: the new tree is built beside it, then swapped in by rename, so
 * a failure leaves the old folder as it was, and takes the new tree away (a full disk, a folder
 * that cannot be written): what generate reports as not written is not there. Unchanged files are
 * hard-linked into the new tree, keeping their inode and mtime, so watchers and incremental builds
 * see only real changes. The marker goes in first, so a staging folder a killed run left is
 * recognisably generate's.
 */
export async function writeFolder(
  folder: string,
  files: ReadonlyMap<string, string>,
  diff: FolderDiff,
  fs = NODE_FILE_SYSTEM,
): Promise<void> {
  if (isClean(diff)) return;
  try {
    await stageAndSwap(folder, files, diff, fs);
  } catch (error) {
    // The old folder back if the swap got halfway, the new tree gone; the write's own error is the one to report.
    await recoverInterruptedWrite(folder, fs).catch(() => undefined);
    throw error;
  }
  await fs.rm(backupFolder(folder), { recursive: true, force: true });
}

async function stageAndSwap(folder: string, files: ReadonlyMap<string, string>, diff: FolderDiff, fs: WriteFileSystem): Promise<void> {
  const next = stagingFolder(folder);
  await fs.mkdir(next, { recursive: true });
  const changed = new Set([...diff.changed, ...diff.added]);
  const put = async (path: string) => {
    const target = join(next, path);
    if (!changed.has(path)) {
      try {
        await fs.link(join(folder, path), target);
        return;
      } catch {
        // Some filesystems refuse hard links; a copy is as correct, only touches the mtime.
      }
    }
    await fs.writeFile(target, files.get(path)!);
  };
  if (files.has(MARKER)) await put(MARKER);
  const paths = [...files.keys()].filter((path) => path !== MARKER);
  // Every folder made once, then every file at once, rather than one after another.
  const folders = [...new Set(paths.map((path) => dirname(join(next, path))))].sort();
  for (const made of folders) await fs.mkdir(made, { recursive: true });
  // Every write settled before the tree is taken away: one still under way would write into a removed folder.
  const written = await Promise.allSettled(paths.map(put));
  const failed = written.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  if (existsSync(folder)) await fs.rename(folder, backupFolder(folder));
  else await fs.mkdir(dirname(folder), { recursive: true });
  await fs.rename(next, folder);
}
