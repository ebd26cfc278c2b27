// What generate does with what it reads at build time: spec text never becomes code, no schema is
// spelled out past its budget, any tool name is one the model can call, a long scalar is read, and
// the watcher, the writer and the lock deal with links, full disks and strangers at their paths.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as fs from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { parseAnnotation } from "../src/annotation/parse.js";
import { sourceTypes } from "../src/emit/source-types.js";
import { carriedIdsAndUrls } from "../src/model/spec-ids.js";
import { SCHEMA_BUDGET } from "../src/model/schema-budget.js";
import { SchemaReader, type JsonObject } from "../src/openapi/schema.js";
import { readFolderBytes } from "../src/output/listing.js";
import { readFolder } from "./helpers/read-folder.js";
import { LockNotAFileError, lockPath, withFolderLock } from "../src/output/lock.js";
import { MARKER, MARKER_TEXT } from "../src/output/ownership.js";
import { diffFolder, stagingFolder, writeFolder, type WriteFileSystem } from "../src/output/write.js";
import { cli, generateFrom, importGenerated, ROOT, tempDir, typecheckFiles } from "./helpers/pipeline.js";
import { codeOnly } from "./helpers/spec-text-in-code.js";

/** The line number (from 1) of the line that starts with `start`. */
const lineOf = (text: string, start: string) => text.split("\n").findIndex((line) => line.startsWith(start)) + 1;

/** A project folder holding these files, and its annotation's path. */
function project(files: Record<string, string>): { dir: string; annotation: string } {
  const dir = tempDir("projector-build-boundary-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, annotation: join(dir, "projector.yaml") };
}

/** A spec of one operation, `GET /tasks/{id}` (getTask) answering a Task, plus `extra` lines under `components.schemas`. */
const taskSpec = (task: string, extra = "") => `openapi: 3.0.3
info: { title: Tasks, version: 1.0.0 }
paths:
  /tasks/{id}:
    get:
      operationId: getTask
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: A task
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Task" }
components:
  schemas:
    Task:
${task}${extra}`;

const TASK = `      type: object
      properties:
        id: { type: string }
        title: { type: string }
`;

const taskAnnotation = (tools: string, fields = "id: { argument: [get_task] }\n      title: keep") => `spec: openapi.yaml
output: generated
resources:
  task:
    schema: Task
    fields:
      ${fields}
tools:
${tools}`;

describe("spec text in the source types", () => {
  it("swaps back only the placeholders generate made: a spec name shaped like one stays a quoted name", async () => {
    const crafted =
      "__projector_inherited_a: string } } } (globalThis as any).__projectorInjected = true; export interface Injected { x: { y: { b__";
    const spec: JsonObject = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {},
      components: {
        schemas: {
          Unused: {
            type: "object",
            properties: {
              toString: { type: "string" },
              __projector_inherited_1_toString__: { type: "string" },
              [crafted]: { type: "string" },
            },
            required: ["toString"],
          },
        },
      },
    };
    const types = await sourceTypes(spec, "openapi.yaml");
    expect(codeOnly(types)).not.toContain("globalThis");
    expect(types).toContain("toString: string;");
    expect(types).toContain("__projector_inherited_1_toString__?: string;");
    expect(types).toContain(`${JSON.stringify(crafted)}?: string;`);
  });
});

