import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { parseAnnotation } from "../../src/annotation/parse.js";
import { DiagnosticError, type Diagnostic } from "../../src/diagnostics.js";
import { generate, type GenerateInput, type GenerateOutput } from "../../src/generate.js";
import { loadSpec } from "../../src/openapi/load.js";
import { runCli } from "../../src/commands/run.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const REAL_SPECS = resolve(ROOT, "../shared/real-specs");
const TEMPLATE = readFileSync(join(ROOT, "templates/runtime.ts"), "utf8");

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

/** Writes generated files to a folder, with each module transpiled to JavaScript beside it, and imports the index. */
export async function importGenerated<T = Record<string, unknown>>(files: Map<string, string>): Promise<T> {
  const dir = tempDir("projector-gen-");
  for (const [path, text] of files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(target.replace(/\.ts$/, ".js"), js);
  }
  return (await import(pathToFileURL(join(dir, "index.js")).href)) as T;
}

/**
 * Type-checks files with the flags the README promises the generated code compiles under, plus the
 * rest of @tsconfig/strictest, which consumers who use it will hold the generated code to.
 */
export function typecheck(rootFiles: string[], types: string[] = []): string[] {
  const options = { ...STRICTEST, types };
  const program = ts.createProgram({ rootNames: rootFiles, options, host: sharingDeclarations(options) });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

const STRICTEST: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
};

/**
 * Parsed and bound declaration files of TypeScript's libs and of node_modules, kept for the next
 * program in this process, as a language service's document registry keeps them: every program
 * here has the same options but `types`, which does not change how a file parses or binds.
 */
const declarations = new Map<string, ts.SourceFile>();

function sharingDeclarations(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!/\.d\.[cm]?ts$/.test(fileName) || !fileName.includes("/node_modules/"))
      return read(fileName, languageVersion, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    let file = declarations.get(key);
    if (!file) {
      file = read(fileName, languageVersion, onError, shouldCreate);
      if (file) declarations.set(key, file);
    }
    return file;
  };
  return host;
}

/** Writes generated files to a temporary folder and type-checks them. */
export function typecheckFiles(files: Map<string, string>, extra: Record<string, string> = {}): string[] {
  const dir = tempDir("projector-tsc-");
  for (const [path, text] of [...files, ...Object.entries(extra)]) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  // Fixtures beside the generated code make openapi-fetch clients and use the MCP SDK, as consumers do.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return typecheck([...files.keys(), ...Object.keys(extra)].map((p) => join(dir, p)));
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
