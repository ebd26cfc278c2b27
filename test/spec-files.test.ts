// What the spec loader reads: `$ref`s stay inside the
// spec's folder, only regular files of bounded size are read, YAML aliases and `$ref` chains are
// bounded, and the no-op digest covers every file the loader read.
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseAnnotation } from "../src/annotation/parse.js";
import { guardedFileResolver, MAX_SPEC_FILE_BYTES, resolverAsRead } from "../src/openapi/files.js";
import { refusedAsInternal } from "../src/openapi/ref-parser.js";
import { MAX_REF_CHAIN } from "../src/openapi/refs.js";
import { writtenPlace } from "../src/openapi/written-place.js";
import { aliasesOverLimit, MAX_ALIAS_GROWTH } from "../src/yaml-aliases.js";
import { cli, generateFrom, tempDir } from "./helpers/pipeline.js";

const SECRET = "npm_FAKE_TOKEN_4f9a1c_never_to_be_read";

const ANNOTATION = `spec: specs/openapi.yaml
output: generated
resources:
  note:
    schema: Note
    fields:
      id: { argument: [get_note] }
      text: keep
tools:
  get_note:
    operation: getNote
`;

/** A project whose spec's Note.text is `$ref: REF`, with a planted secret outside the project. */
function project(ref: string | ((outside: string) => string), extra: Record<string, string> = {}): { dir: string; outside: string } {
  const root = tempDir("projector-spec-files-");
  const outside = join(root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.yaml"), `token:\n  type: string\n  description: "${SECRET}"\n`);
  const dir = join(root, "project");
  mkdirSync(join(dir, "specs"), { recursive: true });
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  writeFileSync(
    join(dir, "specs/openapi.yaml"),
    `openapi: 3.0.3
info: { title: Notes, version: 1.0.0 }
paths:
  /notes/{id}:
    get:
      operationId: getNote
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: One note
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Note" }
components:
  schemas:
    Note:
      type: object
      properties:
        id: { type: string }
        text:
          $ref: "${typeof ref === "string" ? ref : ref(outside)}"
`,
  );
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, "specs", name), text);
  return { dir, outside };
}

/** Every file under a folder, as one string, to search for what must not be there. */
function everything(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n");
}

