import { existsSync } from "node:fs";
import { link, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

export interface FolderDiff {
  changed: string[];
  added: string[];
  removed: string[];
}

async function listFiles(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(folder, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort();
}

/** The folder as it is on disk, path to text. */
export async function readFolder(folder: string): Promise<Map<string, string>> {
  // All at once: one read after another costs a no-op regenerate of hundreds of files a third of its time.
  const paths = await listFiles(folder);
  const texts = await Promise.all(paths.map((path) => readFile(join(folder, path), "utf8")));
  return new Map(paths.map((path, i) => [path, texts[i]!]));
}

/** How the folder on disk differs from the files generate would write. */
export async function diffFolder(folder: string, files: Map<string, string>): Promise<FolderDiff> {
  const existing = await readFolder(folder);
  const diff: FolderDiff = { changed: [], added: [], removed: [...existing.keys()].filter((path) => !files.has(path)) };
  for (const [path, text] of files) {
    if (!existing.has(path)) diff.added.push(path);
    else if (existing.get(path) !== text) diff.changed.push(path);
  }
  return diff;
}

export const isClean = (diff: FolderDiff) => diff.changed.length + diff.added.length + diff.removed.length === 0;

const staging = (folder: string) => `${folder}.projector-new`;
const previous = (folder: string) => `${folder}.projector-old`;

/** The folder as a check should read it: the backup, when a write was cut off between its two renames. */
export function currentFolder(folder: string): string {
  return !existsSync(folder) && existsSync(previous(folder)) ? previous(folder) : folder;
}

/**
 * A run killed between the two renames below leaves the old folder under its backup name;
 * put it back before anything else looks at the folder.
 */
export async function recoverInterruptedWrite(folder: string): Promise<void> {
  if (!existsSync(folder) && existsSync(previous(folder))) await rename(previous(folder), folder);
  await rm(staging(folder), { recursive: true, force: true });
  await rm(previous(folder), { recursive: true, force: true });
}

/**
 * Replaces the folder as a whole: the new tree is built beside it, then swapped in by rename, so
 * a failure leaves the old folder as it was. Unchanged files are hard-linked into the new tree,
 * keeping their inode and mtime, so watchers and incremental builds see only real changes.
 */
export async function writeFolder(folder: string, files: Map<string, string>, diff: FolderDiff): Promise<void> {
  if (isClean(diff)) return;
  await recoverInterruptedWrite(folder);
  const next = staging(folder);
  await mkdir(next, { recursive: true });
  const unchanged = new Set([...files.keys()].filter((p) => !diff.changed.includes(p) && !diff.added.includes(p)));
  for (const [path, text] of files) {
    const target = join(next, path);
    await mkdir(dirname(target), { recursive: true });
    if (unchanged.has(path)) {
      try {
        await link(join(folder, path), target);
        continue;
      } catch {
        // Some filesystems refuse hard links; a copy is as correct, only touches the mtime.
      }
    }
    await writeFile(target, text);
  }
  if (existsSync(folder)) {
    await rename(folder, previous(folder));
    await rename(next, folder);
    await rm(previous(folder), { recursive: true, force: true });
  } else {
    await mkdir(dirname(folder), { recursive: true });
    await rename(next, folder);
  }
}
