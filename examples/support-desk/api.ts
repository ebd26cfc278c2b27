import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type {
  AddCommentResponse,
  components,
  GetTicketResponse,
  GetUserResponse,
  SearchTicketsResponse,
} from "../../generated/support/index.js";
import type {
  CommentRow,
  OrganizationRow,
  TicketRow,
  UserRow,
} from "./database.js";

// The support desk's REST API, as the spec describes it: each function returns the JSON:API body
// the endpoint sends, typed by the spec: envelopes, self links, full ids, integer codes. `base` is
// the URL the API is served under, so the links point back at it.

export const PAGE_SIZE = 25;

type Ticket = SearchTicketsResponse["data"][number];
type User = components["schemas"]["User"];
type Organization = components["schemas"]["Organization"];

function ticketResource(base: string, row: TicketRow): Ticket {
  return {
    type: "ticket",
    id: row.id,
    attributes: {
      subject: row.subject,
      status_code: row.status_code as Ticket["attributes"]["status_code"],
      priority: row.priority as Ticket["attributes"]["priority"],
      created_at: row.created_at,
      updated_at: row.updated_at,
      sla_due_at: row.sla_due_at,
      internal_notes: row.internal_notes,
    },
    relationships: {
      assignee: {
        data:
          row.assignee_id === null
            ? null
            : { type: "user", id: row.assignee_id },
      },
      organization: { data: { type: "organization", id: row.organization_id } },
    },
    links: { self: `${base}/tickets/${row.id}` },
  };
}

function userResource(base: string, row: UserRow): User {
  return {
    type: "user",
    id: row.id,
    attributes: {
      display_name: row.display_name,
      email: row.email,
      role: row.role as NonNullable<User["attributes"]["role"]>,
    },
    relationships: {
      organization: { data: { type: "organization", id: row.organization_id } },
    },
    links: { self: `${base}/users/${row.id}` },
  };
}

function organizationResource(row: OrganizationRow): Organization {
  return { type: "organization", id: row.id, attributes: { name: row.name } };
}

export interface TicketSearch {
  query?: string | undefined;
  statusCode?: number | undefined;
  page: number;
}

/** GET /tickets?q=...&filter[status]=...&page[number]=...: every word of `q` in the subject, newest activity first. */
export function searchTickets(
  db: Database.Database,
  base: string,
  search: TicketSearch,
): SearchTicketsResponse {
  const words = (search.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  // instr, not LIKE: a `%` or `_` in the query is a character to find, not a wildcard.
  const where = [
    "(@status IS NULL OR status_code = @status)",
    ...words.map((_, i) => `instr(lower(subject), @word${i}) > 0`),
  ].join(" AND ");
  const params = {
    status: search.statusCode ?? null,
    ...Object.fromEntries(words.map((word, i) => [`word${i}`, word])),
  };
  const total = (
    db
      .prepare(`SELECT count(*) AS n FROM tickets WHERE ${where}`)
      .get(params) as { n: number }
  ).n;
  const rows = db
    .prepare(
      `SELECT * FROM tickets WHERE ${where} ORDER BY updated_at DESC, id LIMIT @limit OFFSET @offset`,
    )
    .all({
      ...params,
      limit: PAGE_SIZE,
      offset: (search.page - 1) * PAGE_SIZE,
    }) as TicketRow[];
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filters = new URLSearchParams();
  if (search.query) filters.set("q", search.query);
  if (search.statusCode !== undefined)
    filters.set("filter[status]", String(search.statusCode));
  const pageLink = (n: number) =>
    `${base}/tickets?${new URLSearchParams([...filters, ["page[number]", String(n)]])}`;
  return {
    data: rows.map((row) => ticketResource(base, row)),
    links: {
      first: pageLink(1),
      next: search.page < last ? pageLink(search.page + 1) : null,
      last: pageLink(last),
    },
    meta: { page: { number: search.page, size: PAGE_SIZE, total } },
  };
}

/** The ticket with exactly this id: the API takes full ids only, short forms are the tools' business. */
export function findTicket(
  db: Database.Database,
  id: string,
): TicketRow | undefined {
  return db.prepare("SELECT * FROM tickets WHERE id = ?").get(id) as
    TicketRow | undefined;
}

/** GET /tickets/{ticket_id}, its assignee in `included` (an assignee no longer in the users table is left out). */
export function getTicket(
  db: Database.Database,
  base: string,
  row: TicketRow,
): GetTicketResponse {
  const assignee =
    row.assignee_id === null ? undefined : findUser(db, row.assignee_id);
  return {
    data: ticketResource(base, row),
    ...(assignee ? { included: [userResource(base, assignee)] } : {}),
  };
}

/** POST /tickets/{ticket_id}/comments, written as the acting agent. */
export function addComment(
  db: Database.Database,
  base: string,
  ticket: TicketRow,
  comment: { body: string; public: boolean },
): AddCommentResponse {
  const author = db
    .prepare("SELECT id FROM users ORDER BY rowid LIMIT 1")
    .get() as { id: string };
  const row: CommentRow = {
    id: `cmt_${randomUUID()}`,
    ticket_id: ticket.id,
    author_id: author.id,
    body: comment.body,
    public: comment.public ? 1 : 0,
    created_at: new Date().toISOString(),
  };
  db.prepare(
    "INSERT INTO comments VALUES (@id, @ticket_id, @author_id, @body, @public, @created_at)",
  ).run(row);
  return {
    data: {
      type: "comment",
      id: row.id,
      attributes: {
        body: row.body,
        public: row.public === 1,
        created_at: row.created_at,
      },
      relationships: {
        ticket: { data: { type: "ticket", id: ticket.id } },
        author: { data: { type: "user", id: row.author_id } },
      },
      links: { self: `${base}/comments/${row.id}` },
    },
  };
}

export function findUser(
  db: Database.Database,
  id: string,
): UserRow | undefined {
  return db.prepare("SELECT * FROM users WHERE id = ?").get(id) as
    UserRow | undefined;
}

/** GET /users/{user_id} */
export function getUser(base: string, row: UserRow): GetUserResponse {
  return { data: userResource(base, row) };
}

/**
 * The rows of `table` with these ids (all of them without a filter), in one statement whatever the
 * number of ids: they travel as one JSON array parameter, so SQLite's limit on bound variables never
 * applies.
 */
function rowsWithIds<Row>(
  db: Database.Database,
  table: "users" | "organizations",
  ids: readonly string[] | undefined,
): Row[] {
  return db
    .prepare(
      `SELECT * FROM ${table} WHERE @ids IS NULL OR id IN (SELECT value FROM json_each(@ids)) ORDER BY id`,
    )
    .all({ ids: ids === undefined ? null : JSON.stringify(ids) }) as Row[];
}

/** GET /users?filter[id]=...: the users asked for; an id with no user is left out. */
export function listUsers(
  db: Database.Database,
  base: string,
  ids: readonly string[] | undefined,
): components["schemas"]["UserPage"] {
  return {
    data: rowsWithIds<UserRow>(db, "users", ids).map((row) =>
      userResource(base, row),
    ),
  };
}

/** GET /organizations?filter[id]=... */
export function listOrganizations(
  db: Database.Database,
  ids: readonly string[] | undefined,
): components["schemas"]["OrganizationPage"] {
  return {
    data: rowsWithIds<OrganizationRow>(db, "organizations", ids).map(
      organizationResource,
    ),
  };
}