describe("the schema budget", () => {
  /** A body schema that refers to itself through `width` properties: written out 8 levels deep, width^9 nodes. */
  const selfReferring = (width: number) =>
    taskSpec(
      TASK,
      `    Node:
      type: object
      properties:
${Array.from({ length: width }, (_, i) => `        p${i}: { $ref: "#/components/schemas/Node" }\n`).join("")}`,
    ).replace(
      "      operationId: getTask\n",
      `      operationId: getTask
      requestBody:
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Node" }
`,
    );

  it("cuts an input schema that would outgrow the budget, with a warning at the schema, and writes the rest as any value", async () => {
    const spec = selfReferring(3);
    const { annotation } = project({ "openapi.yaml": spec, "projector.yaml": taskAnnotation("  get_task: { operation: getTask }\n") });
    const output = await generateFrom(annotation);
    expect(output.problems).toEqual([]);
    const warning = output.diagnostics.find((d) => d.code === "PRJ087");
    expect(warning).toMatchObject({
      severity: "warning",
      location: { file: expect.stringMatching(/openapi\.yaml$/), line: lineOf(spec, "    Node:"), column: 5 },
    });
    expect(warning!.message).toMatch(
      /^tool get_task: "body" \(schema "Node"\) is larger than 200,000 characters written out, so its input schema/,
    );
    expect(warning!.help).toBeTruthy();
    const definitions = output.files.get("definitions.ts")!;
    expect(definitions).toContain("too large to spell out here");
    const { toolDefinitions } = await importGenerated<{ toolDefinitions: { inputSchema: unknown }[] }>(output.files);
    expect(JSON.stringify(toolDefinitions[0]!.inputSchema).length).toBeLessThanOrEqual(SCHEMA_BUDGET);
    // The arguments' type follows the schema: the whole file stays within a few budgets.
    expect(definitions.length).toBeLessThan(3 * SCHEMA_BUDGET);
  });

  it("writes a schema that refers to itself once as deep as before, without a warning", async () => {
    const { annotation } = project({
      "openapi.yaml": selfReferring(1),
      "projector.yaml": taskAnnotation("  get_task: { operation: getTask }\n"),
    });
    const output = await generateFrom(annotation);
    expect(output.diagnostics.filter((d) => d.code === "PRJ087")).toEqual([]);
    const { toolDefinitions } = await importGenerated<{ toolDefinitions: { inputSchema: unknown }[] }>(output.files);
    const text = JSON.stringify(toolDefinitions[0]!.inputSchema);
    expect(text.match(/"p0"/g)).toHaveLength(9);
    expect(text).not.toContain("too large");
  });

  /** Schemas L0 to L6, each with `width` properties referring to the next: no cycle, width^6 paths. */
  const layers = (width: number, last = "{ type: string }") =>
    Array.from(
      { length: 7 },
      (_, level) =>
        `    L${level}:\n      type: object\n      properties:\n${Array.from(
          { length: width },
          (_, i) => `        p${i}: ${level < 6 ? `{ $ref: "#/components/schemas/L${level + 1}" }` : last}\n`,
        ).join("")}`,
    ).join("");

  it("cuts the type of a value kept whole that would outgrow the budget, with a warning at its schema", async () => {
    const spec = taskSpec(TASK + `        blob: { $ref: "#/components/schemas/L0" }\n`, layers(6));
    const { annotation } = project({
      "openapi.yaml": spec,
      "projector.yaml": taskAnnotation(
        "  get_task: { operation: getTask }\n",
        "id: { argument: [get_task] }\n      title: keep\n      blob: keep",
      ),
    });
    const output = await generateFrom(annotation);
    expect(output.problems).toEqual([]);
    const warning = output.diagnostics.find((d) => d.code === "PRJ087");
    expect(warning).toMatchObject({ severity: "warning", location: { line: lineOf(spec, "    L0:"), column: 5 } });
    expect(warning!.message).toMatch(/^task\.blob \(schema "L0"\), kept whole, is larger than 200,000 characters written out/);
    expect(output.files.get("resources/task.ts")!.length).toBeLessThan(3 * SCHEMA_BUDGET);
  });

  it("looks for ids in a value kept whole once per schema and depth, not once per path to it", () => {
    const reader = new SchemaReader(parse(taskSpec(TASK, layers(4))) as JsonObject);
    const properties = vi.spyOn(reader, "properties");
    const carried = carriedIdsAndUrls(reader, reader.pointer("/components/schemas/L0")!, "blob");
    expect(carried).toEqual({ ids: [], urls: [] });
    // 7 schemas at no more than 9 depths each; walking every path would ask 4^6 times.
    expect(properties.mock.calls.length).toBeLessThanOrEqual(7 * 9);
  });
});

