import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ROOT, typecheck } from "./helpers/pipeline.js";

// The usage docs (docs/integrations.md, linked from the README) promise what their snippets print:
// each ```ts block there is run as a consumer at the repository's root would run it, and what it logs
// must equal the ```text block after it.
const SECTIONS = ["Use with an MCP server", "Use with function calling", "Use with DataLoader"];
const SNIPPETS = join(ROOT, "test/.readme");

interface Snippet {
  section: string;
  file: string;
  code: string;
  prints: string;
}

function snippets(readme: string): Snippet[] {
  const found: Snippet[] = [];
  for (const section of SECTIONS) {
    const start = readme.indexOf(`\n## ${section}\n`);
    expect(start, `docs/integrations.md has a "## ${section}" section`).toBeGreaterThan(-1);
    const end = readme.indexOf("\n## ", start + 1);
    const body = readme.slice(start, end === -1 ? undefined : end);
    const pairs = [...body.matchAll(/```ts\n([\s\S]*?)```\n+[^`\n]*\n+```text\n([\s\S]*?)```/g)];
    expect(pairs.length, `"${section}" has a ts snippet followed by the text it prints`).toBeGreaterThan(0);
    expect(pairs.length, `every ts snippet of "${section}" is followed by the text it prints`).toBe(body.split("```ts\n").length - 1);
    pairs.forEach(([, code, prints], i) => {
      const file = join(SNIPPETS, `${section.toLowerCase().replace(/\W+/g, "-")}-${i + 1}.ts`);
      found.push({ section, file, code: code!.replaceAll('"./generated/', '"../../generated/'), prints: prints!.trimEnd() });
    });
  }
  return found;
}

describe("usage snippets of docs/integrations.md", () => {
  const all = snippets(readFileSync(join(ROOT, "docs/integrations.md"), "utf8"));
  mkdirSync(SNIPPETS, { recursive: true });
  writeFileSync(join(SNIPPETS, "package.json"), JSON.stringify({ type: "module" }));
  for (const snippet of all) writeFileSync(snippet.file, snippet.code);
  afterAll(() => rmSync(SNIPPETS, { recursive: true, force: true }));

  it("type-check under the strictest flags", () => {
    expect(
      typecheck(
        all.map((s) => s.file),
        ["node"],
      ),
    ).toEqual([]);
  });

  it.each(all.map((s) => [s.section, s] as const))("%s: runs and prints what the docs say", async (_, snippet) => {
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
    try {
      await import(snippet.file);
    } finally {
      log.mockRestore();
    }
    expect(lines.join("\n")).toBe(snippet.prints);
  });
});
