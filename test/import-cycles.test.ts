// The layers of src/ form no circle: annotation, openapi, model, emit, the pure generate, the
// project layer that reads files, and the commands on top. A cycle anywhere, even through a
// type-only import, fails here with the modules on it.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/pipeline.js";

const SRC = join(ROOT, "src");

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
});
