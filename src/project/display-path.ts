import { relative, sep } from "node:path";

/** A path written with `/` on every system, as the generated files name their inputs. */
export const posix = (path: string) => path.split(sep).join("/");

/** How messages name a file: relative to the working directory. */
export const displayPath = (cwd: string, path: string) => posix(relative(cwd, path)) || ".";
