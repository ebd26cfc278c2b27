import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, RequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { LineTransport } from "./line-transport.js";

// The MCP side of `projector serve`: the SDK's Server, its tools registered by the generated
// registerTools, over stdio or Streamable HTTP.

/** The generated folder's registerTools, bound to its tools: serves them on a low-level Server. */
export type RegisterTools = (server: Server, schemas: { ListToolsRequestSchema: unknown; CallToolRequestSchema: unknown }) => void;

export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
}

/** The path the HTTP server answers MCP on; any other is 404. */
export const MCP_PATH = "/mcp";

/** A running server: `closed` settles when it stops of its own accord (stdin ended); `close` stops it. */
export interface Running {
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

function mcpServer(identity: ServerIdentity, register: RegisterTools): Server {
  const server = new Server({ ...identity }, { capabilities: { tools: {} } });
  // The SDK checks a request against the handler's schema before the handler runs and answers a
  // mismatch (`params: {}` on tools/call) as an internal error, -32603. Checked there only as any
  // object, tools/call params meet the Server's own check, which answers invalid params, -32602.
  const anyParams = { params: RequestSchema.shape.params };
  register(server, {
    ListToolsRequestSchema: ListToolsRequestSchema.extend(anyParams),
    CallToolRequestSchema: CallToolRequestSchema.extend(anyParams),
  });
  return server;
}

/** Serves on stdin and stdout, newline-delimited JSON-RPC; stdin's end stops it. */
export async function serveStdio(identity: ServerIdentity, register: RegisterTools): Promise<Running> {
  const server = mcpServer(identity, register);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new LineTransport());
  return { closed, close: () => server.close() };
}

export interface HttpPlace {
  readonly host: string;
  readonly port: number;
}

/** Whether a host name or address is this machine's loopback, which only local programs reach. */
export const isLoopback = (host: string): boolean => host === "localhost" || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host);

/**
 * Serves Streamable HTTP on `place`, statelessly: each POST to {@link MCP_PATH} gets a server of its
 * own, so any number of clients (and replicas behind a balancer, sharing an id book) are served
 * alike and nothing is kept between requests. On a loopback address, a request whose Host header
 * names another host is refused (DNS rebinding: a web page must not reach a local server).
 */
export async function serveHttp(identity: ServerIdentity, register: RegisterTools, place: HttpPlace): Promise<Running & { url: string }> {
  let port = place.port;
  const local = isLoopback(place.host);
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== MCP_PATH) return void response.writeHead(404, { "content-type": "text/plain" }).end(`MCP is served at ${MCP_PATH}\n`);
    // Stateless: no stream for the server's own messages, and no session to delete.
    if (request.method !== "POST")
      return void response.writeHead(405, { allow: "POST", "content-type": "text/plain" }).end("this server takes POST only\n");
    const server = mcpServer(identity, register);
    const hosts = ["127.0.0.1", "localhost", "[::1]"].map((host) => `${host}:${port}`);
    // No sessionIdGenerator: the transport is stateless, and answers without a session id.
    const transport = new StreamableHTTPServerTransport({
      enableJsonResponse: true,
      ...(local ? { enableDnsRebindingProtection: true, allowedHosts: hosts } : {}),
    });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => {
    answer(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end("the request could not be answered\n");
    });
  });
  await new Promise<void>((listening, failed) => {
    http.once("error", failed);
    http.listen(place.port, place.host, () => {
      http.off("error", failed);
      listening();
    });
  });
  port = (http.address() as AddressInfo).port;
  const closed = new Promise<void>((resolve) => http.once("close", resolve));
  const shown = place.host.includes(":") ? `[${place.host}]` : place.host;
  return {
    url: `http://${shown}:${port}${MCP_PATH}`,
    closed,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}
