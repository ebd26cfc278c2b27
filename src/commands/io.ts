/** Where a command reads its working folder and writes its output: the process's, or a test's. */
export interface Io {
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** 3 is never a finding: a CI step that treats 1 as "stale" must not mistake a crash for one. */
export const EXIT = { ok: 0, problems: 1, usage: 2, internal: 3 } as const;

/** Bad command-line usage: printed with the command's help, exit 2. */
export class UsageError extends Error {}

/**
 * What a crash prints: one line naming it and where to report it, the stack only on request, since
 * a user can act on a diagnostic but not on a trace.
 */
export function printInternalError(io: Io, error: unknown, verbose: boolean): void {
  const stack = verbose || process.env["PROJECTOR_DEBUG"] === "1" ? (error as Error | undefined)?.stack : undefined;
  io.stderr.write(`projector: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  io.stderr.write(
    `  help: this is a bug in projector; please report it with the command that caused it${stack ? "" : " (PROJECTOR_DEBUG=1 prints the stack)"}\n`,
  );
  if (stack) io.stderr.write(`${stack}\n`);
}
