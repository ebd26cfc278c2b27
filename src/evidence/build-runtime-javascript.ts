// Run by `npm run build` after tsc: writes the runtime's modules as JavaScript, with the digest of
// the text each came from, beside this file in dist (see runtime-javascript.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { readRuntimeTemplate } from "../emit/runtime-template.js";
import { RUNTIME_JAVASCRIPT, sha256, type RuntimeManifest } from "./runtime-javascript.js";
import { transpiled, typescript } from "./write-javascript.js";

const ts = typescript();
const manifest: RuntimeManifest = {};
mkdirSync(RUNTIME_JAVASCRIPT, { recursive: true });
const template = await readRuntimeTemplate();
for (const [file, javascript] of transpiled(ts, template)) {
  const text = template.get(file)!;
  writeFileSync(new URL(file.replace(/\.ts$/, ".js"), RUNTIME_JAVASCRIPT), javascript);
  manifest[file] = { sha256: sha256(text), length: text.length };
}
writeFileSync(new URL("manifest.json", RUNTIME_JAVASCRIPT), JSON.stringify(manifest));
