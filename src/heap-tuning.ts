import { setFlagsFromString } from "node:v8";

/**
 * Turns off V8's allocation-site pretenuring for the CLI's process; only the CLI calls it, since a
 * library must not change its host's heap. Laying out a large file keeps its tokens and syntax tree
 * alive long enough that V8 starts allocating objects from those sites straight into the old
 * generation; the files after it are small and their objects die young, but from old objects they
 * keep the young ones they point to alive, through every young collection, until the next full one.
 * On a spec of 1,280 tools that made the layout copy 140 MB between generations instead of 64 MB,
 * and took 11% off generate's time and 1.1 s off its CPU time when turned off. V8 reads the flag at
 * each collection, so setting it once the process runs takes effect from the next.
 */
export function keepShortLivedObjectsYoung(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
