// The layers of src/ form no circle: each module imports only from its own layer or those below
// it (LAYERS), and within a layer no modules import each other in a circle. A cycle anywhere, even
// through a type-only import, fails here with the modules on it.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/pipeline.js";

const SRC = join(ROOT, "src");

/**
 * src/'s layers, top first, each a list of folders (ending in `/`) and files. The CLI and the
 * library's entry on top; the commands, which parse arguments and print; the driver that runs a
 * generate (project/); the evidence tools; the output folder's safe writes; the pure generator and
 * its stages, format, emit, model, openapi and annotation, in the order they depend on each other;
 * the field rules (rules/) they all read; and the small modules everyone shares.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["cli.ts", "index.ts"],
  ["commands/"],
  ["serve/"],
  ["project/"],
  ["init/"],
  ["evidence/"],
  ["output/"],
  ["generate.ts", "generate-cache.ts", "summary.ts"],
  ["format.ts", "prettier-config.ts"],
  ["emit/"],
  ["model/"],
  ["openapi/"],
  ["annotation/"],
  ["rules/"],
  [
    "control-characters.ts",
    "diagnostics.ts",
    "indefinite-article.ts",
    "json-locate.ts",
    "naming.ts",
    "peers.ts",
    "progress.ts",
    "redis-id-book.ts",
    "suggest.ts",
    "yaml-aliases.ts",
    "yaml-source.ts",
  ],
];

/** The index in LAYERS of a module (a path relative to src/), or -1 when no layer names it. */
const layerOf = (module: string): number =>
  LAYERS.findIndex((layer) => layer.some((entry) => (entry.endsWith("/") ? module.startsWith(entry) : module === entry)));

/** Every import that goes up the layers, as `from -> to`. */
function importsUpward(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([module, targets]) =>
    targets.filter((target) => layerOf(target) < layerOf(module)).map((target) => `${module} -> ${target}`),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts"))
    .sort();
}

/** Each module's relative imports within src/, as paths relative to src/. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => relative(SRC, resolve(dirname(file), name.replace(/\.js$/, ".ts"))));
    graph.set(relative(SRC, file), [...new Set(targets)].sort());
  }
  return graph;
}

/** The first cycle a depth-first walk meets, as the modules on it with the first repeated last; none when the graph has none. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (module: string): string[] | undefined => {
    const at = path.indexOf(module);
    if (at >= 0) return [...path.slice(at), module];
    if (done.has(module)) return undefined;
    path.push(module);
    for (const next of graph.get(module) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(module);
    return undefined;
  };
  for (const module of [...graph.keys()].sort()) {
    const cycle = visit(module);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("import graph of src/", () => {
  it("finds a cycle when there is one, and none in a chain", () => {
    const circle = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
    ]);
    expect(findCycle(circle)).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
    expect(
      findCycle(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["d.ts", ["b.ts"]],
        ]),
      ),
    ).toBeUndefined();
  });

  it("reads every relative import, type-only ones too", () => {
    const graph = importGraph(sourceFiles(SRC));
    expect(graph.get("commands/run.ts")).toContain("commands/io.ts");
    expect(graph.get("emit/emit.ts")).toContain("emit/module.ts");
    // `import type { InputNames } from "../emit/emit.js"`
    expect(graph.get("project/read.ts")).toContain("emit/emit.ts");
  });

  it("has no cycle", () => {
    expect(findCycle(importGraph(sourceFiles(SRC)))).toBeUndefined();
  });

  it("places every module in a layer", () => {
    expect([...importGraph(sourceFiles(SRC)).keys()].filter((module) => layerOf(module) < 0)).toEqual([]);
  });

  it("finds an import that goes up the layers", () => {
    expect(importsUpward(new Map([["emit/emit.ts", ["model/types.ts", "project/read.ts"]]]))).toEqual(["emit/emit.ts -> project/read.ts"]);
  });

  it("imports only from a module's own layer or those below it", () => {
    expect(importsUpward(importGraph(sourceFiles(SRC)))).toEqual([]);
  });
});
