import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, typecheck } from "./helpers/pipeline.js";

describe("tsc --noEmit with strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes", () => {
  it("accepts generated/support and a consumer that uses it, and rejects misuse the types forbid", () => {
    expect(typecheck([join(ROOT, "generated/support/index.ts"), join(ROOT, "test/fixtures/consumer.ts")])).toEqual([]);
  });

  it("types each tool's arguments from its input schema and its client from the spec", () => {
    expect(typecheck([join(ROOT, "generated/support/index.ts"), join(ROOT, "test/fixtures/tools-consumer.ts")])).toEqual([]);
  });

  it("types createResolvers' client from the spec, and its result as the resolvers the spec backs", () => {
    expect(
      typecheck([join(ROOT, "specs/scenarios/rest-foreign-keys/generated/index.ts"), join(ROOT, "test/fixtures/resolvers-consumer.ts")]),
    ).toEqual([]);
  });
});
