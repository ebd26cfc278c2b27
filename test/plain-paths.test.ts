// Generate formats with prettier itself and init runs generated code through TypeScript's own
// transpiler: no layout of projector's own stands in for prettier's, and no type stripper of its own
// limits what a module may be written in.
import { describe, expect, it } from "vitest";
import { runnableFolder } from "../src/evidence/run-generated.js";
import { formatSession } from "../src/format.js";

const formatFiles = async (files: Map<string, string>, options: Parameters<typeof formatSession>[0]) => {
  const session = formatSession(options);
  try {
    return await session.format(files);
  } finally {
    session.close();
  }
};

describe("formatting an output folder", () => {
  it("formats the runtime's modules too, with prettier's defaults", async () => {
    const files = new Map([
      ["runtime/strings.ts", "export const  quoted=(text:string)=>JSON.stringify( text )\n"],
      ["index.ts", 'export { quoted } from "./runtime/strings.js"\n'],
    ]);
    expect(Object.fromEntries(await formatFiles(files, null))).toEqual({
      "runtime/strings.ts": "export const quoted = (text: string) => JSON.stringify(text);\n",
      "index.ts": 'export { quoted } from "./runtime/strings.js";\n',
    });
  });

  it("formats with the consumer's options", async () => {
    const files = new Map([["index.ts", 'export const label = "open"\n']]);
    expect(await formatFiles(files, { singleQuote: true, semi: false })).toEqual(new Map([["index.ts", "export const label = 'open'\n"]]));
  });
});

describe("running generated modules", () => {
  it("runs a module written with an enum and a namespace, which have JavaScript of their own", async () => {
    const folder = runnableFolder();
    try {
      await folder.add(
        new Map([
          [
            "tools/mode.ts",
            "export enum Mode { Fast = 1, Careful = 2 }\nexport namespace Modes { export const all: Mode[] = [Mode.Fast, Mode.Careful]; }\n",
          ],
        ]),
      );
      const module = await folder.load("tools/mode");
      expect((module["Modes"] as { all: number[] }).all).toEqual([1, 2]);
    } finally {
      await folder.dispose();
    }
  });
});
