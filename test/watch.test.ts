import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { exampleProject, snapshot } from "./helpers/example-project.js";
import { cli, ROOT } from "./helpers/pipeline.js";

// Spawns the built CLI: the test script runs `npm run build` first (pretest).
const CLI = join(ROOT, "dist/cli.js");
const SPEC = "specs/support-tickets.openapi.yaml";

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, "gm"))?.length ?? 0;

/** A run's last stdout line when it wrote (or found nothing to write). */
const WROTE = /^generated\/support: (\d+ file\(s\) written|up to date)/;

class Watching {
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Polls until `check` holds; the CLI's output so far is in the failure message. */
  async until(what: string, check: () => boolean, timeout = 90_000): Promise<void> {
    const end = Date.now() + timeout;
    while (!check()) {
      if (Date.now() > end || !this.alive)
        throw new Error(
          `${this.alive ? "timed out" : "exited"} waiting for ${what}\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`,
        );
      await sleep(50);
    }
  }

  /** Marks where the output stands, to look only at what comes after. */
  mark(): { stdout: () => string; stderr: () => string } {
    const [out, err] = [this.stdout.length, this.stderr.length];
    return { stdout: () => this.stdout.slice(out), stderr: () => this.stderr.slice(err) };
  }
}

describe("projector generate --watch", () => {
  let running: Watching | undefined;
  afterEach(() => {
    if (running?.alive) running.child.kill("SIGKILL");
    running = undefined;
  });

  it(
    "regenerates on changes, reports problems without exiting, follows $ref'd files, and stops on SIGINT",
    { timeout: 600_000 },
    async () => {
      const dir = exampleProject({ nodeModules: true });
      const annotation = join(dir, "projector.yaml");
      const original = readFileSync(annotation, "utf8");
      const ticket = join(dir, "generated/support/resources/ticket.ts");
      const types = join(dir, "generated/support/openapi.ts");
      // Saved beside and renamed over, as editors save: a file written in place may be read
      // half-written by a run that starts between its truncation and its write, on a loaded machine,
      // which then runs once more, and each step here counts the runs an edit gives.
      const edit = (text: string) => {
        writeFileSync(join(dir, ".projector.yaml.swp"), text);
        renameSync(join(dir, ".projector.yaml.swp"), annotation);
      };
      const subject = (rule: string) => {
        expect(original).toContain("      subject: keep\n");
        return original.replace("      subject: keep\n", rule === "" ? "" : `      subject: ${rule}\n`);
      };

      const w = (running = new Watching(spawn(process.execPath, [CLI, "generate", "--watch"], { cwd: dir })));
      await w.until("the first run and the watching line", () => w.stdout.includes(`watching projector.yaml, ${SPEC} (Ctrl-C to stop)`));
      expect(w.stdout).toMatch(/^generated\/support: \d+ file\(s\) written, 0 unchanged$/m);
      const before = snapshot(join(dir, "generated/support"));

      // (1) A field left unclassified: the diagnostic as plain generate prints it, the process stays, nothing written.
      let at = w.mark();
      edit(subject(""));
      await w.until("the PRJ020 diagnostic", () => /problem\(s\); generated\/support was not touched/.test(at.stderr()));
      expect(at.stdout()).toMatch(/^changed: projector\.yaml$/m);
      expect(at.stderr()).toMatch(/^projector\.yaml:\d+:\d+ PRJ020 ticket\.subject is declared by the spec but not classified$/m);
      expect(at.stderr()).toContain("help: add `subject: keep`");
      expect(at.stderr()).toMatch(/^projector: 1 problem\(s\); generated\/support was not touched$/m);
      await sleep(300);
      expect(w.alive).toBe(true);
      expect(snapshot(join(dir, "generated/support"))).toEqual(before);

      // A file that is not YAML at all: refused before anything is read, and watching goes on.
      at = w.mark();
      edit("resources: [\n");
      await w.until("the syntax error", () => /^projector: 1 problem; nothing was written$/m.test(at.stderr()));
      expect(at.stderr()).toMatch(/^projector\.yaml:\d+:\d+ PRJ0\d\d /m);
      expect(w.alive).toBe(true);
      expect(snapshot(join(dir, "generated/support"))).toEqual(before);

      // (2) Fixed, differently from before: a successful run rewrites the ticket projector.
      at = w.mark();
      edit(subject("{ as: title }"));
      await w.until("a successful run after the fix", () => WROTE.test(lastLine(at.stdout())));
      expect(at.stdout()).toMatch(/^generated\/support: [1-9]\d* file\(s\) written, \d+ unchanged$/m);
      expect(readFileSync(ticket, "utf8")).toMatch(/\btitle\b/);

      // A burst of saves gives one run. The watcher is stopped while they land, so all of them reach it
      // within one debounce however slowly this machine runs; each renamed over the last is its own
      // event rather than one the kernel merges with the next.
      at = w.mark();
      w.child.kill("SIGSTOP");
      try {
        for (let i = 1; i <= 5; i++) edit(`${subject("{ as: title }")}# save ${i}\n`);
      } finally {
        w.child.kill("SIGCONT");
      }
      await w.until("the run after the burst", () => WROTE.test(lastLine(at.stdout())));
      await sleep(2_000);
      expect(count(at.stdout(), /^changed: /)).toBe(1);
      expect(at.stdout()).toMatch(/^changed: projector\.yaml$/m);

      // A change during a run gives exactly one more run, after it: never two at once.
      at = w.mark();
      edit(subject("keep"));
      await w.until("the run to start", () => at.stdout().includes("changed: projector.yaml"));
      edit(subject("{ as: headline }"));
      await w.until("two runs", () => count(at.stdout(), WROTE) === 2);
      expect(at.stdout().match(new RegExp(`^changed: .*$|${WROTE.source}.*$`, "gm"))).toEqual([
        "changed: projector.yaml",
        expect.stringMatching(WROTE),
        "changed: projector.yaml",
        expect.stringMatching(WROTE),
      ]);
      expect(readFileSync(ticket, "utf8")).toMatch(/\bheadline\b/);

      // (3) The spec replaced the way editors save (temp file, then rename), now pulling in a second file.
      writeFileSync(
        join(dir, "specs/self-link.yaml"),
        "type: object\ndescription: Where the record lives.\nproperties:\n  self: { type: string, format: uri }\n",
      );
      const spec = readFileSync(join(dir, SPEC), "utf8");
      const inline = "    SelfLink:\n      type: object\n      properties:\n        self: { type: string, format: uri }\n";
      expect(spec).toContain(inline);
      at = w.mark();
      writeFileSync(join(dir, "specs/.spec.tmp"), spec.replace(inline, '    SelfLink: { $ref: "./self-link.yaml" }\n'));
      renameSync(join(dir, "specs/.spec.tmp"), join(dir, SPEC));
      await w.until("the watching line with the $ref'd file", () =>
        at.stdout().includes(`watching projector.yaml, ${SPEC}, specs/self-link.yaml (Ctrl-C to stop)`),
      );
      expect(at.stdout()).toMatch(new RegExp(`^changed: ${SPEC.replaceAll(".", "\\.")}$`, "m"));
      expect(at.stdout()).toMatch(/^generated\/support: [1-9]\d* file\(s\) written/m);
      expect(readFileSync(types, "utf8")).toContain("Where the record lives.");

      // The $ref'd file is watched too.
      at = w.mark();
      writeFileSync(
        join(dir, "specs/self-link.yaml"),
        readFileSync(join(dir, "specs/self-link.yaml"), "utf8").replace("Where the record lives.", "The record's own address."),
      );
      await w.until("a run after the $ref'd file changed", () => WROTE.test(lastLine(at.stdout())));
      expect(at.stdout()).toMatch(/^changed: specs\/self-link\.yaml$/m);
      expect(readFileSync(types, "utf8")).toContain("The record's own address.");

      // A save that changes nothing is answered from the digest cache.
      at = w.mark();
      edit(readFileSync(annotation, "utf8"));
      await w.until("an up-to-date run", () => WROTE.test(lastLine(at.stdout())));
      expect(at.stdout()).toContain("generated/support: up to date, inputs unchanged since the last generate");

      // (4) Ctrl-C.
      w.child.kill("SIGINT");
      expect(await w.exited).toBe(0);
      expect(w.stdout).toMatch(/\nstopped\n$/);
      expect(w.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it("starts on an up-to-date folder and answers the first edit as a plain generate would", { timeout: 300_000 }, async () => {
    const dir = exampleProject({ nodeModules: true });
    // The built CLI, as the watcher is: the digest counts the generator's own code.
    execFileSync(process.execPath, [CLI, "generate", "--silent"], { cwd: dir });
    const annotation = join(dir, "projector.yaml");
    const original = readFileSync(annotation, "utf8");
    expect(original).toContain("      subject: keep\n");

    const w = (running = new Watching(spawn(process.execPath, [CLI, "generate", "--watch"], { cwd: dir })));
    await w.until("the first run and the watching line", () => w.stdout.includes(`watching projector.yaml, ${SPEC} (Ctrl-C to stop)`));
    expect(w.stdout).toContain("generated/support: up to date, inputs unchanged since the last generate");
    // The source types of that first edit are those the folder held, not typed again; prepared or not, they must be a generate's.
    const at = w.mark();
    writeFileSync(annotation, original.replace("      subject: keep\n", "      subject: { as: title }\n"));
    await w.until("the run after the edit", () => WROTE.test(lastLine(at.stdout())));
    expect(at.stdout()).toMatch(/^generated\/support: [1-9]\d* file\(s\) written, \d+ unchanged$/m);
    w.child.kill("SIGINT");
    expect(await w.exited).toBe(0);
    execFileSync(process.execPath, [CLI, "generate", "--check", "--silent"], { cwd: dir });
  });

  it(
    "runs again when a prettier config or .editorconfig appears beside the annotation, or on the way to the output",
    { timeout: 300_000 },
    async () => {
      const dir = exampleProject({ nodeModules: true });
      const w = (running = new Watching(spawn(process.execPath, [CLI, "generate", "--watch"], { cwd: dir })));
      await w.until("the first run and the watching line", () => w.stdout.includes(`watching projector.yaml, ${SPEC} (Ctrl-C to stop)`));
      const index = join(dir, "generated/support/index.ts");
      for (const [file, text, laidOut] of [
        [".prettierrc", JSON.stringify({ semi: false }), (code: string) => !/;\n/.test(code)],
        [".editorconfig", "root = true\n\n[*]\nindent_style = tab\n", (code: string) => code.includes("\n\t")],
        // The output folder's own parent: prettier takes the config nearest each file.
        ["generated/.prettierrc", JSON.stringify({ singleQuote: true }), (code: string) => code.includes("from './runtime/index.js'")],
        // A package.json's prettier key, which prettier reads before a .prettierrc in the same folder.
        [
          "generated/package.json",
          JSON.stringify({ prettier: { semi: false } }),
          (code: string) => code.includes('from "./runtime/index.js"') && !/;\n/.test(code),
        ],
      ] as const) {
        const at = w.mark();
        writeFileSync(join(dir, file), text);
        // The run may name the new config in a new watching line after it writes.
        await w.until(`the run after ${file} appeared`, () => new RegExp(WROTE.source, "m").test(at.stdout()));
        expect(laidOut(readFileSync(index, "utf8"))).toBe(true);
        execFileSync(process.execPath, [CLI, "generate", "--check", "--silent"], { cwd: dir });
      }
      w.child.kill("SIGINT");
      expect(await w.exited).toBe(0);
    },
  );

  it(
    "tells an edit to a prettier plugin the config names, which the process has already loaded, rather than running",
    {
      timeout: 300_000,
    },
    async () => {
      const dir = exampleProject({ nodeModules: true });
      writeFileSync(join(dir, "plugin.mjs"), "export const parsers = {};\n");
      writeFileSync(join(dir, ".prettierrc"), JSON.stringify({ plugins: ["./plugin.mjs"] }));
      const w = (running = new Watching(spawn(process.execPath, [CLI, "generate", "--watch"], { cwd: dir })));
      await w.until("the first run and the watching line", () => w.stdout.includes("plugin.mjs (Ctrl-C to stop)"));
      const at = w.mark();
      writeFileSync(join(dir, "plugin.mjs"), "export const parsers = {}; // edited\n");
      await w.until("the plugin's edit told", () =>
        at.stdout().includes("changed: plugin.mjs, a prettier plugin: plugins are loaded once per process"),
      );
      await sleep(1_000);
      expect(at.stdout()).not.toMatch(WROTE);
      w.child.kill("SIGINT");
      expect(await w.exited).toBe(0);
    },
  );

  it("refuses --watch with --check as bad usage, and documents --watch", async () => {
    const dir = exampleProject({ nodeModules: true });
    const both = await cli(["generate", "--watch", "--check"], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--watch and --check cannot be combined");
    const help = await cli(["generate", "--help"], dir);
    expect(help.stdout).toContain("--watch");
  });
});

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";
