/** The runtime's modules, by file name in `templates/runtime/`: generate copies each into the output's `runtime/`. */
export type RuntimeTemplate = ReadonlyMap<string, string>;

/** The output's folder holding the runtime. */
export const RUNTIME_FOLDER = "runtime";

/** The module generated code imports the runtime from, relative to the output folder: the runtime's barrel. */
export const RUNTIME_ENTRY = `${RUNTIME_FOLDER}/index.js`;

/** The specifier importing the runtime from a module `depth` folders below the output folder. */
export const runtimeSpecifier = (depth: number): string => `${depth === 0 ? "./" : "../".repeat(depth)}${RUNTIME_ENTRY}`;
