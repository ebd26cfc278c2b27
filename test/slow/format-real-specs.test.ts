// With prettier's defaults, generate lays out every file itself (src/prettier-layout, with the JSON
// Schema literals and imports printed by src/format-literals.ts). On the whole of each real spec,
// drafted by init, every emitted file must come out byte for byte as prettier makes of it whole.
// Skipped where ../shared/real-specs is absent.
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../../src/annotation/parse.js";
import { formatFiles } from "../../src/format.js";
import { generate } from "../../src/generate.js";
import { initAnnotation } from "../../src/init/init.js";
import { loadSpec } from "../../src/openapi/load.js";
import { readRuntimeTemplate } from "../../src/emit/runtime-template.js";
import { REAL_SPECS } from "../helpers/pipeline.js";

const SPECS = [
  "tidal_api_oas.json",
  "box_openapi.json",
  "pagerduty_rest_openapiv3.json",
  "sentry_openapi_derefed.json",
  "digitalocean/specification/DigitalOcean-public.v2.yaml",
];
const TEMPLATE = await readRuntimeTemplate();

describe.each(SPECS)("%s, whole, drafted by init --accept-guesses", (name) => {
  const path = join(REAL_SPECS, name);
  it.skipIf(!existsSync(path))(
    "formats every emitted file exactly as prettier alone does",
    async () => {
      const spec = await loadSpec(path, name);
      const draft = initAnnotation(spec, { file: "projector.yaml", spec: name, output: "generated/api", acceptGuesses: true });
      const emitted = await generate({
        annotation: parseAnnotation(draft.text, "projector.yaml"),
        spec,
        runtimeTemplate: TEMPLATE,
        prettierOptions: null,
        names: { spec: name, annotation: "projector.yaml" },
        format: false,
      });
      emitted.files.delete("openapi.ts");
      expect(emitted.files.size).toBeGreaterThan(40);
      const formatted = await formatFiles(emitted.files, null);
      for (const [file, text] of emitted.files)
        expect(formatted.get(file), file).toBe(await prettier.format(text, { parser: "babel-ts", filepath: file }));
    },
    600_000,
  );
});
