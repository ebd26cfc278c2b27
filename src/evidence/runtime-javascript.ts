import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { RUNTIME_FOLDER } from "../emit/runtime-folder.js";

// The runtime's modules are the same in every output folder but for the banner: `npm run build`
// transpiles them once (build-runtime-javascript.ts), so that init, tokens, eval, serve and the budget
// check transpile only the modules generated for the spec. Run from the sources (the tests), where
// there is no build, every module is transpiled.

/** Where the build writes the runtime's JavaScript, and its manifest.json. */
export const RUNTIME_JAVASCRIPT = new URL("./runtime-javascript/", import.meta.url);

/** What the build transpiled each template file from (by file name): its text's digest and length. */
export type RuntimeManifest = Record<string, { sha256: string; length: number }>;

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A file's text is the template's with only comment lines (the banner) before it. */
const BANNER = /^(?:\/\/[^\n]*\n)*$/;

/**
 * The build's JavaScript for an output file, when it is a runtime module whose text is the banner
 * and the very template text the build transpiled; undefined otherwise (no build, another text).
 */
export function prebuiltRuntime(): (path: string, text: string) => string | undefined {
  built ??= readManifest();
  const manifest = built;
  return (path, text) => {
    const file = path.startsWith(`${RUNTIME_FOLDER}/`) ? path.slice(RUNTIME_FOLDER.length + 1) : undefined;
    const entry = file === undefined ? undefined : manifest[file];
    if (!entry || text.length < entry.length) return undefined;
    const cut = text.length - entry.length;
    if (!BANNER.test(text.slice(0, cut)) || sha256(text.slice(cut)) !== entry.sha256) return undefined;
    return text.slice(0, cut) + readFileSync(new URL(file!.replace(/\.ts$/, ".js"), RUNTIME_JAVASCRIPT), "utf8");
  };
}
let built: RuntimeManifest | undefined;

function readManifest(): RuntimeManifest {
  try {
    return JSON.parse(readFileSync(new URL("manifest.json", RUNTIME_JAVASCRIPT), "utf8")) as RuntimeManifest;
  } catch {
    return {};
  }
}