describe("$refs outside the spec's folder", () => {
  const ways: [string, (outside: string) => string][] = [
    ["a relative path", () => "../../outside/secret.yaml#/token"],
    ["an absolute path", (outside) => `${join(outside, "secret.yaml")}#/token`],
    ["a file:// URL", (outside) => `${pathToFileURL(join(outside, "secret.yaml")).href}#/token`],
  ];
  it.each(ways)("refuses %s before reading the file, at the $ref", async (_, ref) => {
    const { dir } = project(ref);
    const spec = readFileSync(join(dir, "specs/openapi.yaml"), "utf8");
    const run = await cli(["generate"], dir);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^specs\/openapi\.yaml:21:11 PRJ055 \$ref .* leads outside the spec's folder; it was not read$/m);
    expect(spec.split("\n")[20]!.slice(10)).toMatch(/^\$ref: /);
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    expect(existsSync(join(dir, "generated"))).toBe(false);
    expect(everything(dir)).not.toContain(SECRET);
    const init = await cli(["init", "specs/openapi.yaml", "-o", "drafted.yaml"], dir);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain("PRJ055");
    expect(everything(dir)).not.toContain(SECRET);
  });

  it("refuses a symlink inside the folder that leads out of it", async () => {
    const { dir, outside } = project("linked.yaml#/token");
    symlinkSync(join(outside, "secret.yaml"), join(dir, "specs/linked.yaml"));
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^specs\/openapi\.yaml:21:11 PRJ055 \$ref linked\.yaml#\/token leads outside/m);
    expect(everything(dir)).not.toContain(SECRET);
  });

  it("reads them with --allow-outside-refs", async () => {
    const { dir } = project("../../outside/secret.yaml#/token");
    const run = await cli(["generate", "--allow-outside-refs"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(dir, "generated/openapi.ts"), "utf8")).toContain(SECRET);
  });

  it("follows $refs between files inside the folder, subfolders included", async () => {
    const { dir } = project("parts/text.yaml#/text");
    mkdirSync(join(dir, "specs/parts"));
    writeFileSync(join(dir, "specs/parts/text.yaml"), "text: { type: string, description: The note's words }\n");
    const run = await cli(["generate"], dir);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe("the bundler's own pass over the files", () => {
  it("is given each file as the first pass read it, and reads only those it did not", async () => {
    const asked: string[] = [];
    const resolver = guardedFileResolver({
      spec: { path: "/spec/openapi.yaml", text: "openapi: 3.1.0\n" },
      realFolder: "/spec",
      allowOutside: false,
      read: () => {},
      refused: () => {},
    });
    const counting = { ...resolver, read: async (target: { url: string }) => (asked.push(target.url), "read: anew\n") };
    const schema = { type: "object" };
    const asRead = resolverAsRead(
      counting,
      new Map<string, unknown>([
        ["/spec/schema.yaml", schema],
        ["/spec/list.yaml", [1, 2]],
        ["/spec/quoted.yaml", "42"],
      ]),
      new Map([["/spec/quoted.yaml", "'42'\n"]]),
    );
    // A mapping or list as parsed then, the very value; a scalar as its text, which parses as it did.
    expect(await asRead.read({ url: "/spec/schema.yaml" })).toBe(schema);
    expect(await asRead.read({ url: "/spec/list.yaml" })).toEqual([1, 2]);
    expect(await asRead.read({ url: "/spec/quoted.yaml" })).toBe("'42'\n");
    expect(asked).toEqual([]);
    expect(await asRead.read({ url: "/spec/new.yaml" })).toBe("read: anew\n");
    expect(asked).toEqual(["/spec/new.yaml"]);
  });

  it("inlines what a $ref in a file a $ref reaches names, from the files as read before", async () => {
    const { dir } = project("task.yaml#/Task/properties/name", {
      "task.yaml": "Task:\n  type: object\n  properties:\n    name: { $ref: './name.yaml' }\n",
      "name.yaml": "type: string\ndescription: The note's text.\n",
    });
    const result = await generateFrom(join(dir, "projector.yaml"));
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.files.get("openapi.ts")).toContain("The note's text.");
  });
});

describe("files that are not regular, or too large", () => {
  it.skipIf(process.platform === "win32")("refuses a named pipe, as the spec and as a $ref, without waiting on it", async () => {
    const { dir } = project("pipe.yaml#/text");
    execFileSync("mkfifo", [join(dir, "specs/pipe.yaml")]);
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^specs\/openapi\.yaml:21:11 PRJ003 cannot read specs\/pipe\.yaml: it is a named pipe, not a regular file$/m,
    );
    writeFileSync(join(dir, "projector.yaml"), ANNOTATION.replace("specs/openapi.yaml", "specs/pipe.yaml"));
    const spec = await cli(["generate"], dir);
    expect(spec.code).toBe(1);
    expect(spec.stderr).toMatch(/^specs\/pipe\.yaml PRJ003 cannot read the spec: it is a named pipe, not a regular file$/m);
  });

  it("refuses a folder named as the spec", async () => {
    const { dir } = project("#/components/schemas/Note");
    writeFileSync(join(dir, "projector.yaml"), ANNOTATION.replace("specs/openapi.yaml", "specs"));
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^specs PRJ003 cannot read the spec: it is a folder, not a regular file$/m);
  });

  it(`refuses a file over ${MAX_SPEC_FILE_BYTES / 1024 / 1024} MiB without reading it`, async () => {
    const { dir } = project("huge.yaml#/text");
    const huge = join(dir, "specs/huge.yaml");
    writeFileSync(huge, "");
    // Sparse: the size is declared, no disk is used.
    truncateSync(huge, MAX_SPEC_FILE_BYTES + 1);
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^specs\/openapi\.yaml:21:11 PRJ003 cannot read specs\/huge\.yaml: it holds 256 MiB, over the 256 MiB limit$/m,
    );
  });
});

