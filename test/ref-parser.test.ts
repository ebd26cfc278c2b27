// The spec loader ports json-schema-ref-parser's resolve and bundle steps from one release and reads
// its internals; another release (an npm override) stops it with a clear error, never a silent change.
import { describe, expect, it } from "vitest";
import { checkPortedRelease, PORTED_RELEASE, refParserLibrary } from "../src/openapi/ref-parser.js";

describe("the ported json-schema-ref-parser release", () => {
  it("is the one installed", () => {
    expect(() => refParserLibrary()).not.toThrow();
  });

  it.each(["14.0.2", "16.0.6", "13.0.0"])("refuses %s with what to do", (version) => {
    expect(() => checkPortedRelease(version)).toThrow(
      `built on @apidevtools/json-schema-ref-parser ${PORTED_RELEASE}, but ${version} is installed`,
    );
  });
});
