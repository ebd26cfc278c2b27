// The typing thread compiles TypeScript from V8's code cache and answers openapi-typescript's
// alphabetizing compares from one collator: on every real spec in ../shared/real-specs, its source
// types are those openapi-typescript gives on the calling thread. Each spec is skipped cleanly where
// its file is absent.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceTypes } from "../../src/emit/source-types.js";
import { loadSpec } from "../../src/openapi/load.js";
import { REAL_SPEC_FILES, REAL_SPECS, ROOT } from "../helpers/pipeline.js";

const { SourceTypesThreads } = (await import(
  pathToFileURL(join(ROOT, "dist/openapi/source-types-thread.js")).href
)) as typeof import("../../src/openapi/source-types-thread.js");

describe("the typing thread types each real spec as the calling thread does", () => {
  for (const spec of REAL_SPEC_FILES) {
    const path = join(REAL_SPECS, spec);
    it.skipIf(!existsSync(path))(spec, async () => {
      const loaded = await loadSpec(path, spec);
      const threads = new SourceTypesThreads({ prestart: false });
      try {
        const inThread = await threads.type(loaded.document, loaded.file);
        expect(inThread === (await sourceTypes(loaded.document, loaded.file))).toBe(true);
      } finally {
        await threads.close();
      }
    });
  }
});
