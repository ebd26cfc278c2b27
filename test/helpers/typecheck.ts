// Type-checks generated code as consumers compile it. Cheap enough to run often: declaration files
// are parsed once per process, and a runtime module copied into many folders is checked once.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * The flags the README promises the generated code compiles under, plus the rest of
 * @tsconfig/strictest, which consumers who use it will hold the generated code to.
 */
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

/** Type-checks files under the strictest flags; returns each problem as `file:line message`. */
export function typecheck(rootFiles: string[], types: string[] = []): string[] {
  const options = { ...STRICTEST, types };
  const program = ts.createProgram({ rootNames: rootFiles, options, host: sharingDeclarations(options) });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

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
  const dir = mkdtempSync(join(tmpdir(), "projector-tsc-"));
  const written = new Map([...shareCopies(files), ...Object.entries(extra)]);
  for (const [path, text] of written) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  // Fixtures beside the generated code make openapi-fetch clients and use the MCP SDK, as consumers do.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return typecheck([...written.keys()].map((p) => join(dir, p)));
}

/** The banner comment every generated file starts with. */
const LEADING_COMMENTS = /^(\/\/.*\n)*/;

/** A runtime module in an output folder: `…/runtime/dates.ts`. */
const RUNTIME_MODULE = /(?:^|\/)runtime\/([^/]+\.ts)$/;

/**
 * Several output folders checked in one program each hold the runtime's modules, the same texts
 * under a banner naming their inputs. A runtime module imports only its siblings, so a folder whose
 * module is the same text as the shared one checks the same wherever it is: each module is checked
 * once, in `.shared-copies/runtime/`, and every copy keeps its banner (which a hostile file name
 * could break out of) above an `export *` of it. When any copy differs, every copy is checked in full.
 */
function shareCopies(files: Map<string, string>): Map<string, string> {
  const byModule = new Map<string, Map<string, string[]>>();
  for (const [path, text] of files) {
    const name = RUNTIME_MODULE.exec(path)?.[1];
    if (name === undefined) continue;
    const body = text.replace(LEADING_COMMENTS, "");
    const variants = byModule.get(name) ?? new Map<string, string[]>();
    byModule.set(name, variants);
    variants.set(body, [...(variants.get(body) ?? []), path]);
  }
  const result = new Map(files);
  // A shared module imports shared siblings, so sharing needs every copy of every module alike.
  if ([...byModule.values()].some((variants) => variants.size > 1)) return result;
  for (const [name, variants] of byModule) {
    const [[body, paths]] = [...variants] as [[string, string[]]];
    if (paths.length < 2) continue;
    const shared = `.shared-copies/runtime/${name}`;
    result.set(shared, body);
    for (const path of paths) {
      const target = posix.relative(posix.dirname(path), shared.replace(/\.ts$/, ".js"));
      const banner = LEADING_COMMENTS.exec(files.get(path)!)![0];
      result.set(path, `${banner}export * from "${target.startsWith(".") ? target : `./${target}`}";\n`);
    }
  }
  return result;
}
