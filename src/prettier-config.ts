import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type * as Prettier from "prettier";
import { withPeer, withPeerSync } from "./peers.js";

// What generate asks of prettier before it formats anything (whether the consumer configures it,
// which release is installed), without loading the layout: a regenerate with nothing to do asks it too.

/** Only prettier's entry is loaded up front; its parsers and printers only for a file that needs them. */
export const loadPrettier = () => withPeer("prettier", () => import("prettier"));

/** The consumer's prettier options for each output file, by its path in the output folder. */
export type PrettierOptionsByFile = Readonly<Record<string, Prettier.Options>>;

/** The options for each of these files of the output folder; null where the consumer configures none. */
export type PrettierOptionsFor = (paths: readonly string[]) => Promise<PrettierOptionsByFile | null>;

/**
 * The consumer's prettier options for files of the output folder, resolved as the prettier CLI
 * resolves them: for each file's own path (so `overrides` apply), `.editorconfig` included. A
 * consumer's `prettier --check` then agrees with what generate writes.
 */
export function consumerPrettierConfig(folder: string): PrettierOptionsFor {
  return async (paths) => {
    if (!mayHavePrettierConfig(folder)) return null;
    const prettier = await loadPrettier();
    // Configs are read as they are now: a process that generates again (--watch) sees their edits.
    await prettier.clearConfigCache();
    const sorted = [...new Set(paths)].sort();
    const resolved = await Promise.all(sorted.map((path) => prettier.resolveConfig(join(folder, path), { editorconfig: true }))).catch(
      (error: unknown) => {
        throw new PrettierConfigError(error instanceof Error ? error.message : String(error));
      },
    );
    if (resolved.every((options) => options === null)) return null;
    return Object.fromEntries(sorted.map((path, i) => [path, resolved[i] ?? {}]));
  };
}

/** The consumer's prettier config could not be read (prettier's own words in the message). */
export class PrettierConfigError extends Error {
  constructor(readonly reason: string) {
    super(`prettier cannot read its config: ${reason}`);
    this.name = "PrettierConfigError";
  }
}

/**
 * Whether any file's options load prettier plugins: a plugin's code shapes the output, yet neither
 * the options nor prettier's release tell when it changes, so no digest vouches for such a run.
 */
export const loadsPlugins = (options: PrettierOptionsByFile | null): boolean =>
  Object.values(options ?? {}).some((forFile) => (forFile.plugins?.length ?? 0) > 0);

/** Every name prettier 3 reads a config from (`.editorconfig` included), and more: a match only means prettier is asked. */
const PRETTIER_CONFIG_FILE = /^(?:\.prettierrc(?:\..+)?|prettier\.config\.[cm]?[jt]s|\.editorconfig)$/;

/** Whether prettier could read a config from a file of this name (a watcher runs again when one appears). */
export const isPrettierConfigName = (name: string): boolean => PRETTIER_CONFIG_FILE.test(name);

/**
 * Whether prettier could read a config from this file: one of a config's names, or a package.json or
 * package.yaml that mentions prettier (its `prettier` key).
 */
export const holdsPrettierConfig = (path: string): boolean => {
  const name = basename(path);
  return isPrettierConfigName(name) || ((name === "package.json" || name === "package.yaml") && readText(path).includes("prettier"));
};

/**
 * Whether a folder or one above it holds a file prettier could read a config from, so that prettier
 * need not be loaded only to find there is none.
 */
function mayHavePrettierConfig(folder: string): boolean {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // A folder not made yet, or not readable: prettier finds nothing there either.
    }
    if (names.some((name) => holdsPrettierConfig(join(dir, name)))) return true;
    if (dirname(dir) === dir) return false;
  }
}

const readText = (path: string): string => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

/** The release of the prettier this process would load, read from its package.json without loading it. */
export function prettierVersion(): string {
  if (prettierRelease === undefined) {
    const manifest = new URL(
      "./package.json",
      withPeerSync("prettier", () => import.meta.resolve("prettier")),
    );
    prettierRelease = (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
  }
  return prettierRelease;
}

let prettierRelease: string | undefined;
