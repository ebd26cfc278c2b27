import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type * as Prettier from "prettier";
import { withPeer, withPeerSync } from "./peers.js";

// What generate asks of prettier before it formats anything (whether the consumer configures it,
// which release is installed), without loading the layout: a regenerate with nothing to do asks it too.

/** Only prettier's entry is loaded up front; its parsers and printers only for a file that needs them. */
export const loadPrettier = () => withPeer("prettier", () => import("prettier"));

/** The prettier config that applies to files in `folder`, if the consumer has one. */
export async function consumerPrettierConfig(folder: string): Promise<Prettier.Options | null> {
  if (!mayHavePrettierConfig(folder)) return null;
  const prettier = await loadPrettier();
  return prettier.resolveConfig(`${folder}/index.ts`, { editorconfig: false });
}

/** Every name prettier 3 reads a config from, and more: a match only means prettier is asked. */
const PRETTIER_CONFIG_FILE = /^(?:\.prettierrc(?:\..+)?|prettier\.config\.[cm]?[jt]s)$/;

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
    for (const name of names) {
      if (PRETTIER_CONFIG_FILE.test(name)) return true;
      if ((name === "package.json" || name === "package.yaml") && readText(join(dir, name)).includes("prettier")) return true;
    }
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
  prettierRelease ??= (
    JSON.parse(
      readFileSync(
        new URL(
          "./package.json",
          withPeerSync("prettier", () => import.meta.resolve("prettier")),
        ),
        "utf8",
      ),
    ) as {
      version: string;
    }
  ).version;
  return prettierRelease;
}

let prettierRelease: string | undefined;
