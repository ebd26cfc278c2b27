// The lock beside an output folder: holders never overlap, a lock left by an ended process is taken
// over once, however many runs find it at the same time, and a live holder is waited for, then named.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LockBusyError, lockPath, withFolderLock } from "../src/output/lock.js";
import { tempDir } from "./helpers/pipeline.js";

const endedPid = () =>
  Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);

/** Runs `count` holders at once; each yields to the others several times while it holds the lock. */
async function contend(folder: string, count: number): Promise<string[]> {
  const events: string[] = [];
  let inside = 0;
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      withFolderLock(folder, { waitMs: 60_000 }, async () => {
        inside++;
        events.push(`enter ${i} with ${inside} inside`);
        for (let step = 0; step < 5; step++) await new Promise((resolve) => setImmediate(resolve));
        inside--;
      }),
    ),
  );
  return events;
}

describe("the output folder's lock", () => {
  it("lets one holder in at a time and removes the lock file after the last", async () => {
    const folder = join(tempDir("projector-lock-"), "generated");
    const events = await contend(folder, 6);
    expect(events).toHaveLength(6);
    for (const event of events) expect(event).toMatch(/with 1 inside$/);
    expect(readdirSync(join(folder, ".."))).toEqual([]);
  });

  it("takes over a lock whose process has ended, once, when several runs find it together", async () => {
    const folder = join(tempDir("projector-lock-"), "generated");
    writeFileSync(lockPath(folder), JSON.stringify({ pid: endedPid(), host: hostname() }));
    const events = await contend(folder, 6);
    expect(events).toHaveLength(6);
    for (const event of events) expect(event).toMatch(/with 1 inside$/);
    expect(readdirSync(join(folder, ".."))).toEqual([]);
  });

  it("takes over a lock left blank long ago by a run killed before it wrote its name, but waits on a fresh blank one", async () => {
    const folder = join(tempDir("projector-lock-"), "generated");
    writeFileSync(lockPath(folder), "");
    // Dated ahead, so that it counts as just written however slowly this test runs.
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(lockPath(folder), ahead, ahead);
    await expect(withFolderLock(folder, { waitMs: 0 }, async () => undefined)).rejects.toBeInstanceOf(LockBusyError);
    const longAgo = new Date(2020, 0, 1);
    utimesSync(lockPath(folder), longAgo, longAgo);
    const events = await contend(folder, 3);
    for (const event of events) expect(event).toMatch(/with 1 inside$/);
    expect(existsSync(lockPath(folder))).toBe(false);
  });

  it("waits for a live holder, then gives up naming it and leaves its lock", async () => {
    const folder = join(tempDir("projector-lock-"), "generated");
    const holder = { pid: process.pid, host: hostname() };
    writeFileSync(lockPath(folder), JSON.stringify(holder));
    let waited: unknown;
    let ran = false;
    const attempt = withFolderLock(folder, { waitMs: 0, onWait: (who) => (waited = who) }, async () => {
      ran = true;
    });
    await expect(attempt).rejects.toBeInstanceOf(LockBusyError);
    await expect(attempt).rejects.toMatchObject({ holder });
    expect(ran).toBe(false);
    expect(waited).toBeUndefined();
    expect(readFileSync(lockPath(folder), "utf8")).toBe(JSON.stringify(holder));
    expect(existsSync(folder)).toBe(false);
  });

  it("a holder on another machine is never taken for ended", async () => {
    const folder = join(tempDir("projector-lock-"), "generated");
    const holder = { pid: endedPid(), host: `${hostname()}-elsewhere` };
    writeFileSync(lockPath(folder), JSON.stringify(holder));
    await expect(withFolderLock(folder, { waitMs: 0 }, async () => undefined)).rejects.toMatchObject({ holder });
  });
});
