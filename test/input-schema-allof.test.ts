// An input schema's allOf takes what every member takes and no more: merged, the stricter bound,
// the codes both enums list, and a second pattern or type kept under allOf, which the tool checks too.
import { describe, expect, it } from "vitest";
import { boundedPlainSchema } from "../src/model/input-schema.js";
import { SchemaReader, type JsonObject } from "../src/openapi/schema.js";
import { argumentProblem } from "../templates/runtime/arguments.js";

function merged(allOf: JsonObject[]) {
  const document = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {},
    components: { schemas: { P: { type: "integer", enum: [1, 2, 3] }, X: { allOf } } },
  };
  const reader = new SchemaReader(document);
  return boundedPlainSchema(reader, reader.pointer("/components/schemas/X")!).value;
}

describe("allOf in an input schema", () => {
  it("keeps the stricter of two bounds", () => {
    expect(
      merged([
        { type: "string", maxLength: 5, minLength: 1 },
        { maxLength: 3, minLength: 2 },
      ]),
    ).toMatchObject({ maxLength: 3, minLength: 2 });
  });

  it("keeps the codes both enums list, through a $ref too", () => {
    expect(merged([{ type: "string", enum: ["x", "y"] }, { enum: ["y", "z"] }])).toMatchObject({ enum: ["y"] });
    expect(merged([{ $ref: "#/components/schemas/P" }, { enum: [1] }])).toMatchObject({ enum: [1] });
  });

  it("keeps both patterns, and the tool refuses what either refuses", () => {
    const schema = merged([{ type: "string", pattern: "^a" }, { pattern: "b$" }]);
    expect(schema).toMatchObject({ pattern: "^a", allOf: [{ pattern: "b$" }] });
    expect(argumentProblem(schema, "ab", "")).toBeUndefined();
    expect(argumentProblem(schema, "ac", "")).toBe("the arguments must match b$");
    expect(argumentProblem(schema, "cb", "")).toBe("the arguments must match ^a");
  });

  it("holds both members' schemas for a property both declare", () => {
    const schema = merged([
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { maxLength: 2 } } },
    ]);
    expect(schema["properties"]).toEqual({ a: { type: "string", maxLength: 2 } });
    expect(argumentProblem(schema, { a: 7 }, "")).toBe("a must be string, not 7");
  });
});
