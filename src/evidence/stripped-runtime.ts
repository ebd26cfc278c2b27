import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type TypeScript from "typescript";
import { RUNTIME_FOLDER, type RuntimeTemplate } from "../emit/runtime-folder.js";
import { stripTypes } from "./strip-types.js";

/**
 * The runtime template's modules with their types blanked, made by `npm run build`: init runs the
 * runtime on every spec, and blanking it in the evidence thread cost that thread a third of a
 * second after loading TypeScript, on init's critical path. Each module is kept with the length
 * and hash of the source it came from, so a template edited since the build is blanked again
 * rather than run stale; the whole is kept with the hash of the blanking code that made it, so a
 * build of the code alone (`tsc`) leaves none of it in use.
 */
export interface StrippedRuntime {
  stripper: string;
  modules: Readonly<Record<string, StrippedModule>>;
}

interface StrippedModule {
  sourceLength: number;
  sourceHash: string;
  script: string;
}

/** Where the build writes it, beside this module in `dist`; run from the sources there is none. */
export const STRIPPED_RUNTIME_FILE = new URL("./stripped-runtime.json", import.meta.url);
/** The blanking code, as this process runs it. */
export const STRIPPER_FILE = new URL("./strip-types.js", import.meta.url);

export function stripRuntime(ts: typeof TypeScript, template: RuntimeTemplate, stripper: string): StrippedRuntime {
  const modules: Record<string, StrippedModule> = {};
  for (const [file, text] of template)
    modules[file] = { sourceLength: text.length, sourceHash: hashOf(text), script: stripTypes(ts, text, file) };
  return { stripper: hashOf(stripper), modules };
}

/**
 * The JavaScript of an output file that is a runtime module as the build blanked it, under a banner
 * of line comments (which blanking leaves as they are); undefined for any other file.
 */
export function strippedAlready(runtime: StrippedRuntime, path: string, text: string): string | undefined {
  const folder = `${RUNTIME_FOLDER}/`;
  if (!path.startsWith(folder)) return undefined;
  const file = path.slice(folder.length);
  const stripped = Object.hasOwn(runtime.modules, file) ? runtime.modules[file] : undefined;
  if (stripped === undefined || text.length < stripped.sourceLength) return undefined;
  const head = text.slice(0, text.length - stripped.sourceLength);
  if (!LINE_COMMENTS.test(head) || hashOf(text.slice(head.length)) !== stripped.sourceHash) return undefined;
  return head + stripped.script;
}

/**
 * Whole lines, each empty or a `//` comment (which JavaScript ends at U+2028 and U+2029 as well as
 * at a newline): blanking leaves them as they are, and nothing in them reaches into the module after.
 */
const LINE_COMMENTS = /^(?:(?:\/\/[^\r\n\u2028\u2029]*)?\r?\n)*$/;

const hashOf = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The blanked runtime in `file`, if there is one and the blanking code in `stripperFile` made it;
 * none otherwise (run from the sources there is no file), nor where either cannot be read: the
 * parser then blanks the runtime, slower but the same.
 */
export function readStrippedRuntime(file: URL, stripperFile: URL): StrippedRuntime {
  const none: StrippedRuntime = { stripper: "", modules: {} };
  try {
    const built = JSON.parse(readFileSync(file, "utf8")) as Partial<StrippedRuntime> | null;
    const madeHere = built?.stripper === hashOf(readFileSync(stripperFile, "utf8"));
    return madeHere && typeof built.modules === "object" && built.modules !== null ? (built as StrippedRuntime) : none;
  } catch {
    return none;
  }
}

/** The build's blanked runtime, read once a process. */
export function builtStrippedRuntime(): StrippedRuntime {
  built ??= readStrippedRuntime(STRIPPED_RUNTIME_FILE, STRIPPER_FILE);
  return built;
}

let built: StrippedRuntime | undefined;
