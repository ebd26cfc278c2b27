import { runtimeSpecifier, type RuntimeTemplate } from "./runtime-folder.js";

/** The names the runtime's barrel (`templates/runtime/index.ts`) exports, by how generated code can use them. */
export interface RuntimeExports {
  functions: string[];
  constants: string[];
  types: string[];
}

export function runtimeExports(template: RuntimeTemplate): RuntimeExports {
  const barrel = template.get("index.ts") ?? "";
  // The barrel lists what the consumer gets; the other modules' declarations say what kind each name is.
  const offered = new Set(
    [...barrel.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(",").map((name) => name.trim())),
  );
  const declarations = [...template].filter(([file]) => file !== "index.ts").map(([, text]) => text);
  const names = (pattern: RegExp) =>
    declarations
      .flatMap((text) => [...text.matchAll(pattern)].map((m) => m[1]!))
      .filter((name) => offered.has(name))
      .sort();
  return {
    functions: names(/^export (?:async )?function (\w+)/gm),
    constants: names(/^export const (\w+)/gm),
    types: names(/^export (?:interface|type|class) (\w+)/gm),
  };
}

export const IMPORTS_PLACEHOLDER = "\u0000imports";

/**
 * Replaces the placeholder with imports of exactly the runtime names the module uses, so consumers'
 * unused-import checks stay quiet. A function counts as used when called, a type when named, in
 * code: not in a comment or a string.
 */
export function withRuntimeImports(code: string, runtime: RuntimeExports, others: string[] = []): string {
  // Only code counts: a description that says "Model Context Protocol" does not use `Context`.
  const body = code.replace(IMPORTS_PLACEHOLDER, "").replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '""');
  const values = [
    ...runtime.functions.filter((name) => new RegExp(`\\b${name}[<(]`).test(body)),
    ...runtime.constants.filter((name) => new RegExp(`\\b${name}\\b`).test(body)),
  ];
  const classes = runtime.types.filter((name) => new RegExp(`\\b${name}[(.]|new ${name}\\b`).test(body));
  const types = runtime.types.filter((name) => !classes.includes(name) && new RegExp(`\\b${name}\\b`).test(body));
  const specifiers = [...values, ...classes].sort().concat(types.sort().map((t) => `type ${t}`));
  const lines = [...others, ...(specifiers.length ? [`import { ${specifiers.join(", ")} } from "${runtimeSpecifier(1)}";`] : [])];
  return code.replace(IMPORTS_PLACEHOLDER, lines.join("\n"));
}
