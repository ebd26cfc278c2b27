// A tool call through the consumer's client: every failure is an error the model can read, never a throw.
import { describe, expect, it } from "vitest";
import { callTool, type ToolCall } from "../../templates/runtime/call-tool.js";

const call: ToolCall = {
  method: "get",
  path: "/tickets/{ticket_id}",
  parameters: [
    { name: "ticket_id", in: "path", argument: "ticket_id", shortIds: false },
    { name: "status_code", in: "query", argument: "status", legend: [["open", 3]], shortIds: false },
    { name: "include", in: "query", fixed: { value: "users" }, shortIds: false },
  ],
};
const schema = { type: "object", properties: { ticket_id: { type: "string" }, status: { enum: ["open"] } }, required: ["ticket_id"] };

function client(answer: { data?: unknown; error?: unknown; status: number }) {
  const sent: unknown[] = [];
  return {
    sent,
    GET: async (path: string, init: object) => {
      sent.push([path, init]);
      return { data: answer.data, error: answer.error, response: { status: answer.status, ok: answer.status < 400 } };
    },
  };
}

describe("callTool", () => {
  it("maps words to codes, adds fixed values, sends the request and projects the answer", async () => {
    const api = client({ data: { id: "t1" }, status: 200 });
    const outcome = await callTool(api, "get_ticket", call, schema, { ticket_id: "t1", status: "open" }, async (r) => r);
    expect(api.sent).toEqual([
      [
        "/tickets/{ticket_id}",
        {
          params: { path: { ticket_id: "t1" }, query: { status_code: 3, include: "users" } },
          querySerializer: expect.any(Function),
          middleware: [expect.objectContaining({ onResponse: expect.any(Function) })],
          signal: expect.any(AbortSignal),
        },
      ],
    ]);
    expect(outcome).toEqual({ result: { id: "t1" }, text: '{"id":"t1"}' });
  });

  it.each([
    [{}, client({ status: 200 }), "get_ticket: bad arguments: ticket_id is required"],
    [{ ticket_id: "t9" }, client({ error: { message: "Not found" }, status: 404 }), "get_ticket: the API answered 404: Not found"],
    [{ ticket_id: "t1" }, {}, "get_ticket: the client cannot send GET requests"],
    [
      { ticket_id: "t1" },
      {
        GET: async () => {
          throw new Error("ECONNRESET");
        },
      },
      "get_ticket: could not reach the API (ECONNRESET); try again later",
    ],
  ])("answers %j with an error", async (args, api, error) => {
    expect(await callTool(api, "get_ticket", call, schema, args, async (r) => r)).toEqual({ error });
  });

  it("says when the response could not be projected", async () => {
    const outcome = await callTool(client({ data: {}, status: 200 }), "get_ticket", call, schema, { ticket_id: "t1" }, async () => {
      throw new Error("bad shape");
    });
    expect(outcome).toEqual({ error: "get_ticket: the response could not be read (bad shape)" });
  });
});