describe("tool names an object inherits", () => {
  const NAMES = ["__proto__", "constructor", "hasOwnProperty", "toString"];
  type Outcome = { result?: unknown; error?: string };
  type Handler = (request: unknown, extra: unknown) => Promise<{ isError?: boolean; structuredContent?: unknown }>;
  type Generated = {
    createTools: (options: { client: unknown }) => Record<string, (args: unknown) => Promise<Outcome>>;
    registerTools: (server: { setRequestHandler: (schema: unknown, handler: Handler) => void }, tools: unknown, schemas: unknown) => void;
  };

  it("makes every tool an own property of createTools' object, which the MCP server calls by name", async () => {
    const { annotation } = project({
      "openapi.yaml": taskSpec(TASK),
      "projector.yaml": taskAnnotation(
        NAMES.map((name) => `  ${name}: { operation: getTask }\n`).join(""),
        'id: { drop: "not needed" }\n      title: keep',
      ),
    });
    const output = await generateFrom(annotation);
    expect(output.problems).toEqual([]);
    expect(typecheckFiles(output.files)).toEqual([]);
    const generated = await importGenerated<Generated>(output.files);
    const client = { GET: async () => ({ data: { id: "t1", title: "A" }, response: { ok: true, status: 200 } }) };
    const tools = generated.createTools({ client });
    expect(Object.keys(tools).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      expect(Object.hasOwn(tools, name), name).toBe(true);
      expect(await tools[name]!({ id: "t1" })).toMatchObject({ result: { title: "A" } });
    }
    const handlers = new Map<unknown, Handler>();
    generated.registerTools({ setRequestHandler: (schema, handler) => handlers.set(schema, handler) }, tools, {
      ListToolsRequestSchema: "list",
      CallToolRequestSchema: "call",
    });
    const answer = await handlers.get("call")!({ params: { name: "__proto__", arguments: { id: "t1" } } }, {});
    expect(answer.isError).toBeUndefined();
    expect(answer.structuredContent).toEqual({ title: "A" });
  });
});

describe("a long scalar in the annotation", () => {
  const half = "x".repeat(6e6);
  it.each([
    ["double", `"${half}\\"${half}"`],
    ["single", `'${half}''${half}'`],
  ])("reads a %s-quoted scalar of 12 million characters", (_, scalar) => {
    const text = taskAnnotation(`  get_task:\n    operation: getTask\n    description: ${scalar}\n`);
    const annotation = parseAnnotation(text, "projector.yaml");
    expect(annotation.tools[0]!.description).toHaveLength(12e6 + 1);
  });
});

