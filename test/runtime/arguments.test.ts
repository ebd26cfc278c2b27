// The model's arguments checked against a tool's input schema, with a message it can act on.
import { describe, expect, it } from "vitest";
import { argumentProblem, type InputSchema } from "../../templates/runtime/arguments.js";

const schema: InputSchema = {
  type: "object",
  properties: {
    ticket_id: { type: "string", minLength: 4 },
    status: { enum: ["open", "closed"] },
    limit: { type: "integer", minimum: 1, maximum: 100 },
    tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, maxItems: 2 },
    note: { anyOf: [{ type: "string" }, { type: "null" }] },
  },
  required: ["ticket_id"],
  additionalProperties: false,
};

describe("argument problems", () => {
  it.each([
    [{ ticket_id: "tkt_1" }, undefined],
    [{ ticket_id: "tkt_1", note: null }, undefined],
    [{}, "ticket_id is required"],
    [{ ticket_id: "t" }, "ticket_id must have at least 4 characters"],
    [{ ticket_id: "tkt_1", status: "lost" }, 'status must be one of "open", "closed", not "lost"'],
    [{ ticket_id: "tkt_1", limit: 0 }, "limit must be at least 1"],
    [{ ticket_id: "tkt_1", limit: 2.5 }, "limit must be integer, not 2.5"],
    [{ ticket_id: "tkt_1", tags: ["a", "B"] }, "tags[1] must match ^[a-z]+$"],
    [{ ticket_id: "tkt_1", tags: ["a", "b", "c"] }, "tags must have at most 2 items"],
    [{ ticket_id: "tkt_1", note: 3 }, "note must be string or null, not 3"],
    [{ ticket_id: "tkt_1", priority: 1 }, "priority is not an argument here; accepted: ticket_id, status, limit, tags, note"],
    ["tkt_1", 'the arguments must be object, not "tkt_1"'],
  ])("%j: %s", (value, problem) => {
    expect(argumentProblem(schema, value, "")).toBe(problem);
  });

  it("leaves a pattern JavaScript cannot compile to the API", () => {
    expect(argumentProblem({ type: "string", pattern: "(?<bad" }, "x", "q")).toBeUndefined();
  });
});
