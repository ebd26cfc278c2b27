// On every real spec in ../shared/real-specs, generate types the document without openapi-typescript's
// redocly passes (src/emit/without-redocly.ts), and the types are byte for byte those openapiTS
// gives. Each spec is skipped cleanly where its file is absent.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forSourceTypes } from "../../src/emit/source-types.js";
import { typedWithoutRedocly } from "../../src/emit/without-redocly.js";
import { loadSpec } from "../../src/openapi/load.js";
import { REAL_SPEC_FILES, REAL_SPECS } from "../helpers/pipeline.js";

const ot = createRequire(import.meta.url)("openapi-typescript") as typeof import("openapi-typescript");

describe("each real spec is typed without redocly's passes, as openapiTS types it", () => {
  for (const spec of REAL_SPEC_FILES) {
    const path = join(REAL_SPECS, spec);
    it.skipIf(!existsSync(path))(spec, async () => {
      const loaded = await loadSpec(path, spec);
      const text = JSON.stringify(forSourceTypes(loaded.document).document);
      const nodes = await typedWithoutRedocly(JSON.parse(text));
      expect(nodes).toBeDefined();
      expect(ot.astToString(nodes!) === ot.astToString(await ot.default(text, { silent: true, alphabetize: true }))).toBe(true);
    });
  }
});
