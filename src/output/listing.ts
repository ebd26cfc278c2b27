import { readFileSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";

/** What a path on disk is, without following a symbolic link. */
export type EntryKind = "absent" | "folder" | "file" | "link" | "other";

export async function entryKind(path: string): Promise<EntryKind> {
  try {
    const stats = await lstat(path);
    return stats.isDirectory() ? "folder" : stats.isFile() ? "file" : stats.isSymbolicLink() ? "link" : "other";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "absent";
    throw error;
  }
}

export interface FolderListing {
  /** Regular files, as posix paths relative to the folder, sorted. */
  files: string[];
  /** Folders with nothing in them, which generate never leaves; sorted. */
  emptyFolders: string[];
  /** Entries that are neither files nor folders (symbolic links, pipes, sockets), which generate never writes; sorted. */
  others: string[];
  /** Every entry's name at any depth, to spot a `.git` however deep. */
  names: Set<string>;
}

const posix = (path: string) => path.split(sep).join("/");

/** The folder's entries, symbolic links listed but never followed. An absent folder lists nothing. */
export async function listFolder(folder: string): Promise<FolderListing> {
  if ((await entryKind(folder)) !== "folder") return { files: [], emptyFolders: [], others: [], names: new Set() };
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const parents = new Set(entries.map((e) => e.parentPath));
  const listing: FolderListing = { files: [], emptyFolders: [], others: [], names: new Set(entries.map((e) => e.name)) };
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    const list = entry.isFile()
      ? listing.files
      : entry.isDirectory()
        ? parents.has(path)
          ? undefined
          : listing.emptyFolders
        : listing.others;
    list?.push(posix(relative(folder, path)));
  }
  for (const list of [listing.files, listing.emptyFolders, listing.others]) list.sort();
  return listing;
}

/** What lies in the folder besides files and the folders holding them: none of it is generate's. */
export const strays = (listing: FolderListing) => [...listing.emptyFolders, ...listing.others].sort();

export interface FolderContents {
  /** Regular files, path to text. */
  files: Map<string, string>;
  strays: string[];
}

/** The folder's files as bytes, for a digest (filesDigest hashes text as its UTF-8 bytes), and what else lies in it. */
export function readFolderBytes(folder: string): Promise<{ files: Map<string, Buffer>; strays: string[] }> {
  return readEachFile(folder, (path) => readFileSync(path));
}

/** The folder as it is on disk: its files' texts, and what else lies in it. */
export function readFolder(folder: string): Promise<FolderContents> {
  return readEachFile(folder, (path) => readFileSync(path, "utf8"));
}

/**
 * Every file of the folder read synchronously: each asynchronous read is four trips through the
 * event loop and the thread pool, while the read itself is short, the folder being usually in the
 * page cache, written by the generate before.
 */
async function readEachFile<T>(folder: string, read: (path: string) => T): Promise<{ files: Map<string, T>; strays: string[] }> {
  const listing = await listFolder(folder);
  return { files: new Map(listing.files.map((path) => [path, read(join(folder, path))])), strays: strays(listing) };
}
