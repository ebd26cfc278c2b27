import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type Database from "better-sqlite3";
import {
  addComment,
  findTicket,
  findUser,
  getTicket,
  getUser,
  listOrganizations,
  listUsers,
  searchTickets,
} from "./api.js";

// The bundled spec (specs/support-tickets.openapi.yaml) served over HTTP from the database, under
// /v1 as the spec's server URL has it. Bad input is answered 400 and an unknown id 404, both with
// the spec's Errors body, as the real API would, so the tools meet real failures.

const MEDIA_TYPE = "application/vnd.api+json";
/** The spec's maxItems for `filter[id]`. */
const MAX_IDS = 100;
/** A comment is a few kilobytes; a body far past that is refused before it is read whole. */
const MAX_BODY_BYTES = 1024 * 1024;

/** An answer other than 200, with the message the Errors body carries. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Answer {
  status: number;
  body: unknown;
}

/** Serves the API; `onRequest` sees the method and full URL of every request, before it is answered. */
export function createApiServer(
  db: Database.Database,
  onRequest?: (method: string, url: string) => void,
): Server {
  return createServer((request, response) => {
    const url = new URL(
      request.url ?? "/",
      `http://${request.headers.host ?? "localhost"}`,
    );
    onRequest?.(request.method ?? "", url.href);
    answer(db, request, url)
      .catch((error: unknown) =>
        error instanceof HttpError
          ? { status: error.status, body: errors(error.status, error.message) }
          : { status: 500, body: errors(500, String(error)) },
      )
      .then(({ status, body }) => {
        response.writeHead(status, { "content-type": MEDIA_TYPE });
        response.end(JSON.stringify(body));
      });
  });
}

/** Listens on the loopback interface (port 0: any free port) and gives the API's base URL. */
export async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((listening, failed) => {
    server.once("error", failed);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", failed);
      listening();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function errors(status: number, title: string) {
  return { errors: [{ status: String(status), title }] };
}

async function answer(
  db: Database.Database,
  request: IncomingMessage,
  url: URL,
): Promise<Answer> {
  const base = `${url.origin}/v1`;
  const segments = url.pathname.split("/").slice(1).map(decoded);
  if (segments[0] !== "v1" || segments.length > 4 || segments.includes(""))
    throw new HttpError(404, `No route ${request.method} ${url.pathname}`);
  const [collection, id, sub] = segments.slice(1);
  const route = `${request.method} /${[collection, id && "{id}", sub].filter(Boolean).join("/")}`;
  switch (route) {
    case "GET /tickets":
      return ok(
        searchTickets(db, base, {
          query: url.searchParams.get("q") ?? undefined,
          statusCode: statusFilter(url.searchParams.get("filter[status]")),
          page: pageNumber(url.searchParams.get("page[number]")),
        }),
      );
    case "GET /tickets/{id}":
      return ok(getTicket(db, base, ticket(db, id!)));
    case "POST /tickets/{id}/comments": {
      const found = ticket(db, id!);
      return {
        status: 201,
        body: addComment(db, base, found, newComment(await jsonBody(request))),
      };
    }
    case "GET /users":
      return ok(listUsers(db, base, idFilter(url.searchParams)));
    case "GET /users/{id}": {
      const user = findUser(db, id!);
      if (!user) throw new HttpError(404, `No user ${id}`);
      return ok(getUser(base, user));
    }
    case "GET /organizations":
      return ok(listOrganizations(db, idFilter(url.searchParams)));
    default:
      throw new HttpError(404, `No route ${request.method} ${url.pathname}`);
  }
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(
      400,
      `The path segment "${segment}" is not URL-encoded text`,
    );
  }
}

const ok = (body: unknown): Answer => ({ status: 200, body });

function ticket(db: Database.Database, id: string) {
  const row = findTicket(db, id);
  if (!row) throw new HttpError(404, `No ticket ${id}`);
  return row;
}

function statusFilter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (!/^[1-5]$/.test(value))
    throw new HttpError(
      400,
      `filter[status] must be a status code, 1 to 5, not "${value}"`,
    );
  return Number(value);
}

function pageNumber(value: string | null): number {
  if (value === null) return 1;
  if (!/^[1-9][0-9]{0,8}$/.test(value))
    throw new HttpError(
      400,
      `page[number] must be a positive integer, not "${value}"`,
    );
  return Number(value);
}

/** `filter[id]` as the spec declares it (form, not exploded: `a,b`), and repeated keys as well. */
function idFilter(query: URLSearchParams): string[] | undefined {
  const given = query.getAll("filter[id]");
  if (given.length === 0) return undefined;
  const ids = given.flatMap((value) => value.split(",")).filter(Boolean);
  if (ids.length > MAX_IDS)
    throw new HttpError(
      400,
      `filter[id] takes at most ${MAX_IDS} ids, not ${ids.length}`,
    );
  return ids;
}

async function jsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES)
      throw new HttpError(400, `The body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "The body is not JSON");
  }
}

/** The NewCommentDocument of the spec: `{ data: { type: "comment", attributes: { body, public? } } }`. */
function newComment(document: unknown): { body: string; public: boolean } {
  const data = field(document, "data");
  const attributes = field(data, "attributes");
  const body = field(attributes, "body");
  const visible = field(attributes, "public") ?? true;
  if (field(data, "type") !== "comment")
    throw new HttpError(400, 'data.type must be "comment"');
  if (typeof body !== "string" || body === "")
    throw new HttpError(400, "data.attributes.body must be a non-empty string");
  if (typeof visible !== "boolean")
    throw new HttpError(400, "data.attributes.public must be true or false");
  return { body, public: visible };
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
