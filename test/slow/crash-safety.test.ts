// A `projector generate` killed at any moment leaves the output folder wholly old or wholly new.
// The built CLI runs in a child process on a copy of the bundled example whose output already
// exists; the spec is then changed so the output differs, and `generate --force` is SIGKILLed after
// delays spread over a whole run, and at the moments the write stage starts and swaps folders.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/pipeline.js";

const CLI = join(ROOT, "dist/cli.js");
const OUTPUT = "generated/support";
const STAGING = `${OUTPUT}.projector-new`;
const BACKUP = `${OUTPUT}.projector-old`;

type Snapshot = Map<string, string>;

function snapshot(folder: string): Snapshot {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(folder, path), readFileSync(path, "utf8"));
    }
  };
  walk(folder);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

const same = (a: Snapshot, b: Snapshot) => a.size === b.size && [...a].every(([path, text]) => b.get(path) === text);

function restore(folder: string, files: Snapshot) {
  rmSync(folder, { recursive: true, force: true });
  for (const [path, text] of files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
}

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The bundled example in a temporary folder, with no node_modules: no digest cache to skip work. */
function project(): string {
  const dir = tempDir("projector-crash-");
  mkdirSync(join(dir, "specs"));
  cpSync(join(ROOT, "projector.yaml"), join(dir, "projector.yaml"));
  cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(dir, "specs/support-tickets.openapi.yaml"));
  return dir;
}

/** A spec change that touches several generated files: source types, legend words, a description. */
function changeSpec(dir: string) {
  const path = join(dir, "specs/support-tickets.openapi.yaml");
  const before = readFileSync(path, "utf8");
  const after = before
    .replace("Ticket id, a prefixed UUID.", "Ticket id, a prefixed UUID (changed).")
    .replace("The agent working the ticket; null while unassigned.", "The agent on the ticket; null while nobody has it.")
    .replace("x-enum-varnames: [new, pending, open, resolved, closed]", "x-enum-varnames: [new, waiting, open, resolved, closed]");
  expect(after).not.toBe(before);
  writeFileSync(path, after);
}

type Outcome = "old" | "new" | "between renames";

