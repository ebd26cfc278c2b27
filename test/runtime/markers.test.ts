// The markers' JSON Schemas, which every tool's output schema refers to, accept each marker and nothing else.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { MARKER_SCHEMAS } from "../../templates/runtime/markers.js";

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });

describe("marker schemas", () => {
  it.each([
    ["unresolved", { unresolved: "usr_41c2be09" }, true],
    ["unresolved", { unresolved: 41 }, false],
    ["unresolved", { unresolved: "usr_41c2be09", name: "Ana" }, false],
    ["unknown_code", { unknown_code: 7 }, true],
    ["unknown_code", { unknown_code: "x9" }, true],
    ["unknown_code", { unknown_code: null }, false],
    ["unusable", { unusable: "expected a string, got number" }, true],
    ["unusable", {}, false],
  ] as const)("%s accepts %j: %s", (kind, value, valid) => {
    expect(ajv.validate(MARKER_SCHEMAS[kind], value)).toBe(valid);
  });
});