describe("a spec nested too deeply to follow", () => {
  it("is refused where it first nests past the limit, with what to do, before any stage can run out of stack", async () => {
    const dir = tempDir();
    const deep = `${'{"type":"object","properties":{"a":'.repeat(6000)}{"type":"string"}${"}}".repeat(6000)}`;
    const thing = { type: "object", properties: { name: { type: "string" }, deep: { $ref: "#/components/schemas/Deep" } } };
    const getThing = {
      operationId: "getThing",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } },
    };
    // The deep schema is reached from a tool's record: the source types hold it.
    writeFileSync(
      join(dir, "api.json"),
      `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/things/{id}":{"get":${JSON.stringify(getThing)}}},"components":{"schemas":{"Thing":${JSON.stringify(thing)},"Deep":${deep}}}}`,
    );
    writeFileSync(
      join(dir, "projector.yaml"),
      "spec: api.json\noutput: generated\nresources:\n  thing:\n    schema: Thing\n    fields:\n      name: keep\n      deep: { drop: too deep }\ntools:\n  get_thing:\n    operation: getThing\n",
    );
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^api\.json:1:\d+ PRJ003 cannot load the spec: it nests more than 500 levels deep$/m);
    expect(run.stderr).toContain("help: name the deep parts as components");
    expect(run.stderr).not.toContain("internal error");
  });

  it("is refused with what to do, not a stack overflow blamed on a path", async () => {
    const dir = tempDir();
    // Written as text: JSON.stringify itself would overflow the stack on it.
    const inner = `${'{"a":'.repeat(8000)}{"$ref":"other.json#/Leaf"}${"}".repeat(8000)}`;
    writeFileSync(join(dir, "api.json"), `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"x":${inner}}`);
    writeFileSync(join(dir, "other.json"), JSON.stringify({ Leaf: { type: "string" } }));
    const run = await cli(["init", "api.json", "-o", "p.yaml"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^api\.json:1:\d+ PRJ003 cannot load the spec: it nests more than 500 levels deep$/m);
    expect(run.stderr).toContain("help: name the deep parts as components");
  });
});

describe("a spec whose schemas hold one another thousands of $refs deep", () => {
  it("is refused by init and generate as the spec's problem, not an internal error", async () => {
    const dir = tempDir();
    const schemas: Record<string, object> = {};
    for (let i = 0; i < 5000; i++)
      schemas[`A${i}`] = {
        type: "object",
        properties: { name: { type: "string" }, next: i < 4999 ? { $ref: `#/components/schemas/A${i + 1}` } : { type: "string" } },
      };
    const getThing = {
      operationId: "getThing",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/A0" } } } } },
    };
    writeFileSync(
      join(dir, "api.json"),
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "t", version: "1" },
        paths: { "/things/{id}": { get: getThing } },
        components: { schemas },
      }),
    );
    const refused =
      /^api\.json PRJ003 cannot read the spec: its schemas hold one another, \$ref in \$ref, more levels deep than projector follows$/m;
    const drafted = await cli(["init", "api.json", "-o", "p.yaml"], dir);
    expect(drafted.code).toBe(1);
    expect(drafted.stderr).toMatch(refused);
    writeFileSync(
      join(dir, "projector.yaml"),
      "spec: api.json\noutput: generated\nresources:\n  a0:\n    schema: A0\n    fields:\n      name: keep\n      next: keep\ntools:\n  get_thing:\n    operation: getThing\n",
    );
    const generated = await cli(["generate"], dir);
    expect(generated.code).toBe(1);
    expect(generated.stderr).toMatch(refused);
    expect(generated.stderr).not.toContain("internal error");
  });
});

