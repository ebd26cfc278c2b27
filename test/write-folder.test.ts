// writeFolder builds the new tree beside the output folder, every file at once, and swaps it in:
// the result is exactly the files asked for, at any depth, and an unchanged file keeps its inode.
import { chmodSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFolderBytes } from "../src/output/listing.js";
import { readFolder } from "./helpers/read-folder.js";
import { MARKER } from "../src/output/ownership.js";
import { backupFolder, diffFolder, stagingFolder, writeFolder } from "../src/output/write.js";
import { tempDir } from "./helpers/pipeline.js";

/** Writes `files` over the folder as generate does: diffed against what is there, then written. */
async function write(folder: string, files: Map<string, string>): Promise<void> {
  await writeFolder(folder, files, diffFolder(await readFolderBytes(folder), files));
}

/** Many files in many folders, deep and shallow, so that writing them at once races on the folders. */
function outputFiles(version: string): Map<string, string> {
  const files = new Map<string, string>([[MARKER, "marker\n"]]);
  for (let i = 0; i < 60; i++) files.set(`resources/group${i % 7}/deep/er/file${i}.ts`, `// file ${i}\n`);
  for (let i = 0; i < 20; i++) files.set(`top${i}.ts`, `// top ${i} ${i === 3 ? version : ""}\n`);
  return files;
}

describe("writeFolder", () => {
  it("writes a new folder with exactly the files asked for, and leaves no staging or backup folder", async () => {
    const folder = join(tempDir(), "out/generated");
    const files = outputFiles("v1");
    await write(folder, files);
    expect((await readFolder(folder)).files).toEqual(new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1))));
    expect(existsSync(stagingFolder(folder)) || existsSync(backupFolder(folder))).toBe(false);
  });

  it("rewrites a changed file, removes a dropped one, and links the unchanged ones", async () => {
    const folder = join(tempDir(), "generated");
    await write(folder, outputFiles("v1"));
    const unchanged = "resources/group2/deep/er/file9.ts";
    const inode = statSync(join(folder, unchanged)).ino;
    const next = outputFiles("v2");
    next.delete("top7.ts");
    next.set("resources/new/one.ts", "// new\n");
    await write(folder, next);
    expect((await readFolder(folder)).files).toEqual(new Map([...next].sort(([a], [b]) => (a < b ? -1 : 1))));
    expect(statSync(join(folder, unchanged)).ino).toBe(inode);
    expect(statSync(join(folder, "top3.ts")).ino).not.toBe(inode);
  });

  // Windows shows no execute bits: a mode never differs there.
  it.skipIf(process.platform === "win32")("finds a file with an execute bit changed, and writes it without one", async () => {
    const folder = join(tempDir(), "generated");
    const files = outputFiles("v1");
    await write(folder, files);
    const plain = statSync(join(folder, "top3.ts")).mode;
    chmodSync(join(folder, "top5.ts"), 0o755);
    chmodSync(join(folder, "resources/group1/deep/er/file8.ts"), 0o654);
    const read = await readFolderBytes(folder);
    expect(read.executable).toEqual(["resources/group1/deep/er/file8.ts", "top5.ts"]);
    expect(diffFolder(read, files)).toEqual({ changed: ["resources/group1/deep/er/file8.ts", "top5.ts"], added: [], removed: [] });
    await write(folder, files);
    expect(statSync(join(folder, "top5.ts")).mode).toBe(plain);
    expect(statSync(join(folder, "resources/group1/deep/er/file8.ts")).mode).toBe(plain);
    expect((await readFolderBytes(folder)).executable).toEqual([]);
  });
});
