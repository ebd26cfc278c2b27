import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { exampleProject } from "./example-project.js";
import { ROOT } from "./pipeline.js";

/** The built CLI, as an MCP client starts it. */
export const CLI = join(ROOT, "dist/cli.js");

/** A copy of the bundled example whose annotation's `serve:` section is `serve`. */
export function projectServing(serve: string, edit: (annotation: string) => string = (annotation) => annotation): string {
  const dir = exampleProject();
  const annotation = edit(readFileSync(join(dir, "projector.yaml"), "utf8"));
  writeFileSync(join(dir, "projector.yaml"), `${annotation.slice(0, annotation.indexOf("\nserve:"))}\n${serve}`);
  return dir;
}

/** Stops a server of the test's, its open connections too. */
export const stop = async (server: Server) => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
};

/** The serve process, spoken to by the test alone: its stderr, and its exit. */
export function spawnServe(args: string[], env: Record<string, string>) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, "serve", ...args], {
    env: { ...(process.env as Record<string, string>), ...env },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    stderr: () => stderr,
    /** Resolves with the first match of `pattern` on stderr; fails when the process exits first. */
    async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
      for (;;) {
        const found = pattern.exec(stderr);
        if (found) return found;
        const ended = await Promise.race([exited.then(() => true), new Promise((wake) => child.stderr.once("data", () => wake(false)))]);
        if (ended && !pattern.test(stderr)) throw new Error(`serve exited before printing ${pattern}:\n${stderr}`);
      }
    },
  };
}