describe("YAML aliases", () => {
  const bomb = (indent: string) =>
    [
      "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]",
      ..."bcdefghi".split("").map((name, i) => `${name}: &${name} [${Array(10).fill(`*${"abcdefgh"[i]}`).join(", ")}]`),
    ]
      .map((line) => indent + line)
      .join("\n");

  it("refuses an alias bomb in a file the spec's $refs reach, naming that file", async () => {
    const { dir } = project("parts.yaml#/text", { "parts.yaml": `text: { type: string }\nx-bomb:\n${bomb("  ")}\n` });
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^specs\/parts\.yaml:4:10 PRJ056 YAML aliases expand specs\/parts\.yaml by more than 100,000 values$/m);
  });

  it("counts what aliases add, not how often an anchor is used", () => {
    const fields = Array.from({ length: 150 }, (_, i) => `      f${i}: ${i === 0 ? "&kept keep" : "*kept"}`).join("\n");
    const annotation = parseAnnotation(`spec: s.yaml\noutput: out\nresources:\n  r:\n    fields:\n${fields}\n`, "projector.yaml");
    expect(annotation.resources[0]!.fields).toHaveLength(150);

    const block = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } };
    expect(aliasesOverLimit({ uses: Array(1000).fill(block) })).toBe(false);
    let level: unknown = ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"];
    for (let depth = 0; depth < 5; depth++) level = Array(10).fill(level);
    expect(aliasesOverLimit({ level })).toBe(true);
    expect(MAX_ALIAS_GROWTH).toBe(100_000);
  });

  it("reports an alias inside the node it names as PRJ001, at the alias", async () => {
    expect(() => parseAnnotation("spec: s.yaml\noutput: out\nresources: &r\n  r: { fields: *r }\n", "projector.yaml")).toThrow(
      expect.objectContaining({
        diagnostics: [expect.objectContaining({ code: "PRJ001", location: { file: "projector.yaml", line: 4, column: 16 } })],
      }),
    );
  });
});

