// Several `projector generate` processes on one output folder at once: they take
// turns through the lock beside the folder, so it ends up wholly one run's output, with nothing left
// beside it, and every run either succeeds or says clearly that another one held the folder too long.
// Only the runs that race are processes; the rest run the CLI in this one (test/folder-lock.test.ts
// has many holders of one lock at once).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";

const CLI = join(ROOT, "dist/cli.js");
const SCENARIO = join(ROOT, "specs/scenarios/rest-foreign-keys");
const LOCK = "generated.projector-lock";
const STACK_FRAME = /^\s+at .*(\(|:\d+:\d+)/m;

interface Run {
  code: number | null;
  stderr: string;
}

function start(cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

/** Every file under a folder, path to text. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files[relative(folder, join(entry.parentPath, entry.name))] = readFileSync(join(entry.parentPath, entry.name), "utf8");
  }
  return files;
}

/** A process id that belonged to a process which has ended. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("generate runs on one folder at once", () => {
  let dir: string;
  // Two annotation files writing the same folder: their banners differ, so every run really writes it.
  const byA = ["generate", "--silent"];
  const byB = ["generate", "--silent", "-c", "projector-b.yaml"];
  let outputA: Record<string, string>;
  let outputB: Record<string, string>;

  beforeAll(async () => {
    if (!existsSync(CLI)) {
      const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
      expect(build.status, build.stderr).toBe(0);
    }
    dir = join(tempDir("projector-concurrent-"), "project");
    mkdirSync(dir);
    for (const file of ["openapi.yaml", "projector.yaml"]) cpSync(join(SCENARIO, file), join(dir, file));
    cpSync(join(dir, "projector.yaml"), join(dir, "projector-b.yaml"));
    expect((await cli(byB, dir)).code).toBe(0);
    outputB = snapshot(join(dir, "generated"));
    expect((await cli(byA, dir)).code).toBe(0);
    outputA = snapshot(join(dir, "generated"));
    expect(Object.keys(outputA).filter((path) => outputA[path] !== outputB[path]).length).toBeGreaterThan(2);
  }, 120_000);

  it("three processes at once, with a lock left by a killed run: the folder is wholly one run's, and each run succeeds or says why not", async () => {
    writeFileSync(join(dir, LOCK), JSON.stringify({ pid: endedPid(), host: hostname() }));
    const runs = await Promise.all([byA, byB, byA].map((args) => start(dir, args)));
    for (const run of runs) {
      expect(run.stderr).not.toMatch(STACK_FRAME);
      if (run.code !== 0) {
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toMatch(
          /^projector(-b)?\.yaml:2:9 PRJ053 another generate \(process \d+ on .*\) is writing generated, and did not finish while this one waited$/m,
        );
      }
    }
    expect(runs.some((run) => run.code === 0)).toBe(true);
    const result = snapshot(join(dir, "generated"));
    expect([outputA, outputB]).toContainEqual(result);
    expect(readdirSync(dir).sort()).toEqual(["generated", "openapi.yaml", "projector-b.yaml", "projector.yaml"]);
  }, 300_000);

  it("a run that finds the folder locked by a live process waits, then gives up with PRJ053 and leaves the lock and the folder alone", async () => {
    expect((await cli(byA, dir)).code).toBe(0);
    // This test's own process is alive: the lock names it, as a generate still writing would.
    const lock = JSON.stringify({ pid: process.pid, host: hostname() });
    writeFileSync(join(dir, LOCK), lock);
    vi.stubEnv("PROJECTOR_LOCK_TIMEOUT", "0");
    const run = await cli(["generate", "-c", "projector-b.yaml"], dir).finally(() => vi.unstubAllEnvs());
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `projector-b.yaml:2:9 PRJ053 another generate (process ${process.pid} on ${hostname()}) is writing generated`,
    );
    expect(run.stderr).toContain(`help: run generate again once it is done; if no generate is running, delete ${LOCK}`);
    expect(readFileSync(join(dir, LOCK), "utf8")).toBe(lock);
    expect(snapshot(join(dir, "generated"))).toEqual(outputA);
  }, 60_000);
});
