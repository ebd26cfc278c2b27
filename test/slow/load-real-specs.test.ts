// The loader (json-schema-ref-parser's resolve, then its bundle only where a $ref does not already
// point straight) against the library's own bundle() on the real public specs in ../shared/real-specs,
// DigitalOcean's 2,900 files first; each skipped cleanly where its file is absent.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { guardedFileResolver } from "../../src/openapi/files.js";
import { loadSpec } from "../../src/openapi/load.js";
import { REAL_SPEC_FILES, REAL_SPECS } from "../helpers/pipeline.js";
import { OPTIONS } from "../helpers/ref-fixtures.js";

const require = createRequire(import.meta.url);
const { $RefParser } = createRequire(require.resolve("@apidevtools/swagger-parser"))("@apidevtools/json-schema-ref-parser") as {
  $RefParser: new () => {
    bundle(path: string, options: object): Promise<unknown>;
    resolve(path: string, options: object): Promise<unknown>;
    $refs: { paths(type: string): string[] };
  };
};

describe("loading a real spec gives json-schema-ref-parser's bundle, key order included", () => {
  for (const spec of REAL_SPEC_FILES) {
    const path = join(REAL_SPECS, spec);
    it.skipIf(!existsSync(path))(spec, async () => {
      const loaded = await loadSpec(path, spec);
      const parser = new $RefParser();
      const expected = await parser.bundle(path, OPTIONS);
      expect(JSON.stringify(loaded.document) === JSON.stringify(expected)).toBe(true);
      // The files in the order the library reads them through the loader's file resolver.
      const resolver = guardedFileResolver({
        spec: { path, text: readFileSync(path, "utf8") },
        realFolder: realpathSync.native(dirname(path)),
        allowOutside: false,
        read: () => undefined,
        refused: () => undefined,
      });
      const resolving = new $RefParser();
      await resolving.resolve(path, { resolve: { external: true, http: false, file: resolver } });
      expect(loaded.files).toEqual(resolving.$refs.paths("file").map((file) => resolve(file)));
    });
  }
});
