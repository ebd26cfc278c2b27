import { describe, expect, it } from "vitest";
import { parseYamlSource } from "../src/yaml-source.js";

describe("YamlSource.aliases", () => {
  it("finds none in a text without a star, and every one where there are", () => {
    expect(parseYamlSource("a: &x { b: 1 }\nc: d # 3 * 4 is not an alias\n", "f.yaml").aliases()).toEqual([]);
    expect(parseYamlSource("a: &x { b: 1 }\nc: 3 * 4\n", "f.yaml").aliases()).toEqual([]);
    expect(parseYamlSource("a: &x { b: 1 }\nc: *x\nd: *y\n", "f.yaml").aliases()).toEqual([
      { name: "x", location: { file: "f.yaml", line: 2, column: 4 } },
      { name: "y", location: { file: "f.yaml", line: 3, column: 4 }, problem: "undefined" },
    ]);
  });
});
