// An API on a loopback port that answers whatever a test sets: the runtime's tests drive the
// generated tools against it through a real openapi-fetch client, as a consumer's code does.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the local API received it. */
export interface Received {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
}

/** What the local API answers one request: a status (200), a Content-Type (JSON) and the body's text. */
export interface LocalAnswer {
  readonly status?: number | undefined;
  readonly type?: string | undefined;
  readonly text: string;
}

export interface LocalApi {
  readonly baseUrl: string;
  /** The answer to each request, which a test sets before it calls. */
  answer: (request: Received) => LocalAnswer;
  /** The path and query of each request since the list was last emptied. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Starts a local API answering each request by its `answer` (404 until a test sets one). */
export async function startLocalApi(): Promise<LocalApi> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://api.test");
    requests.push(`${url.pathname}${url.search}`);
    const {
      status = 200,
      type = "application/json",
      text,
    } = api.answer({ path: url.pathname, query: url.searchParams, headers: request.headers });
    response.writeHead(status, { "content-type": type });
    response.end(text);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const api: LocalApi = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answer: () => ({ status: 404, text: "{}" }),
    requests,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
  return api;
}
