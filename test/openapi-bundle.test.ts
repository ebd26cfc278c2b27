// Specs spread over several files: the loader gives json-schema-ref-parser's own bundle(), fixture by
// fixture, key order included, whether it bundles or finds every $ref already pointing straight.
import { describe, expect, it } from "vitest";
import { loadSpec } from "../src/openapi/load.js";
import { libraryBundle, REF_FIXTURES, writeFixture } from "./helpers/ref-fixtures.js";

describe("loading a spec spread over files", () => {
  for (const [name, files] of Object.entries(REF_FIXTURES)) {
    it(`gives json-schema-ref-parser's bundle: ${name}`, async () => {
      const entry = writeFixture(files);
      const expected = await libraryBundle(entry);
      const loaded = await loadSpec(entry, "api.yaml").then(
        (spec) => JSON.stringify(spec.document),
        () => "refused",
      );
      expect(loaded).toBe(expected.startsWith("error: ") ? "refused" : expected);
    });
  }
});
