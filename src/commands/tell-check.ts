import { resolve } from "node:path";
import type { FolderCheck } from "../project/output-folder.js";
import type { Io } from "./io.js";

const commandLine = (options: { config: string }) =>
  options.config === "projector.yaml" ? "projector generate" : `projector generate -c ${options.config}`;

/** --check's verdict on the folder, said; whether it is up to date. */
export function tellCheck(
  check: FolderCheck,
  display: (path: string) => string,
  folder: string,
  options: { config: string; silent: boolean },
  io: Io,
): boolean {
  if (check.kind === "up to date") {
    if (!options.silent) io.stdout.write(`${display(folder)} is up to date\n`);
    return true;
  }
  if (check.kind === "mid-swap") {
    io.stderr.write(
      `${display(folder)} is not there: a generate was cut off while swapping it and left the previous output in ${display(check.backup)}\n` +
        `run \`${commandLine(options)}\` to put it back and bring it up to date\n`,
    );
    return false;
  }
  const { diff } = check;
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
