import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, typecheck } from "./helpers/pipeline.js";

const CONSUMER = join(ROOT, "test/fixtures/consumer.ts");
const TOOLS_CONSUMER = join(ROOT, "test/fixtures/tools-consumer.ts");

/** Both consumers in one program, which costs little more than one; a problem names its file. */
let problems: string[] | undefined;
const problemsOf = (fixture: string) => {
  problems ??= typecheck([join(ROOT, "generated/support/index.ts"), CONSUMER, TOOLS_CONSUMER]);
  const other = fixture === CONSUMER ? TOOLS_CONSUMER : CONSUMER;
  return problems.filter((problem) => !problem.startsWith(`${other}:`));
};

describe("tsc --noEmit with strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes", () => {
  it("accepts generated/support and a consumer that uses it, and rejects misuse the types forbid", () => {
    expect(problemsOf(CONSUMER)).toEqual([]);
  });

  it("types each tool's arguments from its input schema and its client from the spec", () => {
    expect(problemsOf(TOOLS_CONSUMER)).toEqual([]);
  });

  it("types createResolvers' client from the spec, and its result as the resolvers the spec backs", () => {
    expect(
      typecheck([join(ROOT, "specs/scenarios/rest-foreign-keys/generated/index.ts"), join(ROOT, "test/fixtures/resolvers-consumer.ts")]),
    ).toEqual([]);
  });
});
