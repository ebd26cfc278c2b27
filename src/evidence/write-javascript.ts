import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { transform } from "sucrase";
import type TypeScript from "typescript";
import { prebuiltRuntime } from "./runtime-javascript.js";

/**
 * TypeScript itself, through `require`: importing it as an ES module makes Node scan its CommonJS
 * for export names first.
 */
export const typescript = (): typeof TypeScript => createRequire(import.meta.url)("typescript") as typeof TypeScript;

/**
 * The modules as JavaScript, by TypeScript's own compiler, each on its own as `transpileModule`
 * compiles it (isolated modules, no imports followed, nothing checked), but all in one program:
 * a program per module, as `transpileModule` makes, costs more than the modules themselves.
 */
export function transpiled(ts: typeof TypeScript, files: ReadonlyMap<string, string>): Map<string, string> {
  // As `transpileModule` compiles, for modules that are run here and never shown.
  const options: TypeScript.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noLib: true,
    noResolve: true,
    noCheck: true,
    allowNonTsExtensions: true,
    suppressOutputPathCheck: true,
  };
  // Each module under a root of its own, so no file name of the host's is ever read.
  const root = "/generated/";
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (name, languageVersion) => {
    const text = name.startsWith(root) ? files.get(name.slice(root.length)) : undefined;
    return text === undefined ? undefined : ts.createSourceFile(name, text, languageVersion);
  };
  host.fileExists = (name) => name.startsWith(root) && files.has(name.slice(root.length));
  host.readFile = (name) => (name.startsWith(root) ? files.get(name.slice(root.length)) : undefined);
  host.getCurrentDirectory = () => root;
  const javascript = new Map<string, string>();
  host.writeFile = (name, text) => javascript.set(name.slice(root.length), text);
  const roots = [...files.keys()].map((path) => root + path);
  ts.createProgram(roots, options, host).emit();
  return new Map(
    [...files.keys()].map((path) => {
      const text = javascript.get(path.replace(/\.ts$/, ".js"));
      if (text === undefined) throw new Error(`TypeScript wrote no JavaScript for ${path}`);
      return [path, text];
    }),
  );
}

/**
 * The modules as JavaScript with their types taken out by sucrase, which only removes what is
 * TypeScript's and leaves the rest as written: the program TypeScript's compiler gives for every
 * module projector writes (test/runtime-javascript.test.ts compares the two on the bundled example
 * and every scenario), several times faster, which is most of what `init` waits for on a large spec.
 */
export function typesRemoved(files: ReadonlyMap<string, string>): Map<string, string> {
  return new Map(
    [...files].map(([path, text]) => [
      path,
      // Imports stay as written, as `verbatimModuleSyntax` keeps them; syntax newer than the types is left to Node.
      transform(text, { transforms: ["typescript"], keepUnusedImports: true, disableESTransforms: true, filePath: path }).code,
    ]),
  );
}

/**
 * A namespace (or a `module` block) begun at a statement's start. Sucrase keeps only the `declare`
 * ones and drops any other without a word, so a module that may hold one goes through TypeScript's
 * compiler; a comment or text that merely looks like one costs only the compiler's time.
 */
const MAY_DECLARE_NAMESPACE = /(?:^|[;{}])\s*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+[\w$"']/m;

/** The modules as JavaScript: by {@link typesRemoved}, or by TypeScript's compiler where sucrase would drop a namespace. */
export function javascriptOf(files: ReadonlyMap<string, string>): Map<string, string> {
  const byCompiler = new Map<string, string>();
  const bySucrase = new Map<string, string>();
  for (const [path, text] of files) (MAY_DECLARE_NAMESPACE.test(text) ? byCompiler : bySucrase).set(path, text);
  const javascript = typesRemoved(bySucrase);
  if (byCompiler.size > 0) for (const [path, text] of transpiled(typescript(), byCompiler)) javascript.set(path, text);
  return javascript;
}

/**
 * Writes each module as JavaScript into `dir`: the runtime's modules as the build transpiled them
 * where their text is the one it built from, the others by {@link javascriptOf}. Synchronous:
 * a few hundred small files are written without a promise per step. The source types
 * (`openapi.ts`) are types only, and files that are no modules (the folder's `.projector`) are no
 * code: both are skipped.
 */
export function writeJavaScript(dir: string, files: Iterable<readonly [path: string, text: string]>): void {
  const prebuilt = prebuiltRuntime();
  const javascript = new Map<string, string>();
  const todo = new Map<string, string>();
  for (const [path, text] of files) {
    if (path === "openapi.ts" || !path.endsWith(".ts")) continue;
    const built = prebuilt(path, text);
    if (built === undefined) todo.set(path, text);
    else javascript.set(path, built);
  }
  if (todo.size > 0) for (const [path, text] of javascriptOf(todo)) javascript.set(path, text);
  const folders = new Set<string>();
  for (const [path, text] of javascript) {
    const target = join(dir, path.replace(/\.ts$/, ".js"));
    const folder = dirname(target);
    if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
    folders.add(folder);
    writeFileSync(target, text);
  }
}

/** Imports a module {@link writeJavaScript} wrote, by its path in the output folder without `.ts`: `tools/list-incidents`. */
export const importFrom =
  (dir: string) =>
  async (stem: string): Promise<Record<string, unknown>> =>
    (await import(pathToFileURL(join(dir, `${stem}.js`)).href)) as Record<string, unknown>;
