import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
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
    if (entry.isDirectory() && parents.has(path)) continue;
    const list = entry.isFile() ? listing.files : entry.isDirectory() ? listing.emptyFolders : listing.others;
    list.push(posix(relative(folder, path)));
  }
  for (const list of [listing.files, listing.emptyFolders, listing.others]) list.sort();
  return listing;
}

/**
 * Whether a file's mode lets anyone run it. generate writes every file without execute bits, so a
 * file with one differs from what generate writes. Windows shows no execute bits: never there.
 */
export const isExecutable = (mode: number) => (mode & 0o111) !== 0;

/** A folder as read: its regular files, path to contents, and what else lies in it. */
export interface FolderContents {
  files: Map<string, Buffer>;
  /** What lies in the folder besides files and the folders holding them: none of it is generate's. */
  strays: string[];
  /** The files with an execute bit, sorted. */
  executable: string[];
}

/**
 * The folder's files as bytes, for a digest (filesDigest hashes text as its UTF-8 bytes), and what
 * else lies in it. Every file is read synchronously: each asynchronous read is four trips through the
 * event loop and the thread pool, while the read itself is short, the folder being usually in the
 * page cache, written by the generate before. Each file's mode is taken from the file as it is open
 * to be read, as the read takes its size: no second walk of the folder.
 */
export async function readFolderBytes(folder: string): Promise<FolderContents> {
  const listing = await listFolder(folder);
  const files = new Map<string, Buffer>();
  const executable: string[] = [];
  for (const path of listing.files) {
    const file = openSync(join(folder, path), "r");
    try {
      if (isExecutable(fstatSync(file).mode)) executable.push(path);
      files.set(path, readFileSync(file));
    } finally {
      closeSync(file);
    }
  }
  return { files, strays: [...listing.emptyFolders, ...listing.others].sort(), executable };
}

/**
 * The folder's files as bytes, when it holds nothing but files as generate writes them (no strays,
 * no file with an execute bit); undefined otherwise, or when it cannot be read.
 */
export async function plainFiles(folder: string): Promise<Map<string, Buffer> | undefined> {
  try {
    const contents = await readFolderBytes(folder);
    return contents.strays.length === 0 && contents.executable.length === 0 ? contents.files : undefined;
  } catch {
    return undefined;
  }
}
