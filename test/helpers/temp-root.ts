// A global setup of both test configs: every temporary folder a run makes, in its tests and in the
// CLI processes they start, goes under one folder of that run, removed when the run ends. The tests
// make thousands; left in the system's temporary folder, they filled a developer's disk run by run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What os.tmpdir() reads, on POSIX (TMPDIR) and on Windows (TMP, TEMP). */
const TEMP_VARIABLES = ["TMPDIR", "TMP", "TEMP"] as const;

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "projector-tests-"));
  const before = TEMP_VARIABLES.map((name) => [name, process.env[name]] as const);
  // Set before the test workers start: they, and every process they start, inherit it.
  for (const name of TEMP_VARIABLES) process.env[name] = root;
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    // Retried: a process a test started may still be closing a file in it.
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
