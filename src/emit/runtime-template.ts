import { readdir, readFile } from "node:fs/promises";
import type { RuntimeTemplate } from "./runtime-folder.js";

const templateUrl = new URL("../../templates/runtime/", import.meta.url);

export function readRuntimeTemplate(): Promise<RuntimeTemplate> {
  // Read once a process: the templates ship with projector, and a generate asks for them twice
  // (the no-op check, then the run).
  runtimeTemplate ??= (async () => {
    const files = (await readdir(templateUrl)).filter((file) => file.endsWith(".ts")).sort();
    const texts = await Promise.all(files.map((file) => readFile(new URL(file, templateUrl), "utf8")));
    return new Map(files.map((file, i) => [file, texts[i]!]));
  })();
  return runtimeTemplate;
}

let runtimeTemplate: Promise<RuntimeTemplate> | undefined;
