// A generated module imports exactly the runtime names its code uses. DigitalOcean's node pool says
// "Labels will automatically be applied to all existing nodes" in a description: read as code, that
// imported the `Labels` type into a module that never used it, and strict consumers refused the folder.
import { describe, expect, it } from "vitest";
import { IMPORTS_PLACEHOLDER, withRuntimeImports } from "../src/emit/imports.js";

const runtime = { functions: ["string", "whole"], constants: ["INCLUDED"], types: ["Labels", "Unusable"] };

describe("runtime imports", () => {
  it("counts names in code, not in comments or strings", () => {
    const code = [
      IMPORTS_PLACEHOLDER,
      "/** Labels will automatically be applied; whole( is not a call here. */",
      "// INCLUDED is not read here either",
      "export const schema = { description: \"Labels will be applied to all nodes, see whole(x)\", other: 'Labels' };",
      "export function project(record: unknown): string | Unusable { return string(record); }",
    ].join("\n");
    expect(withRuntimeImports(code, runtime).split("\n")[0]).toBe('import { string, type Unusable } from "../runtime/index.js";');
  });

  it("still sees a name used in code after a string that looks like a comment", () => {
    const code = `${IMPORTS_PLACEHOLDER}\nconst url = "https://example.com/*"; const x: Labels = whole(url);`;
    expect(withRuntimeImports(code, runtime).split("\n")[0]).toBe('import { whole, type Labels } from "../runtime/index.js";');
  });
});
