import { literal } from "./ts.js";

/**
 * The part of an openapi-fetch client some generated code calls, one method per HTTP verb, typed by
 * the paths it sends to, and answering as openapi-fetch does (`answer`, a response with its status):
 * a client made for another spec, or an object that only has the methods, does not fit. Written out
 * rather than `Client<paths>` imported, so the folder compiles without openapi-fetch; only the code
 * that makes the client needs it, any version from 0.13 to 0.17.
 */
export function clientInterface(
  name: string,
  doc: string,
  calls: readonly { method: string; path: string }[],
  answer: () => string,
): string[] {
  const byMethod = new Map<string, Set<string>>();
  for (const call of calls) {
    const method = call.method.toUpperCase();
    if (!byMethod.has(method)) byMethod.set(method, new Set());
    byMethod.get(method)!.add(call.path);
  }
  const methods = [...byMethod].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    `/** ${doc} */`,
    `export interface ${name} {`,
    ...methods.map(
      ([method, paths]) =>
        `  readonly ${method}: (url: ${[...paths]
          .sort()
          .map((p) => literal(p))
          .join(" | ")}, init: never) => Promise<${answer()}>;`,
    ),
    `}`,
    "",
  ];
}
