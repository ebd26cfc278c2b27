// locateInJson must answer as parseYamlSource does for JSON, since it stands in for it on JSON specs.
import { describe, expect, it } from "vitest";
import { locateInJson } from "../src/json-locate.js";
import { parseYamlSource, type NodePath } from "../src/yaml-source.js";

const TEXT = `{
  "openapi": "3.1.0",
  "paths": {"/a/{id}": {"get": {"responses": {"200": {"description": "ok \\" } ] {"}}}}},
  "components": {
    "schemas": {
      "A\\u0042": {"type": "object", "properties": {"x": {"type": ["string", "null"]}, "y": {"enum": [1, 2, {"z": true}]}}},
      "Empty": {}, "List": []
    }
  }
}`;

/** Every path in a JSON value, and some that do not exist. */
function paths(value: unknown, at: NodePath = []): NodePath[] {
  const own: NodePath[] = [at, [...at, "missing"]];
  // A list's index as a number, and as a JSON pointer's token: `1`, and `01`, which names no item.
  if (Array.isArray(value))
    return [
      ...own,
      ...value.flatMap((item, i) => [...paths(item, [...at, i]), [...at, String(i)], [...at, `0${i}`]]),
      [...at, value.length],
    ];
  if (typeof value === "object" && value !== null)
    return [...own, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...at, key]))];
  return own;
}

describe("locateInJson", () => {
  it("finds every key and value where the YAML parser does, an index written as a pointer's token too", () => {
    const source = parseYamlSource(TEXT, "spec.json");
    const all = paths(JSON.parse(TEXT));
    expect(all.length).toBeGreaterThan(40);
    for (const path of all) {
      for (const part of ["key", "value"] as const)
        expect(locateInJson(TEXT, "spec.json", path, part), `${path.join("/")} ${part}`).toEqual(source.locate(path, part));
    }
  });

  it("reads a JSON pointer's token as the list's index it writes", () => {
    const numbered = ["components", "schemas", "AB", "properties", "y", "enum", 2, "z"];
    const written = numbered.map(String);
    const source = parseYamlSource(TEXT, "spec.json");
    expect(locateInJson(TEXT, "spec.json", written, "key")).toEqual(locateInJson(TEXT, "spec.json", numbered, "key"));
    expect(source.locate(written, "key")).toEqual(source.locate(numbered, "key"));
    // The item's own key, not the list holding it.
    expect(locateInJson(TEXT, "spec.json", written, "key")).not.toEqual(locateInJson(TEXT, "spec.json", written.slice(0, 6), "key"));
  });
});
