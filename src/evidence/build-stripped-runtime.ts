// Run by `npm run build` after tsc: writes the runtime template, its types blanked, beside stripped-runtime.js in dist.
import { writeFileSync } from "node:fs";
import { readRuntimeTemplate } from "../project/runtime-template.js";
import { typescript } from "./strip-types.js";
import { STRIPPED_RUNTIME_FILE, stripRuntime } from "./stripped-runtime.js";

writeFileSync(STRIPPED_RUNTIME_FILE, JSON.stringify(stripRuntime(typescript(), await readRuntimeTemplate())));
