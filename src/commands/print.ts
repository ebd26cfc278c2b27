import { formatDiagnostic, sortDiagnostics, type Diagnostic } from "../diagnostics.js";
import type { Io } from "./io.js";

export function printDiagnostics(io: Io, diagnostics: readonly Diagnostic[]): void {
  for (const d of sortDiagnostics(diagnostics)) io.stderr.write(`${formatDiagnostic(d)}\n`);
}

/** Prints the problems that stopped a command before it wrote anything, and how many there were. */
export function printRefusal(io: Io, diagnostics: readonly Diagnostic[]): void {
  printDiagnostics(io, diagnostics);
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  io.stderr.write(`projector: ${errors} problem${errors === 1 ? "" : "s"}; nothing was written\n`);
}
