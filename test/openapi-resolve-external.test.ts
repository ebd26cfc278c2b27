// The resolve port (src/openapi/resolve-external.ts) against json-schema-ref-parser's own resolve():
// the same files, read in the same order, parsed to the same values, or the same error.
import { describe, expect, it } from "vitest";
import type { ExternalRefs } from "../src/openapi/resolve-external.js";
import { library, OPTIONS, outcome, REF_FIXTURES, resolvedByPort, writeFixture } from "./helpers/ref-fixtures.js";

/** Each document `$refs` holds, in its order, with its value; or the error's message. */
const described = (refs: unknown) => JSON.stringify(Object.entries((refs as ExternalRefs)._$refs).map(([path, ref]) => [path, ref?.value]));

const libraryResolve = (entry: string) =>
  outcome(async () => {
    const parser = new library.$RefParser();
    await parser.resolve(entry, OPTIONS as never);
    return described(parser.$refs);
  });

const portResolve = (entry: string) => outcome(async () => described((await resolvedByPort(entry)).refs));

describe("the resolve port against json-schema-ref-parser's resolve()", () => {
  for (const [name, files] of Object.entries(REF_FIXTURES)) {
    it(name, async () => {
      const entry = writeFixture(files);
      expect(await portResolve(entry)).toBe(await libraryResolve(entry));
    });
  }
});
