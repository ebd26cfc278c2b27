import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DiagnosticError } from "../src/diagnostics.js";
import type { SourceTypesThreads } from "../src/openapi/source-types-thread.js";
import { untimed } from "../src/progress.js";
import { loadSpecAhead } from "../src/project/spec-ahead.js";
import { topLevelScalar } from "../src/project/top-level-scalar.js";
import { exampleProject } from "./helpers/example-project.js";
import { cli } from "./helpers/pipeline.js";

describe("topLevelScalar", () => {
  it("reads a top-level key written as a plain or quoted scalar on its own line", () => {
    expect(topLevelScalar("# a comment\nspec: specs/api.yaml\noutput: generated/api\n", "spec")).toBe("specs/api.yaml");
    expect(topLevelScalar("spec:   specs/api.yaml   # the spec\r\n", "spec")).toBe("specs/api.yaml");
    expect(topLevelScalar("spec: 'it''s here.yaml'\n", "spec")).toBe("it's here.yaml");
    expect(topLevelScalar('spec: "a b.json" # quoted\n', "spec")).toBe("a b.json");
    expect(topLevelScalar("spec: a#b.yaml\n", "spec")).toBeUndefined();
  });

  it("gives no answer where the line may not mean what it seems", () => {
    for (const text of [
      "tools:\n  spec: x.yaml\n", // not top-level
      "spec:\n  x.yaml\n", // value on the next line
      "spec: &name x.yaml\n", // an anchor
      "spec: *name\n",
      "spec: [x.yaml]\n",
      "spec: 'x.yaml\n", // an unclosed quote
      'spec: "x\\ty.yaml"\n', // an escape
      "spec: a: b\n",
      "spec: |\n  x.yaml\n",
      "spec: a.yaml\n---\nspec: b.yaml\n", // more than once
      "specs: a.yaml\n",
    ])
      expect(topLevelScalar(text, "spec"), text).toBeUndefined();
  });
});

/** Threads that record what they were asked to type, and answer at once. */
const recordingThreads = () => {
  const asked: string[] = [];
  const threads = {
    type: async (_document: unknown, specFile: string) => {
      asked.push(specFile);
      return `// types of ${specFile}\n`;
    },
  } as unknown as SourceTypesThreads;
  return { asked, threads };
};

describe("loadSpecAhead", () => {
  const options = (readsCache = false) => ({ config: "projector.yaml", readsCache, load: {}, stage: untimed });

  it("loads the spec the annotation names and asks a thread to type it", async () => {
    const dir = exampleProject();
    const { asked, threads } = recordingThreads();
    const ahead = await loadSpecAhead(options(), dir, threads);
    expect(ahead?.specPath).toBe(join(dir, "specs/support-tickets.openapi.yaml"));
    expect((await ahead!.spec).document["openapi"]).toMatch(/^3\./);
    expect(asked).toEqual(["specs/support-tickets.openapi.yaml"]);
    expect(await ahead!.types).toBe("// types of specs/support-tickets.openapi.yaml\n");
  });

  it("keeps a spec's failure for later and asks no thread", async () => {
    const dir = exampleProject();
    writeFileSync(join(dir, "specs/support-tickets.openapi.yaml"), "openapi: [\n");
    const { asked, threads } = recordingThreads();
    const ahead = await loadSpecAhead(options(), dir, threads);
    const error = await ahead!.spec.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DiagnosticError);
    expect((error as DiagnosticError).diagnostics[0]!.code).toBe("PRJ003");
    expect(asked).toEqual([]);
    expect(ahead!.types).toBeUndefined();
  });

  it("leaves a run that may find its inputs unchanged, and an annotation it cannot read plainly, to the usual order", async () => {
    const dir = exampleProject({ nodeModules: true });
    expect(await loadSpecAhead(options(true), dir)).toBeDefined();
    expect((await cli(["generate", "--silent"], dir)).code).toBe(0);
    expect(await loadSpecAhead(options(true), dir)).toBeUndefined();
    expect(await loadSpecAhead(options(false), dir)).toBeDefined();
    const annotation = readFileSync(join(dir, "projector.yaml"), "utf8");
    writeFileSync(join(dir, "projector.yaml"), annotation.replace(/^spec: (.*)$/m, "spec:\n  $1"));
    expect(await loadSpecAhead(options(), dir)).toBeUndefined();
    expect(await loadSpecAhead({ ...options(), config: "missing.yaml" }, dir)).toBeUndefined();
  });
});

describe("generate with the spec loaded ahead", () => {
  it("reports a bad annotation, not the missing spec it names", async () => {
    const dir = exampleProject();
    const annotation = readFileSync(join(dir, "projector.yaml"), "utf8");
    writeFileSync(join(dir, "projector.yaml"), `${annotation.replace(/^spec: .*$/m, "spec: specs/missing.yaml")}\nsurprise: 1\n`);
    const result = await cli(["generate", "--force"], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^projector\.yaml:\d+:1 PRJ002 unknown key "surprise"/m);
    expect(result.stderr).not.toContain("PRJ003");
  });

  it("loads the spec the parsed annotation names when the line read ahead meant something else", async () => {
    const dir = exampleProject();
    // In a flow mapping the comma ends the value; read ahead, the line names a spec `...yaml,` that does not exist.
    const { spec, ...rest } = parse(readFileSync(join(dir, "projector.yaml"), "utf8")) as Record<string, unknown>;
    const entries = Object.entries(rest).map(([key, value]) => `${key}: ${JSON.stringify(value)},`);
    writeFileSync(join(dir, "projector.yaml"), `{\nspec: ${spec},\n${entries.join("\n")}\n}\n`);
    expect(topLevelScalar(readFileSync(join(dir, "projector.yaml"), "utf8"), "spec")).toBe("specs/support-tickets.openapi.yaml,");
    const result = await cli(["generate", "--force", "--silent"], dir);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});
