import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP, type AddressInfo } from "node:net";
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

/** Whether an address a server is bound to is this machine's loopback, which only local programs reach. */
export const isLoopback = (address: string): boolean => address === "::1" || /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/i.test(address);

/** Why the HTTP server cannot serve where it was asked to: said to the user as it is, exit 1. */
export class HttpPlaceProblem extends Error {}

/**
 * Whether `host` names the interfaces it binds plainly: an address written in full (`0.0.0.0`, `::`,
 * `192.168.1.5`) or a host name. `0`, `10.1` or `3232235777` bind an address too, but do not read
 * as the choice to serve other machines they are.
 */
const namesAddressPlainly = (host: string): boolean => isIP(host) !== 0 || !/^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+))*$/i.test(host);

const HOW_TO_LISTEN = "--http PORT serves this machine alone (127.0.0.1); 0.0.0.0:PORT serves every machine that reaches it";

/** What a failed listen means to the user, in words; undefined for a failure that is not about the place. */
function listenProblem(error: NodeJS.ErrnoException, place: HttpPlace): string | undefined {
  const at = `${place.host}:${place.port}`;
  if (error.code === "EADDRINUSE") return `--http ${at}: another program listens there already; choose another port (0 takes a free one)`;
  if (error.code === "EADDRNOTAVAIL") return `--http ${at}: this machine has no such address; ${HOW_TO_LISTEN}`;
  if (error.code === "EACCES") return `--http ${at}: this user may not listen there (a port below 1024?); choose another port`;
  if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN")
    return `--http ${at}: the host name could not be resolved; ${HOW_TO_LISTEN}`;
  return undefined;
}

/**
 * Serves Streamable HTTP on `place`, statelessly: each POST to {@link MCP_PATH} gets a server of its
 * own, so any number of clients (and replicas behind a balancer, sharing an id book) are served
 * alike and nothing is kept between requests. On a loopback address, a request whose Host header
 * names another host, or whose Origin is another site's, is refused (DNS rebinding and cross-site
 * requests: a web page must not reach a local server).
 */
export async function serveHttp(identity: ServerIdentity, register: RegisterTools, place: HttpPlace): Promise<Running & { url: string }> {
  let hosts: string[] | undefined;
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== MCP_PATH) return void response.writeHead(404, { "content-type": "text/plain" }).end(`MCP is served at ${MCP_PATH}\n`);
    // Stateless: no stream for the server's own messages, and no session to delete.
    if (request.method !== "POST")
      return void response.writeHead(405, { allow: "POST", "content-type": "text/plain" }).end("this server takes POST only\n");
    const server = mcpServer(identity, register);
    // No sessionIdGenerator: the transport is stateless, and answers without a session id.
    const transport = new StreamableHTTPServerTransport({
      enableJsonResponse: true,
      // A browser names the page that sends a request in Origin: on a loopback address only a page
      // of this very server may, so that no web page a local user opens can call the tools.
      ...(hosts ? { enableDnsRebindingProtection: true, allowedHosts: hosts, allowedOrigins: hosts.map((host) => `http://${host}`) } : {}),
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
  http.listen(place.port, place.host);
  await once(http, "listening").catch((error: NodeJS.ErrnoException) => {
    const problem = listenProblem(error, place);
    throw problem ? new HttpPlaceProblem(problem) : error;
  });
  const bound = http.address() as AddressInfo;
  const port = bound.port;
  if (!isLoopback(bound.address) && !namesAddressPlainly(place.host)) {
    await new Promise((done) => http.close(done));
    throw new HttpPlaceProblem(
      `--http ${place.host}:${place.port} listens on ${bound.address}, which other machines reach; write that address in full to mean it. ${HOW_TO_LISTEN}`,
    );
  }
  const shown = bound.address.includes(":") ? `[${bound.address}]` : bound.address;
  // The Host a local client sends names the address bound, however --http spelled it (`[::ffff:127.0.0.1]`
  // is sent as a URL writes it, `[::ffff:7f00:1]`), or localhost.
  if (isLoopback(bound.address))
    hosts = [...new Set(["127.0.0.1", "localhost", "[::1]", shown, new URL(`http://${shown}`).hostname])].map((host) => `${host}:${port}`);
  const closed = new Promise<void>((resolve) => http.once("close", resolve));
  return {
    url: `http://${shown}:${port}${MCP_PATH}`,
    closed,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}
