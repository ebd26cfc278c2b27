import { posix } from "node:path";
import { escapeControlCharacters } from "../control-characters.js";
import { RUNTIME_FOLDER } from "./runtime-folder.js";

/** Where every generated module imports the runtime from, relative to the output folder, without `.js`: the runtime folder's barrel. */
export const RUNTIME_MODULE = `${RUNTIME_FOLDER}/index`;

/** The source types' module, written by openapi-typescript. */
export const SOURCE_TYPES_MODULE = "openapi";

/** The resolvers' module: `Resolvers` and `Lookups`. */
export const RESOLVERS_MODULE = "resolvers";

/** `createResolvers`: the resolvers the annotation backs with an operation; written only when there are some. */
export const SPEC_RESOLVERS_MODULE = "spec-resolvers";

/** The tools' input half: definitions, calls, adapters. */
export const DEFINITIONS_MODULE = "definitions";

/** The barrel a consumer imports. */
export const INDEX_MODULE = "index";

type Use = "value" | "type";

/** How the module at `from` names the module at `to` in an import or export: `"../runtime.js"`. */
export function moduleSpecifier(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to);
  // As ts.ts's `literal` writes strings, which cannot be imported here: it names the writer.
  return escapeControlCharacters(JSON.stringify(`${relative.startsWith(".") ? "" : "./"}${relative}.js`));
}

/**
 * One generated module as it is written: its emitter asks it for every imported name as it writes
 * the code that uses that name, so the imports are exactly the names the code uses, and nothing is
 * read back from the code. Modules are named by their path in the output folder, without `.js`.
 */
export class ModuleWriter {
  /** By module: each imported name, how it is used, and the name it is bound to here. */
  private readonly imports = new Map<string, Map<string, { use: Use; as: string }>>();
  private readonly locals = new Set<string>();

  constructor(
    /** This module's path in the output folder, without `.ts`: `resources/ticket`. */
    readonly path: string,
  ) {}

  /** A runtime function, class or constant the code calls or reads; its name, or `as` when this module has its own of that name. */
  runtime(name: string, as?: string): string {
    return this.use(RUNTIME_MODULE, name, "value", as);
  }

  /** A runtime type the code names; its name. */
  runtimeType(name: string): string {
    return this.use(RUNTIME_MODULE, name, "type");
  }

  /** A value another generated module exports; its name. */
  value(module: string, name: string): string {
    return this.use(module, name, "value");
  }

  /** A type another generated module exports; its name. */
  type(module: string, name: string): string {
    return this.use(module, name, "type");
  }

  /**
   * A name this module declares at its top level, taken from `base`: different bases can fold to
   * one name (`foo-bar`, `foo_bar`), or to an imported one, so a later one gets a number.
   */
  local(base: string): string {
    let name = base;
    const taken = (candidate: string) =>
      this.locals.has(candidate) || [...this.imports.values()].some((names) => [...names.values()].some(({ as }) => as === candidate));
    for (let n = 2; taken(name); n++) name = `${base}_${n}`;
    this.locals.add(name);
    return name;
  }

  private use(module: string, name: string, use: Use, as = name): string {
    if (module === this.path) throw new Error(`${this.path} cannot import from itself`);
    if (this.locals.has(as)) throw new Error(`${this.path} declares ${as} and imports it from ${module}`);
    const names = this.imports.get(module) ?? new Map<string, { use: Use; as: string }>();
    this.imports.set(module, names);
    // A name used as a value and as a type is imported once, as a value.
    if (names.get(name)?.use !== "value") names.set(name, { use, as });
    return as;
  }

  /** The import declarations, by module path, values before types, each group sorted, so they never depend on the order of use. */
  importLines(): string[] {
    return [...this.imports]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([module, names]) => {
        const bound = (use: Use) =>
          [...names]
            .filter(([, name]) => name.use === use)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([name, { as }]) => (as === name ? name : `${name} as ${as}`));
        const values = bound("value");
        const types = bound("type");
        const from = moduleSpecifier(this.path, module);
        if (values.length === 0) return `import type { ${types.join(", ")} } from ${from};`;
        return `import { ${[...values, ...types.map((t) => `type ${t}`)].join(", ")} } from ${from};`;
      });
  }

  /** The whole module: its imports, then the code written with this writer. */
  render(code: string): string {
    const imports = this.importLines();
    return imports.length ? `${imports.join("\n")}\n\n${code}` : code;
  }
}

/**
 * A function's locals, declared only when its code reads them. Each declaration is written when the
 * body is done, and may itself read locals listed before it (`attributes` reads `root`), so they
 * are resolved from the last to the first and printed in the order given.
 */
export class Locals<Name extends string> {
  private readonly used = new Set<Name>();

  constructor(private readonly declarations: { readonly [N in Name]: { declare: () => string; otherwise?: () => string } }) {}

  /** The local's name, recorded as read. */
  use(name: Name): string {
    this.used.add(name);
    return name;
  }

  /** The statements that declare the locals read so far (or stand in for unread ones that have an `otherwise`). */
  statements(): string[] {
    const names = Object.keys(this.declarations) as Name[];
    const statements: string[] = [];
    for (const name of [...names].reverse()) {
      const declaration = this.declarations[name];
      const statement = this.used.has(name) ? declaration.declare() : declaration.otherwise?.();
      if (statement !== undefined) statements.unshift(statement);
    }
    return statements;
  }
}
