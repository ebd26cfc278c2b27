// `projector generate` types the spec in a worker thread: the same text and the same diagnostics as
// on the calling thread, and no thread left running once a run is over. A worker thread runs
// JavaScript, so these tests use the built modules and CLI: the test script runs `npm run build` first.
import { createHook } from "node:async_hooks";
import { execFile } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { DiagnosticError } from "../src/diagnostics.js";
import { sourceTypes } from "../src/emit/source-types.js";
import { loadSpec } from "../src/openapi/load.js";
import { exampleProject, snapshot } from "./helpers/example-project.js";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";

const CLI = join(ROOT, "dist/cli.js");
const { SourceTypesThreads } = (await import(
  pathToFileURL(join(ROOT, "dist/openapi/source-types-thread.js")).href
)) as typeof import("../src/openapi/source-types-thread.js");
const EXAMPLE_SPEC = join(ROOT, "specs/support-tickets.openapi.yaml");
/** Specs openapi-typescript rejects, from the bad-input corpus. */
const UNTYPEABLE = ["spec-ref-cycle-without-schema", "spec-response-null"];

// Worker threads by async id, from their creation until their handle is closed.
const liveWorkers = new Set<number>();
const hook = createHook({
  init: (id, type) => void (type === "WORKER" && liveWorkers.add(id)),
  destroy: (id) => void liveWorkers.delete(id),
}).enable();
afterAll(() => void hook.disable());

/** Counts the threads started since it was made: other test files in this process may hold threads of their own. */
function startedHere(): () => number {
  const before = new Set(liveWorkers);
  return () => [...liveWorkers].filter((id) => !before.has(id)).length;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Waits for the handles of ended threads to be closed: on a busy machine that can take more than
 * one turn of the event loop, so it waits turns until none of these is left, or many turns passed.
 */
const settled = async (live: () => number) => {
  for (let turns = 0; turns < 1000 && live() > 0; turns++) await turn();
};

/** What this thread throws for a spec, as diagnostics. */
async function diagnosticsHere(specPath: string): Promise<unknown> {
  const spec = await loadSpec(specPath, "openapi.yaml");
  const error = await sourceTypes(spec.document, spec.file).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(DiagnosticError);
  return (error as DiagnosticError).diagnostics;
}

describe("SourceTypesThreads", () => {
  it("types a spec exactly as the calling thread does, in a thread started before the spec was known", async () => {
    const live = startedHere();
    const spec = await loadSpec(EXAMPLE_SPEC, "specs/support-tickets.openapi.yaml");
    const threads = new SourceTypesThreads({ prestart: true });
    expect(live()).toBe(1);
    const types = await threads.type(spec.document, spec.file);
    expect(types).toBe(await sourceTypes(spec.document, spec.file));
    await settled(live);
    // The thread ended once it answered, before anyone closed it.
    expect(live()).toBe(0);
    await threads.close();
  });

  it("types numbers JSON cannot write (YAML's .inf and .nan) as the calling thread does", async () => {
    const dir = tempDir();
    const specPath = join(dir, "openapi.yaml");
    writeFileSync(
      specPath,
      [
        "openapi: 3.0.3",
        "info: { title: t, version: '1' }",
        "paths: {}",
        "components:",
        "  schemas:",
        "    Limit: { type: number, enum: [1, .inf, -.inf], default: .nan }",
      ].join("\n"),
    );
    const spec = await loadSpec(specPath, "openapi.yaml");
    const threads = new SourceTypesThreads({ prestart: false });
    const types = await threads.type(spec.document, spec.file);
    await threads.close();
    expect(types).toBe(await sourceTypes(spec.document, spec.file));
    expect(types).toContain("Infinity");
  });

  it.each(UNTYPEABLE)("reports %s, which openapi-typescript rejects, with the diagnostics the calling thread makes", async (name) => {
    const specPath = join(ROOT, "test/bad-inputs", name, "openapi.yaml");
    const spec = await loadSpec(specPath, "openapi.yaml");
    const threads = new SourceTypesThreads({ prestart: false });
    const error = await threads.type(spec.document, spec.file).catch((caught: unknown) => caught);
    await threads.close();
    expect((error as Error).name).toBe("DiagnosticError");
    expect((error as DiagnosticError).diagnostics).toEqual(await diagnosticsHere(specPath));
    expect((error as DiagnosticError).diagnostics[0]?.code).toBe("PRJ008");
  });

  it("ends a thread started ahead and never asked, and one whose answer nobody awaits any more", async () => {
    const live = startedHere();
    const spec = await loadSpec(EXAMPLE_SPEC, "specs/support-tickets.openapi.yaml");
    const idle = new SourceTypesThreads({ prestart: true });
    const asked = new SourceTypesThreads({ prestart: true });
    const answer = asked.type(spec.document, spec.file).catch((error: unknown) => error);
    expect(live()).toBe(2);
    await Promise.all([idle.close(), asked.close()]);
    await settled(live);
    expect(live()).toBe(0);
    // Ended before it answered, the thread's promise says so rather than hanging.
    const ended = await answer;
    expect(typeof ended === "string" || (ended as Error).message.includes("stopped")).toBe(true);
  });
});

describe("projector generate with the source types in a worker thread", () => {
  const run = promisify(execFile);
  const spawned = (args: string[], cwd: string) =>
    run(process.execPath, [CLI, ...args], { cwd }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it("writes the bundled example's output byte for byte", async () => {
    const dir = exampleProject();
    const { code, stderr } = await spawned(["generate", "--silent"], dir);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const written = [...snapshot(join(dir, "generated/support"))].map(([path, text]) => [path.slice(dir.length + 1), text]);
    expect(written.length).toBeGreaterThan(0);
    for (const [path, text] of written) expect(text, path).toBe(readFileSync(join(ROOT, path!), "utf8"));
  });

  it("prints what openapi-typescript reports on the console before the diagnostic it leads to", async () => {
    const dir = exampleProject();
    const specPath = join(dir, "specs/support-tickets.openapi.yaml");
    writeFileSync(specPath, readFileSync(specPath, "utf8").replace("operationId: addComment", "operationId: getTicket"));
    const annotationPath = join(dir, "projector.yaml");
    writeFileSync(
      annotationPath,
      readFileSync(annotationPath, "utf8").replace("operation: addComment", 'operation: "POST /tickets/{ticket_id}/comments"'),
    );
    const { code, stderr } = await spawned(["generate"], dir);
    const lines = stderr.split("\n");
    expect(code).toBe(1);
    expect(lines[0]).toContain("✘  Every operation must have a unique `operationId`.");
    expect(lines[1]).toMatch(/^specs\/support-tickets\.openapi\.yaml PRJ008 openapi-typescript cannot type the spec: Every operation/);
  });

  it.each(UNTYPEABLE)("prints for %s what a generate on the calling thread prints", async (name) => {
    const dir = join(tempDir(), name);
    cpSync(join(ROOT, "test/bad-inputs", name), dir, { recursive: true });
    const inWorker = await spawned(["generate"], dir);
    const here = await cli(["generate"], dir);
    expect(inWorker.stderr).toContain("PRJ008");
    expect(inWorker).toEqual(here);
  });
});