describe("generate --watch on a spec that is a symbolic link", () => {
  let child: ReturnType<typeof spawn> | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
    child = undefined;
  });

  it("sees saves of the file the link leads to, and follows the link when it is pointed elsewhere", { timeout: 300_000 }, async () => {
    const root = realpathSync(tempDir("projector-watch-link-"));
    const real = join(root, "elsewhere/real.yaml");
    const other = join(root, "elsewhere/other.yaml");
    const dir = join(root, "project");
    mkdirSync(join(root, "elsewhere"));
    mkdirSync(dir);
    writeFileSync(real, taskSpec(TASK));
    writeFileSync(join(dir, "projector.yaml"), taskAnnotation("  get_task: { operation: getTask }\n"));
    symlinkSync("../elsewhere/real.yaml", join(dir, "openapi.yaml"));

    let stdout = "";
    let stderr = "";
    child = spawn(process.execPath, [join(ROOT, "dist/cli.js"), "generate", "--watch"], { cwd: dir });
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const until = async (what: string, check: () => boolean) => {
      const end = Date.now() + 120_000;
      while (!check()) {
        if (Date.now() > end || child!.exitCode !== null)
          throw new Error(`waiting for ${what}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
        await sleep(50);
      }
    };
    const unclassified = (field: string) => () => stderr.includes(`task.${field} is declared by the spec but not classified`);

    await until("the first run", () => stdout.includes("watching projector.yaml, openapi.yaml"));
    writeFileSync(real, taskSpec(`${TASK}        extra: { type: string }\n`));
    await until("the run after the target's save", unclassified("extra"));

    writeFileSync(other, taskSpec(`${TASK}        other: { type: string }\n`));
    unlinkSync(join(dir, "openapi.yaml"));
    symlinkSync("../elsewhere/other.yaml", join(dir, "openapi.yaml"));
    await until("the run after the link was pointed elsewhere", unclassified("other"));
    writeFileSync(other, taskSpec(`${TASK}        more: { type: string }\n`));
    await until("the run after the new target's save", unclassified("more"));
  });
});

describe("a write that fails", () => {
  const OLD = new Map([
    [MARKER, MARKER_TEXT],
    ["a.ts", "// old\n"],
  ]);
  const NEXT = new Map([
    [MARKER, MARKER_TEXT],
    ["a.ts", "// new\n"],
    ["b/c.ts", "// c\n"],
  ]);
  const full = (syscall: string, path: unknown) =>
    Object.assign(new Error(`ENOSPC: no space left on device, ${syscall} '${String(path)}'`), { code: "ENOSPC", syscall });
  /** Node's file system, but a disk that is full for the writes and renames `fails` picks. */
  const fullDisk = (fails: { write?: (path: string) => boolean; rename?: (from: string) => boolean }): WriteFileSystem => ({
    ...fs,
    writeFile: (async (path, ...rest) => {
      if (fails.write?.(String(path))) throw full("write", path);
      return fs.writeFile(path, ...rest);
    }) as typeof fs.writeFile,
    rename: async (from, to) => {
      if (fails.rename?.(String(from))) throw full("rename", from);
      return fs.rename(from, to);
    },
  });
  const write = async (folder: string, files: Map<string, string>, fileSystem?: WriteFileSystem) =>
    writeFolder(folder, files, diffFolder(await readFolderBytes(folder), files), fileSystem);

  it("takes its staging folder away and leaves the old folder as it was, when a file cannot be written", async () => {
    const folder = join(tempDir(), "generated");
    await write(folder, OLD);
    await expect(write(folder, NEXT, fullDisk({ write: (path) => path.endsWith("c.ts") }))).rejects.toMatchObject({ code: "ENOSPC" });
    expect(readdirSync(join(folder, ".."))).toEqual(["generated"]);
    expect(Object.fromEntries((await readFolder(folder)).files)).toEqual(Object.fromEntries(OLD));
  });

  it("takes its staging folder away when a first write fails, and leaves no folder at all", async () => {
    const folder = join(tempDir(), "generated");
    await expect(write(folder, NEXT, fullDisk({ write: (path) => path.endsWith("a.ts") }))).rejects.toMatchObject({ code: "ENOSPC" });
    expect(readdirSync(join(folder, ".."))).toEqual([]);
  });

  it("puts the old folder back when the swap fails halfway", async () => {
    const folder = join(tempDir(), "generated");
    await write(folder, OLD);
    await expect(write(folder, NEXT, fullDisk({ rename: (from) => from === stagingFolder(folder) }))).rejects.toMatchObject({
      code: "ENOSPC",
    });
    expect(readdirSync(join(folder, ".."))).toEqual(["generated"]);
    expect(Object.fromEntries((await readFolder(folder)).files)).toEqual(Object.fromEntries(OLD));
  });
});

describe("what stands at the lock's path", () => {
  it.each([
    ["a dangling symbolic link", (target: string, lock: string) => symlinkSync(target, lock)],
    [
      "a symbolic link to a file",
      (target: string, lock: string) => {
        writeFileSync(target, "not a lock\n");
        symlinkSync(target, lock);
      },
    ],
    ["a folder", (_: string, lock: string) => mkdirSync(lock)],
  ])("is refused when it is %s, and neither followed nor removed", async (_, plant) => {
    const dir = tempDir();
    const folder = join(dir, "generated");
    const target = join(dir, "target");
    plant(target, lockPath(folder));
    const before = readdirSync(dir).sort();
    let ran = false;
    await expect(withFolderLock(folder, { waitMs: 2_000 }, async () => (ran = true))).rejects.toBeInstanceOf(LockNotAFileError);
    expect(ran).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(before);
    if (existsSync(target)) expect(readFileSync(target, "utf8")).toBe("not a lock\n");
  });

  it("is named by generate, which says to remove it (PRJ052)", async () => {
    const { dir } = project({ "openapi.yaml": taskSpec(TASK), "projector.yaml": taskAnnotation("  get_task: { operation: getTask }\n") });
    symlinkSync(join(dir, "nowhere"), join(dir, "generated.projector-lock"));
    const timeout = process.env["PROJECTOR_LOCK_TIMEOUT"];
    process.env["PROJECTOR_LOCK_TIMEOUT"] = "2";
    try {
      const run = await cli(["generate"], dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/PRJ052 generated\.projector-lock is a symbolic link, not the lock file generate takes/);
      expect(run.stderr).toMatch(/help: remove generated\.projector-lock/);
    } finally {
      if (timeout === undefined) delete process.env["PROJECTOR_LOCK_TIMEOUT"];
      else process.env["PROJECTOR_LOCK_TIMEOUT"] = timeout;
    }
    rmSync(join(dir, "generated.projector-lock"));
  });
});