describe("$ref chains", () => {
  it("refuses a chain of 5,000 at its first link, without overflowing the stack", async () => {
    const { dir } = project("#/components/schemas/Link0", {});
    const spec = join(dir, "specs/openapi.yaml");
    const links = Array.from({ length: 5000 }, (_, i) => `    Link${i}: { $ref: "#/components/schemas/Link${i + 1}" }`);
    writeFileSync(spec, `${readFileSync(spec, "utf8")}${links.join("\n")}\n    Link5000: { type: string }\n`);
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^specs\/openapi\.yaml:21:11 PRJ057 \$ref #\/components\/schemas\/Link0 leads through more than 32 \$refs/m);
  });

  it("accepts a chain of 32", async () => {
    const { dir } = project("#/components/schemas/Link0", {});
    const spec = join(dir, "specs/openapi.yaml");
    const links = Array.from({ length: 31 }, (_, i) => `    Link${i}: { $ref: "#/components/schemas/Link${i + 1}" }`);
    writeFileSync(spec, `${readFileSync(spec, "utf8")}${links.join("\n")}\n    Link31: { type: string }\n`);
    const run = await cli(["generate"], dir);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe("the no-op digest", () => {
  it("regenerates when a $ref'd file whose name has a space changes", async () => {
    const { dir } = project("sub ject.yaml#/text", { "sub ject.yaml": "text: { type: string, description: First words }\n" });
    mkdirSync(join(dir, "node_modules"));
    expect((await cli(["generate"], dir)).code).toBe(0);
    expect((await cli(["generate"], dir)).stdout).toContain("up to date");
    writeFileSync(join(dir, "specs/sub ject.yaml"), "text: { type: string, description: Other words }\n");
    const run = await cli(["generate"], dir);
    expect(run.stdout).not.toContain("up to date");
    expect(readFileSync(join(dir, "generated/openapi.ts"), "utf8")).toContain("Other words");
  });
});

describe("specs openapi-typescript reads", () => {
  it("init says when a 3.1 spec has no operations to project", async () => {
    const { dir } = project("#/components/schemas/Note");
    writeFileSync(
      join(dir, "specs/hooks.yaml"),
      "openapi: 3.1.0\ninfo: { title: Hooks, version: 1 }\ncomponents:\n  schemas:\n    Note: { type: object }\n",
    );
    const run = await cli(["init", "specs/hooks.yaml"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^specs\/hooks\.yaml:1:1 PRJ058 the spec declares no operations to project$/m);
    expect(run.stderr).not.toContain("not an OpenAPI");
  });
});

describe("diagnostics inside files the spec's $refs reach", () => {
  // The validator's message names the place in the spec as read; the location names it where it is written.
  const warning = (stderr: string, pointer: string) =>
    stderr.split("\n").find((line) => line.includes(` PRJ009 warning the spec does not follow OpenAPI 3.0.3 here: ${pointer} `)) ??
    `no PRJ009 at #${pointer} in:\n${stderr}`;

  it("are located in the YAML file that writes the place, the CLI and generate() alike", async () => {
    const { dir } = project("parts.yaml#/text", { "parts.yaml": "text:\n  description: The note's words\n  type: strang\n" });
    const run = await cli(["generate"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(warning(run.stderr, "/components/schemas/Note/properties/text/type")).toMatch(
      /^specs\/parts\.yaml:3:3 \(#\/text\/type\) PRJ009 warning the spec does not follow OpenAPI 3\.0\.3 here: \/components\/schemas\/Note\/properties\/text\/type must be equal to one of the allowed values$/,
    );
    const library = await generateFrom(join(dir, "projector.yaml"));
    const located = library.diagnostics.find(
      (d) => d.code === "PRJ009" && d.message.includes("here: /components/schemas/Note/properties/text/type "),
    );
    expect(located?.location).toMatchObject({ line: 3, column: 3, pointer: "/text/type" });
    expect(located?.location.file).toMatch(/(^|\/)specs\/parts\.yaml$/);
  });

  it("are located in a JSON file a $ref reaches", async () => {
    const { dir } = project("parts.json#/text", { "parts.json": '{\n  "text": {\n    "type": "strang"\n  }\n}\n' });
    const run = await cli(["generate"], dir);
    expect(warning(run.stderr, "/components/schemas/Note/properties/text/type")).toMatch(/^specs\/parts\.json:3:5 /);
  });

  it("follow a chain of two files, and a $ref inside the second, to the file and line that write the place", async () => {
    const { dir } = project("a.yaml#/text", {
      "a.yaml": 'text:\n  $ref: "b.yaml#/Text"\n',
      "b.yaml": 'Text:\n  $ref: "#/Words"\nWords:\n  description: The note\'s words\n  type: strang\n',
    });
    const run = await cli(["generate"], dir);
    expect(warning(run.stderr, "/components/schemas/Note/properties/text/type")).toMatch(/^specs\/b\.yaml:5:3 /);
  });

  it("are located in the file a JSON spec's $ref reaches, and in the JSON spec itself where it writes the place", async () => {
    const { dir } = project("parts.yaml#/text", { "parts.yaml": "text:\n  description: The note's words\n  type: strang\n" });
    const spec = parse(readFileSync(join(dir, "specs/openapi.yaml"), "utf8")) as { components: { schemas: Record<string, unknown> } };
    spec.components.schemas["Other"] = { type: "strang" };
    writeFileSync(join(dir, "specs/openapi.json"), `${JSON.stringify(spec, null, 2)}\n`);
    writeFileSync(join(dir, "projector.yaml"), ANNOTATION.replace("specs/openapi.yaml", "specs/openapi.json"));
    const run = await cli(["generate"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(warning(run.stderr, "/components/schemas/Note/properties/text/type")).toMatch(/^specs\/parts\.yaml:3:3 /);
    const other = readFileSync(join(dir, "specs/openapi.json"), "utf8")
      .split("\n")
      .findIndex((line) => line.includes('"Other"'));
    expect(warning(run.stderr, "/components/schemas/Other/type")).toMatch(new RegExp(`^specs/openapi\\.json:${other + 2}:9 `));
  });

  it("stop where a $ref cannot be followed, at the object that holds it; a key beside a $ref is its own", () => {
    const [api, other] = [resolve("/s/api.yaml"), resolve("/s/other.yaml")];
    const written: Record<string, unknown> = {
      [api]: {
        a: { $ref: "remote.yaml#/x" },
        b: { $ref: "other.yaml#/nothing" },
        c: { $ref: "other.yaml#/x", description: "beside" },
        d: { allOf: [{ $ref: "other.yaml#/x" }] },
        loop: { $ref: "#/loop" },
      },
      [other]: { x: { type: "strang" } },
    };
    const files = {
      has: (file: string) => file in written,
      nodeAt: (file: string, path: readonly (string | number)[]) =>
        path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], written[file]),
    };
    const place = (path: string, followLast = true) => writtenPlace(files, api, path.split("/").slice(1), followLast);
    expect(place("/a/type")).toEqual({ file: api, path: ["a"], followed: 0 });
    expect(place("/b/type")).toEqual({ file: api, path: ["b"], followed: 0 });
    expect(place("/c/description")).toEqual({ file: api, path: ["c", "description"], followed: 0 });
    expect(place("/c/type")).toEqual({ file: other, path: ["x", "type"], followed: 1 });
    expect(place("/d/allOf/0/type")).toEqual({ file: other, path: ["x", "type"], followed: 1 });
    expect(place("/c", false)).toEqual({ file: api, path: ["c"], followed: 0 });
    expect(place("/c")).toEqual({ file: other, path: ["x"], followed: 1 });
    expect(place("/loop").followed).toBe(MAX_REF_CHAIN);
  });

  it("are located at broken YAML in a file a $ref reaches, named as the spec's own files are", async () => {
    const { dir } = project("parts.yaml#/text", { "parts.yaml": "text:\n  description: The note's words\n  type: [string\n" });
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^specs\/parts\.yaml:\d+:\d+ PRJ003 spec syntax: /m);
    expect(run.stderr).toContain("help: fix the YAML/JSON at this position");
    expect(run.stderr).not.toContain(dir);
  });
});

describe("remote $refs with --allow-remote-refs", () => {
  /** A server on loopback that answers 404 to every request, for as long as `body` runs. */
  async function serving(body: (port: number) => Promise<void>): Promise<void> {
    const server = createServer((_, response) => response.writeHead(404).end());
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      await body((server.address() as AddressInfo).port);
    } finally {
      await new Promise((done) => server.close(done));
    }
  }

  it("say the remote document could not be read, and why, not that it was refused", async () => {
    await serving(async (port) => {
      // 0.0.0.0 reaches the server on Linux, and nothing elsewhere: either way the download fails.
      const url = `http://0.0.0.0:${port}/parts.yaml`;
      expect(refusedAsInternal(url)).toBe(false);
      const { dir } = project(`${url}#/text`);
      const run = await cli(["generate", "--allow-remote-refs"], dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^specs/openapi\\.yaml:21:11 PRJ003 cannot read the remote document http://0\\.0\\.0\\.0:${port}/parts\\.yaml: (HTTP ERROR 404|fetch failed)$`,
          "m",
        ),
      );
      expect(run.stderr).toContain("help: download the document next to the spec and point the $ref at the file\n");
      expect(run.stderr).not.toContain("refused");
    });
  });

  it("say that the $ref reader refuses a loopback address by design", async () => {
    await serving(async (port) => {
      const { dir } = project("parts.yaml#/text", { "parts.yaml": `text:\n  $ref: "http://127.0.0.1:${port}/text.yaml"\n` });
      const run = await cli(["generate", "--allow-remote-refs"], dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^specs/parts\\.yaml:2:3 PRJ003 cannot read the remote document http://127\\.0\\.0\\.1:${port}/text\\.yaml: json-schema-ref-parser, which reads the \\$refs, refuses loopback and internal-network addresses$`,
          "m",
        ),
      );
      expect(run.stderr).toContain("help: it does so by design, --allow-remote-refs or not: download the document next to the spec");
      const refused = await cli(["generate"], dir);
      expect(refused.stderr).toMatch(/^specs\/parts\.yaml:2:3 PRJ005 remote \$ref http:\/\/127\.0\.0\.1:\d+\/text\.yaml refused$/m);
    });
  });
});
