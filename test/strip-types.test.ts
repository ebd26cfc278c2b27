// Blanking the types out of the projector's own TypeScript leaves the program TypeScript's emitter makes of it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type TypeScript from "typescript";
import { describe, expect, it } from "vitest";
import { runnableFolder } from "../src/evidence/run-generated.js";
import { stripTypes, typescript, UnstrippableSyntax } from "../src/evidence/strip-types.js";
import { ROOT } from "./helpers/pipeline.js";

const ts = typescript();

/** What JavaScript's grammar finds wrong in the text. */
const syntaxErrors = (js: string) =>
  (ts.transpileModule(js, { fileName: "module.js", reportDiagnostics: true }).diagnostics ?? []).map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, "\n"),
  );

/** The syntax tree as kinds and names, one node a line: parentheses TypeScript drops once an `as` is gone are left out. */
function shape(js: string): string {
  const source = ts.createSourceFile("module.js", js, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const lines: string[] = [];
  const walk = (node: TypeScript.Node, depth: number): void => {
    if (ts.isParenthesizedExpression(node)) {
      walk(node.expression, depth);
      return;
    }
    // TypeScript marks a module left with no import or export by `export {};`; a `.js` file of a `type: module` package is one anyway.
    if (ts.isExportDeclaration(node) && !node.moduleSpecifier && node.exportClause && ts.isNamedExports(node.exportClause))
      if (node.exportClause.elements.length === 0) return;
    const name = ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isLiteralExpression(node) ? ` ${node.text}` : "";
    lines.push(`${"  ".repeat(depth)}${ts.SyntaxKind[node.kind]}${name}`);
    ts.forEachChild(node, (child) => walk(child, depth + 1));
  };
  walk(source, 0);
  return lines.join("\n");
}

const transpiled = (text: string) =>
  ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;

const typeScriptFiles = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return typeScriptFiles(path);
    return path.endsWith(".ts") && name !== "openapi.ts" ? [path] : [];
  });

describe("stripTypes", () => {
  const scenarios = join(ROOT, "specs/scenarios");
  const files = [
    ...typeScriptFiles(join(ROOT, "templates/runtime")),
    ...readdirSync(scenarios)
      .filter((name) => statSync(join(scenarios, name)).isDirectory())
      .flatMap((name) => typeScriptFiles(join(scenarios, name, "generated"))),
  ];

  it("leaves the program TypeScript's emitter makes of every runtime module and every scenario's generated module", () => {
    expect(files.length).toBeGreaterThan(100);
    const differing = files.filter((file) => {
      const text = readFileSync(file, "utf8");
      const stripped = stripTypes(ts, text, file);
      return syntaxErrors(stripped).length > 0 || shape(stripped) !== shape(transpiled(text));
    });
    expect(differing).toEqual([]);
  });

  it.each([
    [
      "type-only names in lists that end in a comma",
      'import {\n  type A,\n  b,\n  type C,\n  type D,\n} from "./b.js";\nexport {\n  b,\n  type A,\n};\nexport const e: A | C | D = b;',
    ],
    [
      "type-only imports and exports",
      'import type { A } from "./a.js";\nimport { b, type C } from "./b.js";\nexport { type D, e } from "./e.js";\nexport const f: C = b;',
    ],
    ["an import of types alone, even unmarked as a whole", 'import { type A, type B } from "./a.js";\nexport const x = 1;'],
    [
      "annotations, optional parameters and generics",
      "export function f<T extends object>(a: T, b?: number): T[] { return [a].concat(new Array<T>()); }",
    ],
    [
      "`as`, `as const`, `satisfies` and `!`",
      "const x = (y as unknown as string[])!.length; const k = [1] as const; const s = {} satisfies object;",
    ],
    ["an arrow's return type over several lines", "const f = (a: number): {\n  b: number;\n} => ({ b: a });"],
    [
      "interfaces, aliases and overloads",
      "interface I { a: string }\ntype T = I | null;\nfunction g(a: string): void;\nfunction g(a: unknown) { return a; }",
    ],
    [
      "a class with modifiers, an implements clause and a `this` parameter",
      "class A<T> extends Error implements I { private readonly x: T; declare y: string; constructor(x: T) { super(); this.x = x; } m(this: A<T>, z?: number) { return z; } }",
    ],
    [
      "parameter properties",
      "class U { constructor(readonly value: unknown, private reason: string) {} }\nclass V extends Error { constructor(public code: number) { super('x'); } }",
    ],
    [
      "an index signature in a class, beside an object type's",
      "class W { [key: string]: unknown; a = 1; }\nconst o: { [key: string]: number } = {};",
    ],
  ])("blanks %s as TypeScript emits them", (_, text) => {
    const stripped = stripTypes(ts, text, "case.ts");
    expect(syntaxErrors(stripped)).toEqual([]);
    expect(shape(stripped)).toBe(shape(transpiled(text)));
  });

  it("keeps every character of the JavaScript in place, and the lines where they were", () => {
    const text = "const a: Map<string, number> = new Map<string, number>();\nexport type B = {\n  c: string;\n};\nexport const d = a!;\n";
    const stripped = stripTypes(ts, text, "case.ts");
    expect(stripped).toHaveLength(text.length);
    expect(stripped.split("\n").map((line) => line.trimEnd())).toEqual([
      "const a                      = new Map                ();",
      "",
      "",
      "",
      "export const d = a ;",
      "",
    ]);
  });

  it.each([
    ["an enum", "enum E { A }"],
    ["a namespace", "namespace N { export const a = 1; }"],
    ["`import =`", 'import fs = require("fs");'],
    ["an angle-bracket type assertion", "const a = <string>b;"],
  ])("refuses %s, which blanking cannot turn into JavaScript", (what, text) => {
    expect(() => stripTypes(ts, text, "case.ts")).toThrow(UnstrippableSyntax);
    expect(() => stripTypes(ts, text, "case.ts")).toThrow(`case.ts:1: ${what}`);
  });

  it("runs: a parameter property's value is on the instance, in the order TypeScript defines it", async () => {
    const modules = runnableFolder();
    try {
      await modules.add(
        new Map([["thing.ts", "export class Thing { other = 1; constructor(readonly value: unknown, readonly reason: string) {} }"]]),
      );
      const { Thing } = (await modules.load("thing")) as { Thing: new (value: unknown, reason: string) => object };
      expect(JSON.stringify(new Thing(2, "why"))).toBe('{"value":2,"reason":"why","other":1}');
    } finally {
      await modules.dispose();
    }
  });
});
