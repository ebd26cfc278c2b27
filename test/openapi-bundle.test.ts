// The bundle port (src/openapi/bundle.ts), on the resolve port, against json-schema-ref-parser's own
// bundle(), fixture by fixture.
import { describe, expect, it } from "vitest";
import { bundleResolved } from "../src/openapi/bundle.js";
import { loadSpec } from "../src/openapi/load.js";
import { library, OPTIONS, outcome, REF_FIXTURES, resolvedByPort, writeFixture } from "./helpers/ref-fixtures.js";

/** The library's bundle, or its error's message. */
const libraryBundle = (entry: string) =>
  outcome(async () => JSON.stringify(await new library.$RefParser().bundle(entry, OPTIONS as never)));

/** The ports of the library's resolve and bundle, as the loader runs them, or the error's message. */
const portBundle = (entry: string) =>
  outcome(async () => {
    const { schema, refs } = await resolvedByPort(entry);
    return JSON.stringify(bundleResolved(schema, refs, OPTIONS));
  });

describe("the bundle port against json-schema-ref-parser's bundle()", () => {
  for (const [name, files] of Object.entries(REF_FIXTURES)) {
    it(name, async () => {
      const entry = writeFixture(files);
      const expected = await libraryBundle(entry);
      expect(await portBundle(entry)).toBe(expected);
    });
  }

  it("gives the loader the library's document, key order included", async () => {
    for (const name of [
      "external refs, to a whole file and into one",
      "nested external refs across folders",
      "circular refs across files",
    ]) {
      const entry = writeFixture(REF_FIXTURES[name]!);
      const loaded = await loadSpec(entry, "api.yaml");
      expect(JSON.stringify(loaded.document)).toBe(await libraryBundle(entry));
    }
  });
});
