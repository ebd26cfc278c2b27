/** Runs one named stage of a long job, so the caller can time and report it. */
export type Stage = <T>(name: string, work: () => T | Promise<T>) => Promise<T>;

export const untimed: Stage = async (_name, work) => work();

export type Verbosity = "silent" | "normal" | "verbose";

/**
 * Times stages and reports them on stderr: always with --verbose, never with --silent, and
 * otherwise only on a terminal once the job has run past a second, when a person starts to wonder
 * what it is doing. Piped or captured output (CI, scripts, tests) never depends on how fast a run was.
 */
export class Progress {
  private readonly started = performance.now();
  private readonly pending: string[] = [];
  private showing: boolean;

  constructor(
    private readonly write: (text: string) => void,
    private readonly verbosity: Verbosity,
    private readonly interactive = false,
  ) {
    this.showing = verbosity === "verbose";
  }

  readonly stage: Stage = async (name, work) => {
    const begun = performance.now();
    const result = await work();
    this.pending.push(`  ${name.padEnd(14)} ${format(performance.now() - begun)}`);
    if (!this.showing && this.verbosity === "normal" && this.interactive && performance.now() - this.started > 1000) this.showing = true;
    if (this.showing) this.write(`${this.pending.splice(0).join("\n")}\n`);
    return result;
  };

  /** The total, when stages were shown. */
  finish(): void {
    if (this.showing) this.write(`  ${"total".padEnd(14)} ${format(performance.now() - this.started)}\n`);
  }
}

const format = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

/** The progress a command's `--silent` and `--verbose` ask for, reported on `stderr`. */
export function commandProgress(
  options: { silent: boolean; verbose: boolean },
  stderr: { write(text: string): unknown; isTTY?: boolean },
): Progress {
  return new Progress(
    (text) => stderr.write(text),
    options.silent ? "silent" : options.verbose ? "verbose" : "normal",
    stderr.isTTY === true,
  );
}
