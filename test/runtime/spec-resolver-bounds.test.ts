// A resolver from the spec asks the API as a tool's own request does: it reads at most
// MAX_RESPONSE_BYTES of an answer, and its requests stop when the call stops waiting for names.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import createClient from "openapi-fetch";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_RESPONSE_BYTES } from "../../templates/runtime/call-tool.js";
import { ResolverError, resolveLabels } from "../../templates/runtime/resolvers.js";
import { specResolver, type SpecResolverSource } from "../../templates/runtime/spec-resolvers.js";

const getUser: SpecResolverSource = {
  method: "get",
  path: "/users/{id}",
  parameter: { name: "id", in: "path" },
  concurrency: 1,
  records: [],
  jsonapi: false,
  id: "id",
  label: ["name"],
};

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  return new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

/** A local API whose every answer `respond` writes; resolves to its base URL and the requests it saw close. */
async function api(respond: (res: import("node:http").ServerResponse) => void) {
  const closed: Promise<void>[] = [];
  server = createServer((_request, res) => {
    closed.push(new Promise((done) => res.on("close", () => done())));
    respond(res);
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", () => done()));
  const { port } = server.address() as AddressInfo;
  return { client: createClient({ baseUrl: `http://127.0.0.1:${port}` }), closed };
}

describe("a resolver from the spec", () => {
  it("stops reading an answer longer than MAX_RESPONSE_BYTES, sent with no Content-Length", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const { client } = await api((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      let sent = 0;
      const more = () => {
        while (sent <= MAX_RESPONSE_BYTES + chunk.length && res.write(chunk)) sent += chunk.length;
        if (sent <= MAX_RESPONSE_BYTES + chunk.length) res.once("drain", more);
        else res.end();
      };
      res.write("{");
      more();
    });
    await expect(specResolver(client, getUser)(["u1"])).rejects.toThrow(`longer than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`);
  });

  it("stops its request when the call stops waiting for it", async () => {
    const { client, closed } = await api((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"u1","name":"');
    });
    const waiting = resolveLabels({ users: ["u1"] }, { users: specResolver(client, getUser) }, new Map(), { timeoutMs: 50 });
    await expect(waiting).rejects.toBeInstanceOf(ResolverError);
    expect(closed).toHaveLength(1);
    await closed[0];
  });
});
