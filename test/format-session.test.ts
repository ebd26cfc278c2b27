// One prettier session per generate: files asked for early (the runtime's modules, before the spec
// loads) are not formatted again when the whole output is asked for, texts formatted in an earlier
// run are taken as they were, and the worker threads give what prettier on the main thread gives.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRuntimeTemplate } from "../src/emit/runtime-template.js";
import { formatKey, formatSession } from "../src/format.js";
import { prettierVersion } from "../src/prettier-config.js";
import { ROOT } from "./helpers/pipeline.js";

const unformatted = (i: number) => `export const  value${i}=( ${i} )\n`;
const formatted = (i: number) => `export const value${i} = ${i};\n`;
const files = (count: number, from = 0) =>
  new Map(Array.from({ length: count }, (_, i) => [`runtime/m${from + i}.ts`, unformatted(from + i)]));

describe("a format session", () => {
  it("formats many files in worker threads exactly as one file on the main thread", async () => {
    const session = formatSession(null);
    try {
      const many = await session.format(files(60));
      expect([...many.values()]).toEqual(Array.from({ length: 60 }, (_, i) => formatted(i)));
      const one = formatSession(null);
      expect(await one.format(files(1, 7))).toEqual(new Map([["runtime/m7.ts", formatted(7)]]));
      one.close();
    } finally {
      session.close();
    }
  });

  it("answers a later ask for the same texts from the earlier one, and keeps every text it gave", async () => {
    const session = formatSession({ singleQuote: true });
    try {
      const early = session.format(files(45));
      const all = await session.format(new Map([...files(45), ["index.ts", 'export const a = "b"\n']]));
      expect((await early).get("runtime/m3.ts")).toBe(formatted(3));
      expect(all.get("index.ts")).toBe("export const a = 'b';\n");
      expect(session.used.size).toBe(46);
      expect(session.used.get(formatKey(prettierVersion(), { singleQuote: true }, unformatted(3)))).toBe(formatted(3));
    } finally {
      session.close();
    }
  });

  it("takes a text formatted before by its key, release, options and text, and formats a changed one", async () => {
    const kept = "export const kept = 'as the last run left it';\n";
    const known = new Map([[formatKey(prettierVersion(), null, unformatted(1)), kept]]);
    const session = formatSession(null, known);
    try {
      const out = await session.format(files(2));
      expect(out.get("runtime/m1.ts")).toBe(kept);
      expect(out.get("runtime/m0.ts")).toBe(formatted(0));
    } finally {
      session.close();
    }
  });

  it("tells a file prettier cannot read to whoever waits for it, early or late", async () => {
    const session = formatSession(null);
    try {
      const broken = new Map([...files(41), ["runtime/broken.ts", "export const = ;\n"]]);
      const early = session.format(broken);
      await expect(session.format(broken)).rejects.toThrow(/broken\.ts|Unexpected token|Expression expected/);
      await expect(early).rejects.toThrow();
    } finally {
      session.close();
    }
  });

  it("has the consumer's config read and the files with prettier when started settles, before any is formatted", async () => {
    const read: string[][] = [];
    const session = formatSession(async (paths) => {
      await new Promise((resolve) => setImmediate(resolve));
      read.push([...paths]);
      return null;
    });
    try {
      let answered = false;
      const asked = session.format(files(45)).then((out) => {
        answered = true;
        return out;
      });
      await session.started();
      expect(read).toEqual([[...files(45).keys()]]);
      expect(answered).toBe(false);
      expect((await asked).get("runtime/m2.ts")).toBe(formatted(2));
    } finally {
      session.close();
    }
  });

  it("settles started when the consumer's config cannot be read, leaving the failure to the ask", async () => {
    const session = formatSession(async () => {
      throw new Error("semi must be a boolean");
    });
    try {
      const asked = session.format(files(1));
      await session.started();
      await expect(asked).rejects.toThrow(/semi must be a boolean/);
    } finally {
      session.close();
    }
  });

  it("formats nothing once closed", async () => {
    const session = formatSession(null);
    session.close();
    await expect(session.format(files(1))).rejects.toThrow(/closed/);
  });

  it("lays out every runtime module and generated file as prettier's CLI does with its typescript parser", async () => {
    const prettier = await import("prettier");
    const generated = readdirSync(join(ROOT, "generated/support"), { recursive: true })
      .map(String)
      .filter((path) => path.endsWith(".ts") && path !== "openapi.ts");
    const texts = [
      ...[...(await readRuntimeTemplate())].map(([file, text]) => [`templates/runtime/${file}`, text] as const),
      ...generated.map((path) => [path, readFileSync(join(ROOT, "generated/support", path), "utf8")] as const),
    ];
    for (const options of [null, { singleQuote: true, printWidth: 100, semi: false }]) {
      const session = formatSession(options);
      try {
        const ours = await session.format(new Map(texts));
        for (const [path, text] of texts) expect(ours.get(path), path).toBe(await prettier.format(text, { ...options, filepath: path }));
      } finally {
        session.close();
      }
    }
  });
});
