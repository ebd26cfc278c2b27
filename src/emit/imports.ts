/** The names `templates/runtime.ts` exports, by how generated code can use them. */
export interface RuntimeExports {
  functions: string[];
  constants: string[];
  types: string[];
}

export function runtimeExports(template: string): RuntimeExports {
  const names = (pattern: RegExp) => [...template.matchAll(pattern)].map((m) => m[1]!).sort();
  return {
    functions: names(/^export (?:async )?function (\w+)/gm),
    constants: names(/^export const (\w+)/gm),
    types: names(/^export (?:interface|type|class) (\w+)/gm),
  };
}

export const IMPORTS_PLACEHOLDER = "\u0000imports";

/**
 * Replaces the placeholder with imports of exactly the runtime names the module uses, so consumers'
 * unused-import checks stay quiet. A function counts as used when called, a type when named.
 */
export function withRuntimeImports(code: string, runtime: RuntimeExports, others: string[] = []): string {
  // Only code counts: a spec's description ("Labels will be applied to all nodes") in a comment or a
  // schema string would otherwise import a type nothing uses, which strict consumers refuse.
  const body = code.replace(IMPORTS_PLACEHOLDER, "").replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, " ");
  const values = [...runtime.functions.filter((name) => new RegExp(`\\b${name}[<(]`).test(body)), ...runtime.constants.filter((name) => new RegExp(`\\b${name}\\b`).test(body))];
  const classes = runtime.types.filter((name) => new RegExp(`\\b${name}[(.]|new ${name}\\b`).test(body));
  const types = runtime.types.filter((name) => !classes.includes(name) && new RegExp(`\\b${name}\\b`).test(body));
  const specifiers = [...values, ...classes].sort().concat(types.sort().map((t) => `type ${t}`));
  const lines = [...others, ...(specifiers.length ? [`import { ${specifiers.join(", ")} } from "../runtime.js";`] : [])];
  return code.replace(IMPORTS_PLACEHOLDER, lines.join("\n"));
}