describe("crash safety of generate", () => {
  let dir: string;
  let oldFiles: Snapshot;
  let newFiles: Snapshot;
  let duration: number;

  beforeAll(() => {
    if (!existsSync(CLI)) {
      const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
      expect(build.status, build.stderr).toBe(0);
    }
    dir = project();
    expect(run(dir, "generate", "--silent").code).toBe(0);
    oldFiles = snapshot(join(dir, OUTPUT));
    changeSpec(dir);
    // The new output, and how long a run that writes it takes.
    const started = performance.now();
    expect(run(dir, "generate", "--force", "--silent").code).toBe(0);
    duration = performance.now() - started;
    newFiles = snapshot(join(dir, OUTPUT));
    const differing = [...newFiles.keys()].filter((path) => oldFiles.get(path) !== newFiles.get(path));
    expect(differing.length, `files that differ: ${differing.join(", ")}`).toBeGreaterThanOrEqual(2);
    restore(join(dir, OUTPUT), oldFiles);
  }, 60_000);

  /**
   * Spawns `generate --force` and SIGKILLs it `delay` ms after the start, or `delay` ms after the
   * folder named by `after` appears beside the output (the write stage has begun, or the swap).
   */
  function killed(delay: number, after?: string): Promise<void> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, "generate", "--force", "--silent"], { cwd: dir, stdio: "ignore" });
      const kill = () => child.kill("SIGKILL");
      let watcher: ReturnType<typeof watch> | undefined;
      if (after === undefined) setTimeout(kill, delay);
      else {
        watcher = watch(join(dir, "generated"), (_event, name) => {
          if (name !== after.split("/").pop() || !existsSync(join(dir, after))) return;
          watcher?.close();
          if (delay === 0) kill();
          else setTimeout(kill, delay);
        });
      }
      child.on("exit", () => {
        watcher?.close();
        resolve();
      });
    });
  }

  function outcome(): Outcome {
    const folder = join(dir, OUTPUT);
    if (existsSync(folder)) {
      const files = snapshot(folder);
      if (same(files, oldFiles)) return "old";
      if (same(files, newFiles)) return "new";
      const mixed = [...new Set([...files.keys(), ...newFiles.keys()])].filter((p) => files.get(p) !== oldFiles.get(p));
      throw new Error(`the output folder is neither old nor new; differs from the old in: ${mixed.join(", ")}`);
    }
    // Killed between the two renames: the old folder waits whole under its backup name.
    expect(existsSync(join(dir, BACKUP)), "output folder gone and no backup beside it").toBe(true);
    expect(same(snapshot(join(dir, BACKUP)), oldFiles), "the backup is not the whole old output").toBe(true);
    return "between renames";
  }

  it("a run SIGKILLed at random moments leaves the folder wholly old or wholly new", async () => {
    // Delays spread over the whole run (stratified, with jitter), then kills aimed at the write stage:
    // 0-12 ms after the staging folder appears, and the moment the old folder is moved aside.
    // Seeded, so a failure names the plan that found it: PROJECTOR_CRASH_SEED=n replays it.
    const seed = Number(process.env["PROJECTOR_CRASH_SEED"] ?? 20261201);
    const random = seeded(seed);
    const plan: { delay: number; after?: string }[] = [];
    const spread = 9;
    for (let i = 0; i < spread; i++) plan.push({ delay: Math.round(((i + random()) / spread) * duration * 1.1) });
    for (let i = 0; i < 8; i++) plan.push({ delay: Math.floor(random() * 13), after: STAGING });
    for (let i = 0; i < 3; i++) plan.push({ delay: 0, after: BACKUP });

    const seen: Record<string, number> = {};
    for (const { delay, after } of plan) {
      await killed(delay, after);
      const result = outcome();
      seen[result] = (seen[result] ?? 0) + 1;
      if (result === "between renames" && seen[result] === 1) {
        // The next generate puts the backup back before it looks at the folder, then writes the new output whole.
        const next = run(dir, "generate", "--silent");
        expect(next.code, next.stderr).toBe(0);
        expect(same(snapshot(join(dir, OUTPUT)), newFiles), "after the next generate the folder is not wholly new").toBe(true);
        expect(existsSync(join(dir, BACKUP))).toBe(false);
      }
      // Put the old output back (leftover staging or backup folders stay: the next run must cope with them).
      if (result !== "old") restore(join(dir, OUTPUT), oldFiles);
    }
    console.log(`crash-safety (seed ${seed}): ${plan.length} kills over a ${Math.round(duration)} ms run:`, seen);
    expect(Object.values(seen).reduce((a, b) => a + b, 0)).toBe(plan.length);

    // After all those kills and their leftovers, one whole run still writes exactly the new output.
    expect(run(dir, "generate", "--force", "--silent").code).toBe(0);
    expect(same(snapshot(join(dir, OUTPUT)), newFiles)).toBe(true);
    expect(readdirSync(join(dir, "generated"))).toEqual(["support"]);
  }, 300_000);

  it("a folder left between the two renames is put back by the next generate, which then writes it whole", () => {
    restore(join(dir, OUTPUT), oldFiles);
    // What a kill between `rename(folder, backup)` and `rename(staging, folder)` leaves: no folder,
    // the whole old folder under the backup name, and the whole new one staged.
    cpSync(join(dir, OUTPUT), join(dir, STAGING), { recursive: true });
    renameSync(join(dir, OUTPUT), join(dir, BACKUP));
    const result = run(dir, "generate", "--silent");
    expect(result.code, result.stderr).toBe(0);
    expect(same(snapshot(join(dir, OUTPUT)), newFiles)).toBe(true);
    expect(readdirSync(join(dir, "generated"))).toEqual(["support"]);
    expect(run(dir, "generate", "--check", "--silent").code).toBe(0);
  }, 30_000);

  it("generate --check fails on a folder left between the two renames, even when the backup is up to date, and writes nothing", () => {
    // The build reads the folder, not its backup: --check says it is not there and names the backup, for an old or a current one alike.
    for (const files of [oldFiles, newFiles]) {
      restore(join(dir, OUTPUT), files);
      renameSync(join(dir, OUTPUT), join(dir, BACKUP));
      const check = run(dir, "generate", "--check");
      expect(check.code, check.stderr).toBe(1);
      expect(check.stderr).toContain(
        `${OUTPUT} is not there: a generate was cut off while swapping it and left the previous output in ${BACKUP}`,
      );
      expect(check.stderr).not.toMatch(/^ {2}missing/m);
      expect(check.stdout).not.toContain("up to date");
      expect(existsSync(join(dir, OUTPUT))).toBe(false);
      expect(same(snapshot(join(dir, BACKUP)), files)).toBe(true);
      rmSync(join(dir, BACKUP), { recursive: true });
    }
  });
});

/** mulberry32: a small PRNG whose sequence a seed fixes. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
