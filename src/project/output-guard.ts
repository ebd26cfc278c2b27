import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DiagnosticError, type Code, type SourceLocation } from "../diagnostics.js";
import { entryKind, listFolder } from "../output/listing.js";
import { type LockBusyError, type LockNotAFileError, lockPath } from "../output/lock.js";
import { MARKER, ownership } from "../output/ownership.js";
import { holdsPrettierConfig } from "../prettier-config.js";
import { backupFolder, stagingFolder } from "../output/write.js";

/** The output folder as the messages about it need it. */
export interface OutputPlace {
  folder: string;
  /** Where the annotation file names it: looked up only for a refusal, since it may parse the file again. */
  location(): SourceLocation;
  display(path: string): string;
}

const refusal = (place: OutputPlace, code: Code, message: string, help: string) =>
  new DiagnosticError([{ code, severity: "error", message, help, location: place.location() }]);

/** The nearest folder or file above a path that does not exist. */
async function existingAbove(path: string): Promise<{ path: string; folder: boolean }> {
  for (let at = dirname(path); ; at = dirname(at)) {
    try {
      return { path: at, folder: (await stat(at)).isDirectory() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(at) === at) throw error;
    }
  }
}

/** A folder generate may replace, delete or fill, or the refusal saying why not. */
async function checkFolder(place: OutputPlace, folder: string, role: string): Promise<void> {
  const name = place.display(folder);
  const kind = await entryKind(folder);
  if (kind === "absent") {
    const above = await existingAbove(folder);
    if (above.folder) return;
    throw refusal(
      place,
      "PRJ052",
      `${role} ${name} cannot be created: ${place.display(above.path)} is a file`,
      "point `output` at a folder, not at a file or under one",
    );
  }
  if (kind !== "folder")
    throw refusal(
      place,
      "PRJ052",
      `${role} ${name} is ${kind === "link" ? "a symbolic link" : "a file"}, not a folder`,
      "point `output` at a folder of its own; generate replaces it whole",
    );
  const listing = await listFolder(folder);
  if (listing.names.has(".git"))
    throw refusal(
      place,
      "PRJ051",
      `${role} ${name} holds a git repository (.git); generate would delete it`,
      "point `output` at a folder of its own, such as generated/<api>",
    );
  const verdict = await ownership(folder, listing);
  // prettier would lay out the files below one with it, and generate would then delete it: the
  // output would stand on a file no longer there.
  const config =
    role === "output" && verdict.ours
      ? [...listing.files, ...listing.others].find((path) => holdsPrettierConfig(join(folder, path)))
      : undefined;
  if (config !== undefined)
    throw refusal(
      place,
      "PRJ050",
      `${role} ${name} holds ${place.display(join(folder, config))}, a prettier config generate did not write: prettier would lay out the files beside it with it, and generate would then delete it`,
      "move it to a folder above the output folder, where generate keeps it and prettier applies it to every file generate writes, or delete it",
    );
  // A marker not as generate writes it may be an edit of generate's own, or another tool's file of that name.
  if (!verdict.ours && role === "output" && verdict.evidence === MARKER)
    throw refusal(
      place,
      "PRJ050",
      `${role} ${name} holds ${place.display(`${folder}/${MARKER}`)}, which is not a marker as generate writes it: generate cannot tell it wrote the folder`,
      `if generate wrote this folder, delete its ${MARKER} file and run generate again, which then replaces it if its files all start with generate's banner; otherwise point \`output\` at a new or empty folder`,
    );
  if (!verdict.ours)
    throw refusal(
      place,
      "PRJ050",
      `${role} ${name} holds files generate did not write (${place.display(`${folder}/${verdict.evidence}`)}); replacing it would delete them`,
      role === "output"
        ? `point \`output\` at a new or empty folder; generate marks the folders it writes with a ${MARKER} file and replaces only those`
        : `generate builds and swaps the output folder through ${name}: move that folder away`,
    );
}

/**
 * Refuses, touching nothing, an output folder generate did not write, and a staging or backup
 * folder beside it that a run of generate did not leave.
 */
export async function guardOutput(place: OutputPlace): Promise<void> {
  try {
    await checkFolder(place, place.folder, "output");
    await checkFolder(place, stagingFolder(place.folder), "staging folder");
    await checkFolder(place, backupFolder(place.folder), "backup folder");
  } catch (error) {
    if (!isSystemError(error)) throw error;
    throw refusal(
      place,
      "PRJ052",
      `cannot read ${place.display(place.folder)}: ${error.message}`,
      "check the permissions of the output folder and the folders above it",
    );
  }
}

export function lockRefusal(place: OutputPlace, error: LockBusyError): DiagnosticError {
  const lock = place.display(lockPath(place.folder));
  const who = error.holder ? `another generate (process ${error.holder.pid} on ${error.holder.host})` : "another generate";
  return refusal(
    place,
    "PRJ053",
    `${who} is writing ${place.display(place.folder)}, and did not finish while this one waited`,
    `run generate again once it is done; if no generate is running, delete ${lock}`,
  );
}

/** Something at the lock's path that generate did not make: removing it is the user's call. */
export function lockPathRefusal(place: OutputPlace, error: LockNotAFileError): DiagnosticError {
  const lock = place.display(error.lock);
  return refusal(
    place,
    "PRJ052",
    `${lock} is ${error.found}, not the lock file generate takes while it writes ${place.display(place.folder)}`,
    `remove ${lock}: generate creates its lock there as a plain file, and never follows or deletes what it did not make`,
  );
}

/** A failure of the file system while writing, such as a full disk or a folder without write permission. */
export function writeRefusal(place: OutputPlace, error: Error): DiagnosticError {
  return refusal(
    place,
    "PRJ052",
    `cannot write ${place.display(place.folder)}: ${error.message}`,
    "check the permissions and free space of the output folder's file system",
  );
}

/** Errors the operating system reported, as opposed to bugs. */
export const isSystemError = (error: unknown): error is NodeJS.ErrnoException =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === "string";
