// Run by `npm run build` after tsc: writes the runtime template, its types blanked, beside stripped-runtime.js in dist.
import { readFileSync, writeFileSync } from "node:fs";
import { readRuntimeTemplate } from "../emit/runtime-template.js";
import { typescript } from "./strip-types.js";
import { STRIPPED_RUNTIME_FILE, STRIPPER_FILE, stripRuntime } from "./stripped-runtime.js";

const stripped = stripRuntime(typescript(), await readRuntimeTemplate(), readFileSync(STRIPPER_FILE, "utf8"));
writeFileSync(STRIPPED_RUNTIME_FILE, JSON.stringify(stripped));
