import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The largest spec file, or file a `$ref` reaches, that is read at all. */
export const MAX_SPEC_FILE_BYTES = 256 * 1024 * 1024;

/** Why a file was not read; the message completes "cannot read FILE: ...". */
export class UnreadableFile extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function kind(stat: Stats): string {
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a named pipe";
  if (stat.isSocket()) return "a socket";
  return stat.isCharacterDevice() || stat.isBlockDevice() ? "a device" : "not a regular file";
}

const mebibytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024)).toLocaleString("en-US")} MiB`;

/**
 * Reads a regular file of at most MAX_SPEC_FILE_BYTES as UTF-8. It is opened without blocking and
 * judged by the open handle, so a named pipe cannot stall the read and a file swapped after the
 * check is not the one read. The calls are synchronous: a spec spread over thousands of small files
 * is read without four promises a file.
 */
export async function readSpecFile(path: string): Promise<string> {
  return (await readSpecBytes(path)).toString("utf8");
}

/** The bytes {@link readSpecFile} decodes, read under the same checks: a digest needs nothing decoded. */
export async function readSpecBytes(path: string): Promise<Buffer> {
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnreadableFile(
      path,
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a folder"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : (error as Error).message,
    );
  }
  try {
    const stat = fstatSync(descriptor);
    if (!stat.isFile()) throw new UnreadableFile(path, `it is ${kind(stat)}, not a regular file`);
    if (stat.size > MAX_SPEC_FILE_BYTES)
      throw new UnreadableFile(path, `it holds ${mebibytes(stat.size)}, over the ${mebibytes(MAX_SPEC_FILE_BYTES)} limit`);
    // Exactly the size judged: a file growing while it is read is not read past the limit.
    const buffer = Buffer.alloc(stat.size);
    let filled = 0;
    while (filled < buffer.length) {
      const bytesRead = readSync(descriptor, buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === buffer.length ? buffer : buffer.subarray(0, filled);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * A test of whether a path, with every symlink followed, lies inside `realFolder` (a path with
 * symlinks already followed). A path that does not exist is judged by its nearest existing ancestor.
 * Each folder's real path is found once: a file that is no symlink itself lies where its folder
 * really is (DigitalOcean's 2,900 files sit in a few hundred folders), and a symlink is followed
 * in full. For one load only: a folder's symlinks may change between loads.
 */
export function folderGuard(realFolder: string): (path: string) => boolean {
  const realFolders = new Map<string, string>();
  const realFolderOf = (folder: string) => {
    if (!realFolders.has(folder)) realFolders.set(folder, realpathSync.native(folder));
    return realFolders.get(folder)!;
  };
  const realPathOf = (path: string): string => {
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch {
      return realPathOfMissing(path);
    }
    return stat.isSymbolicLink() || dirname(path) === path ? realpathSync.native(path) : join(realFolderOf(dirname(path)), basename(path));
  };
  return (path) => {
    const inside = relative(realFolder, realPathOf(resolve(path)));
    return inside !== "" && inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
  };
}

/** A path that does not exist (or cannot be judged by lstat), by its nearest existing ancestor. */
function realPathOfMissing(path: string): string {
  let existing = path;
  let rest = "";
  let real: string | undefined;
  while (real === undefined) {
    try {
      real = realpathSync.native(existing);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(existing) === existing) throw error;
      rest = join(basename(existing), rest);
      existing = dirname(existing);
    }
  }
  return join(real, rest);
}

/**
 * The local path a `$ref` resolver is asked for: json-schema-ref-parser hands over a percent-encoded
 * POSIX path, or a `file://` URL when the `$ref` was written as one. Undefined for other URLs, and
 * for one that names no path or cannot be decoded.
 */
export function localPath(url: string): string | undefined {
  try {
    if (/^file:/i.test(url)) return fileURLToPath(url);
    return /^[a-z][a-z0-9+.-]+:\/\//i.test(url) ? undefined : resolve(decodeURIComponent(url));
  } catch {
    return undefined;
  }
}

/**
 * The local path of a `file:` URL, as the `$ref` resolver reads it (`localPath`): decoded, an encoded
 * slash (`..%2foutside.yaml`) included, which fileURLToPath refuses with an error.
 */
export function filePath(url: URL): string {
  try {
    return fileURLToPath(url);
  } catch {
    return resolve(decodeURIComponent(url.pathname));
  }
}

/** A file the `$ref` resolver would not read, and why. */
export interface Refusal {
  path: string;
  /** Outside the spec's folder (or no local path at all), rather than unreadable. */
  outside: boolean;
  reason: string;
}

export interface GuardOptions {
  /** The spec itself, already read. */
  spec: { path: string; text: string };
  /** The spec's folder with symlinks followed: `$ref`s may read files inside it. */
  realFolder: string;
  allowOutside: boolean;
  read(path: string, text: string): void;
  refused(refusal: Refusal): void;
}

/**
 * A stand-in for json-schema-ref-parser's file resolver (its `resolve.file` option) that judges
 * every file before opening it: inside the spec's folder unless allowed, regular, bounded.
 */
export function guardedFileResolver(options: GuardOptions) {
  const inside = folderGuard(options.realFolder);
  const refuse = (refusal: Refusal): never => {
    options.refused(refusal);
    throw new Error(`${refusal.path}: ${refusal.reason}`);
  };
  return {
    order: 100,
    canRead: (target: { url: string }) => /^file:/i.test(target.url) || !/^[a-z][a-z0-9+.-]+:\/\//i.test(target.url),
    read: async (target: { url: string }): Promise<string> => {
      const path = localPath(target.url);
      if (path === undefined) return refuse({ path: target.url, outside: true, reason: "not a local file" });
      if (path === options.spec.path) return options.spec.text;
      if (!options.allowOutside && !inside(path)) return refuse({ path, outside: true, reason: "outside the spec's folder" });
      try {
        const text = await readSpecFile(path);
        options.read(path, text);
        return text;
      } catch (error) {
        if (!(error instanceof UnreadableFile)) throw error;
        return refuse({ path, outside: false, reason: error.message });
      }
    },
  };
}

type FileResolver = ReturnType<typeof guardedFileResolver>;

/**
 * The resolver for the bundler's own pass over files the resolver read before: each is given as it
 * was read then, a mapping or a list as it was parsed, anything else as its text, so that what the
 * bundler inlines is what the checks between the passes saw, never a file as it may be now. A file
 * not read before is read through `resolver`.
 */
export function resolverAsRead(resolver: FileResolver, parsed: ReadonlyMap<string, unknown>, texts: ReadonlyMap<string, string>) {
  return {
    ...resolver,
    read: async (target: { url: string }): Promise<unknown> => {
      const path = localPath(target.url);
      const value = path === undefined ? undefined : parsed.get(path);
      if (typeof value === "object" && value !== null && !Buffer.isBuffer(value)) return value;
      return (path === undefined ? undefined : texts.get(path)) ?? resolver.read(target);
    },
  };
}
