/** The runtime's modules, by file name in `templates/runtime/`: generate copies each into the output's `runtime/`. */
export type RuntimeTemplate = ReadonlyMap<string, string>;

/** The output's folder holding the runtime. */
export const RUNTIME_FOLDER = "runtime";
