// The runtime's modules are copied into every generated folder as they are: with prettier's default
// options, generate does not format them, so they must already be in prettier's default layout.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/pipeline.js";

const TEMPLATES = join(ROOT, "templates/runtime");

describe("templates/runtime", () => {
  it.each(readdirSync(TEMPLATES).filter((file) => file.endsWith(".ts")))("%s is in prettier's default layout", async (file) => {
    const text = readFileSync(join(TEMPLATES, file), "utf8");
    expect(await prettier.format(text, { parser: "babel-ts", filepath: file })).toBe(text);
  });
});
