import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { parseAnnotation } from "../../src/annotation/parse.js";
import { DiagnosticError, type Diagnostic } from "../../src/diagnostics.js";
import { generate, type GenerateInput, type GenerateOutput } from "../../src/generate.js";
import { loadSpec } from "../../src/openapi/load.js";
import { readRuntimeTemplate } from "../../src/emit/runtime-template.js";
import { runCli } from "../../src/commands/run.js";

export { typecheck, typecheckFiles } from "./typecheck.js";

export const ROOT = resolve(import.meta.dirname, "../..");

/** How many files `generate` writes for the bundled example: those of its checked-in output folder. */
export const BUNDLED_FILES = readdirSync(join(ROOT, "generated/support"), { recursive: true, withFileTypes: true }).filter((entry) =>
  entry.isFile(),
).length;
export const REAL_SPECS = resolve(ROOT, "../shared/real-specs");
/** The entry file of each real spec in {@link REAL_SPECS}, the one spread over 2,900 files first. */
export const REAL_SPEC_FILES = [
  "digitalocean/specification/DigitalOcean-public.v2.yaml",
  "datadog_v2_openapi.yaml",
  "box_openapi.json",
  "pagerduty_rest_openapiv3.json",
  "sentry_openapi_derefed.json",
  "tidal_api_oas.json",
] as const;
const TEMPLATE = await readRuntimeTemplate();

export function tempDir(prefix = "projector-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The generate pipeline in memory, as the CLI runs it, for an annotation file on disk. */
export async function generateFrom(
  configPath: string,
  options: Pick<Partial<GenerateInput>, "prettierOptions" | "cache"> = {},
): Promise<GenerateOutput & { problems: Diagnostic[] }> {
  const dir = dirname(configPath);
  try {
    const annotation = parseAnnotation(readFileSync(configPath, "utf8"), relative(ROOT, configPath));
    const specPath = resolve(dir, annotation.spec);
    const spec = await loadSpec(specPath, relative(ROOT, specPath));
    const output = await generate({
      annotation,
      spec,
      runtimeTemplate: TEMPLATE,
      prettierOptions: options.prettierOptions ?? null,
      ...(options.cache ? { cache: options.cache } : {}),
      names: { spec: relative(dir, specPath), annotation: relative(dir, configPath) },
    });
    return { ...output, problems: output.diagnostics.filter((d) => d.severity === "error") };
  } catch (error) {
    if (error instanceof DiagnosticError)
      return { diagnostics: [...error.diagnostics], problems: [...error.diagnostics], files: new Map() };
    throw error;
  }
}

/**
 * JavaScript by TypeScript text: most folders a test imports hold the same runtime modules under a banner
 * naming their inputs. The banner's comment lines are kept as they are; the rest is transpiled once.
 */
const transpiled = new Map<string, string>();
function transpile(text: string): string {
  const banner = /^(\/\/.*\n)*/.exec(text)![0];
  const body = text.slice(banner.length);
  let js = transpiled.get(body);
  if (js === undefined) {
    js = ts.transpileModule(body, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    transpiled.set(body, js);
  }
  return banner + js;
}

/** Writes generated files to a folder, with each module transpiled to JavaScript beside it, and imports the index. */
export async function importGenerated<T = Record<string, unknown>>(files: Map<string, string>): Promise<T> {
  const dir = tempDir("projector-gen-");
  for (const [path, text] of files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    writeFileSync(target.replace(/\.ts$/, ".js"), transpile(text));
  }
  return (await import(pathToFileURL(join(dir, "index.js")).href)) as T;
}

/** Runs the CLI in-process, capturing what it prints. */
export async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    cwd,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/** A resolver that records its calls and answers from a fixed table. */
export function recordingResolver(labels: Record<string, string>) {
  const calls: string[][] = [];
  const resolver = async (ids: readonly string[]) => {
    calls.push([...ids]);
    return new Map(ids.flatMap((id) => (labels[id] !== undefined ? [[id, labels[id]!] as const] : [])));
  };
  return { resolver, calls };
}
