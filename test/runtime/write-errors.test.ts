// A tool that writes (POST, PUT, PATCH, DELETE) whose call fails once the request is out: the error
// says the request was, or may have been, made, so the model checks before sending it again.
import { describe, expect, it } from "vitest";
import { callTool, type ToolOutcome } from "../../templates/runtime/call-tool.js";

const errorOf = (outcome: ToolOutcome<unknown>) => ("error" in outcome ? outcome.error : undefined);

const schema = { type: "object", properties: { body: { type: "object" } } };
const post = { method: "post", path: "/comments", parameters: [{ name: "body", in: "body", argument: "body", shortIds: false }] } as const;
const get = { ...post, method: "get" } as const;
const answering = (data: unknown) => ({
  POST: async () => ({ data, response: { status: 201, ok: true } }),
  GET: async () => ({ data, response: { status: 200, ok: true } }),
});
const MADE = "the POST request was made, so check whether it took effect before sending it again";

describe("a write whose call fails after the API answered", () => {
  it("says the request was made, where the body is empty or cannot be projected", async () => {
    expect(errorOf(await callTool(answering(""), "add_comment", post, schema, { body: {} }, async (data) => data))).toBe(
      `add_comment: the API answered 201 with an empty body, so there is no result to show; this is not an empty list; ${MADE}`,
    );
    const failing = async () => {
      throw new Error("unexpected");
    };
    expect(errorOf(await callTool(answering({ id: "c1" }), "add_comment", post, schema, { body: {} }, failing))).toBe(
      `add_comment: the response could not be read (unexpected); ${MADE}`,
    );
  });

  it("says it may have been made where the client threw once the request was out: an unreadable answer, a cut connection", async () => {
    const throwing = (error: Error) => ({
      POST: async () => {
        throw error;
      },
    });
    expect(
      errorOf(await callTool(throwing(new SyntaxError("Unexpected token n")), "add_comment", post, schema, { body: {} }, async (d) => d)),
    ).toBe(
      "add_comment: the API's answer could not be read as JSON (Unexpected token n); the POST request may have been made, so check whether it took effect before sending it again",
    );
    expect(
      errorOf(await callTool(throwing(new TypeError("fetch failed")), "add_comment", post, schema, { body: {} }, async (d) => d)),
    ).toBe(
      "add_comment: could not reach the API (fetch failed); the POST request may have been made, so check whether it took effect before sending it again",
    );
  });

  it("says it may have been made where the API did not answer in time, and a read is only to be tried again", async () => {
    const hanging = { POST: () => new Promise(() => {}), GET: () => new Promise(() => {}) };
    expect(errorOf(await callTool(hanging, "add_comment", post, schema, { body: {} }, async (data) => data, { timeoutMs: 20 }))).toBe(
      "add_comment: the API did not answer within 0.02 seconds; the POST request may have been made, so check whether it took effect before sending it again",
    );
    expect(errorOf(await callTool(hanging, "get_comment", get, schema, {}, async (data) => data, { timeoutMs: 20 }))).toBe(
      "get_comment: the API did not answer within 0.02 seconds; try again later",
    );
    expect(errorOf(await callTool(answering(""), "get_comment", get, schema, {}, async (data) => data))).toBe(
      "get_comment: the API answered 200 with an empty body, so there is no result to show; this is not an empty list",
    );
  });
});
