import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { textFigureCounter } from "../src/evidence/text-choice.js";
import { initAnnotation } from "../src/init/init.js";
import { readRuntimeTemplate } from "../src/emit/runtime-template.js";
import { loadSpec } from "../src/openapi/load.js";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";

function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "specs"));
  cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(dir, "specs/support-tickets.openapi.yaml"));
  return dir;
}

describe("projector init", () => {
  it("drafts the same file from the built CLI, which projects the examples in a worker thread, and leaves no folder behind", async () => {
    const inProcess = project();
    expect((await cli(["init", "specs/support-tickets.openapi.yaml", "--accept-guesses"], inProcess)).code).toBe(0);
    const built = project();
    // A temporary folder of its own, to see that the modules it ran are gone.
    const temporary = tempDir();
    const stdout = execFileSync(
      process.execPath,
      [join(ROOT, "dist/cli.js"), "init", "specs/support-tickets.openapi.yaml", "--accept-guesses"],
      {
        cwd: built,
        encoding: "utf8",
        env: { ...process.env, TMPDIR: temporary },
      },
    );
    expect(stdout).toContain("projector.yaml: drafted with 5 tool(s)");
    const text = readFileSync(join(built, "projector.yaml"), "utf8");
    expect(text).toMatch(/text: table # the spec's example: (\d+) tokens as a table, (\d+) as JSON/);
    expect(text).toBe(readFileSync(join(inProcess, "projector.yaml"), "utf8"));
    expect(readdirSync(temporary)).toEqual([]);
  });

  it("drafts every resource and field with a reason, marks unsure guesses todo, and generate refuses them", async () => {
    const dir = project();
    const init = await cli(["init", "specs/support-tickets.openapi.yaml"], dir);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("projector.yaml: drafted with 5 tool(s) and 17 field(s); 1 guess(es) marked todo");
    const text = readFileSync(join(dir, "projector.yaml"), "utf8");
    const annotation = parse(text);
    expect(Object.keys(annotation.tools)).toEqual(["search_tickets", "get_ticket", "list_users", "list_organizations", "get_user"]);
    // The spec's example page reads in fewer tokens as a table, so init proposes one, with the figures beside it.
    expect(annotation.tools.search_tickets).toEqual({
      operation: "searchTickets",
      page: { total: "meta.page.total", more: "links.next", next: "links.next" },
      text: "table",
      // Every parameter, renamed where its wire name is no argument name; nothing dropped.
      inputs: { q: {}, "filter[status]": { as: "status" }, "page[number]": { as: "page" } },
    });
    expect(annotation.tools.get_ticket.inputs).toEqual({ ticket_id: {} });
    expect(text).toContain(
      "filter[status]: { as: status } # the model passes the spec's words (new, pending, open, resolved, closed); the API gets their codes\n",
    );
    expect(text).toMatch(/text: table # the spec's example: (\d+) tokens as a table, (\d+) as JSON/);
    const [, asTable, asJson] = /text: table # the spec's example: (\d+) tokens as a table, (\d+) as JSON/.exec(text)!;
    expect(Number(asTable)).toBeLessThan(Number(asJson));
    expect(Object.keys(annotation.resources.ticket.fields)).toEqual([
      "id",
      "subject",
      "status_code",
      "priority",
      "created_at",
      "updated_at",
      "sla_due_at",
      "internal_notes",
      "assignee",
      "organization",
    ]);
    expect(annotation.resources.ticket.fields.status_code).toEqual({ legend: "spec" });
    expect(annotation.resources.ticket.fields.priority.todo).toContain("integer enum [1,2,3] with no words in the spec");
    expect(annotation.resources.ticket.fields.id).toEqual({ argument: ["get_ticket"] });
    expect(annotation.resolvers).toEqual({
      users: { type: "user", label: "display_name" },
      organizations: { type: "organization", label: "name" },
    });
    expect(text).toMatch(/created_at: \{ format: datetime \} # a timestamp/);
    const generate = await cli(["generate"], dir);
    expect(generate.code).toBe(1);
    expect(generate.stderr).toMatch(/^projector\.yaml:\d+:\d+ PRJ032 ticket\.priority is still a guess/m);
  });

  it("with --accept-guesses writes decisions that generate takes at once", async () => {
    const dir = project();
    expect((await cli(["init", "specs/support-tickets.openapi.yaml", "--accept-guesses"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, "projector.yaml"), "utf8")).not.toMatch(/^\s+\w+: \{ ?todo:/m);
    const generate = await cli(["generate"], dir);
    expect(generate.stderr).toBe("");
    expect(generate.code).toBe(0);
    // The drafted inputs reach the definitions: the model passes `status` in words and `page`.
    const definitions = readFileSync(join(dir, "generated/support-desk/definitions.ts"), "utf8");
    const schema = /export const searchTicketsInputSchema = (\{[\s\S]*?\n\}) satisfies/.exec(definitions)![1]!;
    expect(schema).toMatch(/\bstatus: \{\s*type: "string",\s*enum: \["new", "pending", "open", "resolved", "closed"\]/);
    expect(schema).toMatch(/\bpage: \{ type: "integer"/);
    expect(schema).not.toContain("page_number");
  });

  it("keeps a person's inputs decisions on a re-run, adding no entry they removed", async () => {
    const dir = project();
    await cli(["init", "specs/support-tickets.openapi.yaml", "--accept-guesses"], dir);
    const decided = readFileSync(join(dir, "projector.yaml"), "utf8")
      .replace("      page[number]: { as: page }\n", "")
      .replace("q: {}", 'q: { as: query, description: "Words in the subject." }')
      .replace(/filter\[status\]: \{ as: status \}.*\n/, "filter[status]: { as: state } # decided\n");
    writeFileSync(join(dir, "projector.yaml"), decided);
    const rerun = await cli(["init", "specs/support-tickets.openapi.yaml", "--accept-guesses"], dir);
    expect(rerun.code).toBe(0);
    expect(readFileSync(join(dir, "projector.yaml"), "utf8")).toBe(decided);
    expect(parse(decided).tools.search_tickets.inputs).toEqual({
      q: { as: "query", description: "Words in the subject." },
      "filter[status]": { as: "state" },
    });
    expect((await cli(["generate"], dir)).code).toBe(0);
  });

  it("keeps every decision on a re-run and adds only what the spec gained", async () => {
    const dir = project();
    await cli(["init", "specs/support-tickets.openapi.yaml"], dir);
    const decided = readFileSync(join(dir, "projector.yaml"), "utf8")
      .replace(/priority: \{ ?todo:.*\n/, "priority: { legend: { 1: low, 2: high, 3: urgent } } # decided by a person\n")
      .replace("internal_notes: keep # text", 'internal_notes: { drop: "staff only" }');
    writeFileSync(join(dir, "projector.yaml"), decided);
    const specPath = join(dir, "specs/support-tickets.openapi.yaml");
    writeFileSync(
      specPath,
      readFileSync(specPath, "utf8").replace(
        "        internal_notes:\n          type",
        "        escalated_at: { type: string, format: date-time }\n        internal_notes:\n          type",
      ),
    );
    const rerun = await cli(["init", "specs/support-tickets.openapi.yaml"], dir);
    expect(rerun.stdout).toContain("projector.yaml: extended with 0 tool(s) and 1 field(s)");
    const after = readFileSync(join(dir, "projector.yaml"), "utf8");
    expect(after.startsWith(decided.replace(/\n$/, "").split("\n").slice(0, 10).join("\n"))).toBe(true);
    expect(after).toContain("priority: { legend: { 1: low, 2: high, 3: urgent } } # decided by a person");
    expect(after).toContain('internal_notes: { drop: "staff only" }');
    expect(parse(after).resources.ticket.fields.escalated_at).toEqual({ format: "datetime" });
    expect((await cli(["generate"], dir)).code).toBe(0);
  });

  it("drafts only the chosen operations", async () => {
    const dir = project();
    await cli(["init", "specs/support-tickets.openapi.yaml", "--operations", "getUser,GET /tickets", "-o", "api.yaml"], dir);
    const annotation = parse(readFileSync(join(dir, "api.yaml"), "utf8"));
    expect(Object.keys(annotation.tools)).toEqual(["search_tickets", "get_user"]);
    expect(annotation.resources.ticket.fields.id).toEqual({ drop: "no tool takes this id" });
  });

  it("exits 2 without a spec, and 1 for a spec that cannot be read", async () => {
    const dir = project();
    expect((await cli(["init"], dir)).code).toBe(2);
    const missing = await cli(["init", "specs/nope.yaml"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("specs/nope.yaml PRJ003 cannot read the spec: no such file");
  });
});

describe("init's check of its draft", () => {
  it("leaves out a resource with its only tool, in the same round, when the spec has no schema for it", async () => {
    const dir = tempDir();
    const record = {
      type: "object",
      properties: {
        type: { type: "string", enum: ["get_device"] },
        id: { type: "string" },
        attributes: { type: "object", properties: { name: { type: "string" } } },
      },
    };
    const json = { schema: { type: "object", properties: { data: record } } };
    const spec = {
      openapi: "3.0.3",
      info: { title: "Devices", version: "1" },
      paths: {
        "/devices/{id}": {
          get: {
            operationId: "GetDevice",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "ok", content: { "application/vnd.api+json": json } } },
          },
        },
        "/users": {
          get: {
            operationId: "ListUsers",
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/User" } } } },
              },
            },
          },
        },
      },
      components: { schemas: { User: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } } },
    };
    writeFileSync(join(dir, "devices.json"), JSON.stringify(spec));
    const loaded = await loadSpec(join(dir, "devices.json"), "devices.json", { allowRemoteRefs: false, allowOutsideRefs: false });
    const result = initAnnotation(loaded, {
      file: "projector.yaml",
      spec: "devices.json",
      output: "generated/devices",
      acceptGuesses: true,
    });
    // The resource the JSON:API type names clashes with the tool named after the operation: the tool goes, and its resource with it.
    expect(result.draft.skipped).toEqual([
      { operation: "get_device", reason: "tool get_device and resource get_device would both generate `projectGetDevice`" },
    ]);
    expect([...result.draft.tools.keys()]).toEqual(["list_users"]);
    expect([...result.draft.resources.keys()]).toEqual(["user"]);
    expect(result.remaining).toEqual([]);
    expect(result.checks).toBe(2);
    expect(result.model?.resources.map((r) => r.name)).toEqual(["user"]);
  });
});

describe("init's table figures", () => {
  /** The model init drafts for the example spec, every guess accepted. */
  const supportDraftModel = async () => {
    const specPath = join(ROOT, "specs/support-tickets.openapi.yaml");
    const spec = await loadSpec(specPath, "support-tickets.openapi.yaml", { allowRemoteRefs: false, allowOutsideRefs: false });
    const { model } = initAnnotation(spec, {
      file: "projector.yaml",
      spec: "support-tickets.openapi.yaml",
      output: "generated/x",
      acceptGuesses: true,
    });
    return model!;
  };
  /** The built module: its worker threads start, as they do for the CLI (from the sources there are none). */
  const builtTextChoice = async () =>
    (await import(pathToFileURL(join(ROOT, "dist/evidence/text-choice.js")).href)) as typeof import("../src/evidence/text-choice.js");
  it("are counted when nothing started the counter ahead of drafting", async () => {
    const model = await supportDraftModel();
    const counter = textFigureCounter(await readRuntimeTemplate(), { spec: "support-tickets.openapi.yaml", annotation: "projector.yaml" });
    try {
      const figures = await counter.count(model, new Set(["search_tickets"]));
      expect([...figures.keys()]).toEqual(["search_tickets"]);
      expect(figures.get("search_tickets")!.table).toBeLessThan(figures.get("search_tickets")!.json);
    } finally {
      await counter.dispose();
    }
  });

  it("fail with the emitter's error when a later batch cannot be made, leaving no promise unhandled and no folder behind", async () => {
    const model = await supportDraftModel();
    const search = model.tools.find((t) => t.name === "search_tickets")!;
    const tools = Array.from({ length: 7 }, (_, i) => ({ ...search, name: `search_tickets_${i + 1}`, typeName: `SearchTickets${i + 1}` }));
    // The last batch's emit throws, after the first batches went to the worker thread.
    Object.defineProperty(tools[6], "rowsPath", {
      get: () => {
        throw new Error("the last tool cannot be emitted");
      },
    });
    // A temporary folder of this test's own: other test files make and remove runnable folders meanwhile.
    const temporary = tempDir();
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    const runs = () => readdirSync(temporary).filter((name) => name.startsWith("projector-run-")).length;
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const built = await builtTextChoice();
      const counter = built.textFigureCounter(await readRuntimeTemplate(), {
        spec: "support-tickets.openapi.yaml",
        annotation: "projector.yaml",
      });
      counter.start();
      try {
        await expect(counter.count({ ...model, tools }, new Set(tools.map((t) => t.name)))).rejects.toThrow(
          "the last tool cannot be emitted",
        );
      } finally {
        await counter.dispose();
      }
      // A rejection nobody handles is reported once the microtasks of the turn that made it have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(runs()).toBe(0);
    } finally {
      process.off("unhandledRejection", listener);
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });

  it("are, counted in batches by the built code's worker thread, each tool's own figures, in the tools' order", async () => {
    const model = await supportDraftModel();
    const search = model.tools.find((t) => t.name === "search_tickets")!;
    const example = search.example as { data: unknown[] };
    // Seven tools over one resource, more than there are batches, each with a page of its own length:
    // the later batches import the resource the first one wrote, and a figure given to the wrong tool shows.
    const tools = Array.from({ length: 7 }, (_, i) => ({
      ...search,
      name: `search_tickets_${i + 1}`,
      typeName: `SearchTickets${i + 1}`,
      example: { ...example, data: Array.from({ length: 7 - i }, (_, k) => example.data[k % example.data.length]) },
    }));
    const many = { ...model, tools };
    const names = { spec: "support-tickets.openapi.yaml", annotation: "projector.yaml" };
    const runtime = await readRuntimeTemplate();
    const alone = async (tool: string) => {
      const counter = textFigureCounter(runtime, names);
      try {
        return (await counter.count(many, new Set([tool]))).get(tool);
      } finally {
        await counter.dispose();
      }
    };
    const expected = [];
    for (const tool of tools) expected.push([tool.name, await alone(tool.name)]);
    expect(new Set(expected.map(([, figures]) => JSON.stringify(figures))).size).toBe(tools.length);

    const built = await builtTextChoice();
    const counter = built.textFigureCounter(runtime, names);
    try {
      const figures = await counter.count(many, new Set(tools.map((t) => t.name).reverse()));
      expect([...figures]).toEqual(expected);
    } finally {
      await counter.dispose();
    }
  });
});
