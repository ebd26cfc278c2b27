// A generated tool passes its caller's signal and the createTools timeout down to the request itself,
// so a cancelled or slow call aborts the HTTP request instead of leaving it running.
import { describe, expect, it } from "vitest";
import { createTools } from "../generated/support/index.js";

/** A client whose GET never answers, keeping the signal each request was sent with. */
function hangingClient() {
  const signals: AbortSignal[] = [];
  const hang = (_path: string, init: { signal?: AbortSignal }) => {
    if (init.signal) signals.push(init.signal);
    return new Promise<never>(() => {});
  };
  return { client: { GET: hang, POST: hang }, signals };
}

const resolvers = { users: async () => new Map<string, string>(), orgs: async () => new Map<string, string>() };

describe("generated tools", () => {
  it("abort the request when the caller's signal aborts", async () => {
    const { client, signals } = hangingClient();
    const tools = createTools({ client, resolvers });
    const controller = new AbortController();
    const outcome = tools.get_ticket({ ticket_id: "tkt_1" }, { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    expect(await outcome).toEqual({ error: "get_ticket: the call was cancelled" });
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
  });

  it("abort the request after the timeout createTools was given", async () => {
    const { client, signals } = hangingClient();
    const tools = createTools({ client, resolvers, timeoutMs: 1 });
    const outcome = await tools.search_tickets({ query: "card" });
    expect(outcome).toEqual({ error: "search_tickets: the API did not answer within 0.001 seconds; try again later" });
    expect(signals[0]!.aborted).toBe(true);
  });
});
