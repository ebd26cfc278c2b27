import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import {
  matchesShortId,
  type AddCommentResponse,
  type GetTicketResponse,
  type SearchTicketsResponse,
} from "../../generated/support/index.js";
import type { CommentRow, TicketRow, UserRow } from "./database.js";

// The support desk's REST API, as the spec describes it: each function returns the JSON:API body
// the real endpoint would send, typed by the spec, so the projection sees exactly what it would in
// production: envelopes, self links, full ids, integer codes.

const BASE = "https://api.example.com/v1";
export const PAGE_SIZE = 25;

type Ticket = SearchTicketsResponse["data"][number];

function ticketResource(row: TicketRow): Ticket {
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
    links: { self: `${BASE}/tickets/${row.id}` },
  };
}

export interface TicketSearch {
  query?: string | undefined;
  statusCode?: number | undefined;
  page?: number | undefined;
}

/** GET /tickets?q=...&filter[status]=...&page[number]=...: every word of `q` in the subject, newest activity first. */
export function searchTickets(
  db: Database.Database,
  search: TicketSearch,
): SearchTicketsResponse {
  const page = search.page ?? 1;
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
      offset: (page - 1) * PAGE_SIZE,
    }) as TicketRow[];
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filters = new URLSearchParams();
  if (search.query) filters.set("q", search.query);
  if (search.statusCode !== undefined)
    filters.set("filter[status]", String(search.statusCode));
  const pageLink = (n: number) =>
    `${BASE}/tickets?${new URLSearchParams([...filters, ["page[number]", String(n)]])}`;
  return {
    data: rows.map(ticketResource),
    links: {
      first: pageLink(1),
      next: page < last ? pageLink(page + 1) : null,
      last: pageLink(last),
    },
    meta: { page: { number: page, size: PAGE_SIZE, total } },
  };
}

/**
 * The ticket a full id or a short id from a tool result names. Any shorter prefix is refused, so
 * a truncated or made-up id never reaches a ticket that merely starts the same way.
 */
export function findTicket(
  db: Database.Database,
  id: string,
): TicketRow | undefined {
  const rows = db
    .prepare("SELECT * FROM tickets WHERE substr(id, 1, length(@id)) = @id")
    .all({ id }) as TicketRow[];
  const matches = rows.filter((row) => matchesShortId(row.id, id));
  if (matches.length > 1)
    throw new Error(`${id} names more than one ticket; pass the full id`);
  return matches[0];
}

/** GET /tickets/{ticket_id}?include=assignee */
export function getTicket(
  db: Database.Database,
  row: TicketRow,
): GetTicketResponse {
  const assignee =
    row.assignee_id === null
      ? undefined
      : (db.prepare("SELECT * FROM users WHERE id = ?").get(row.assignee_id) as
          UserRow | undefined);
  return {
    data: ticketResource(row),
    ...(assignee
      ? {
          included: [
            {
              type: "user" as const,
              id: assignee.id,
              attributes: {
                display_name: assignee.display_name,
                email: assignee.email,
              },
            },
          ],
        }
      : {}),
  };
}

/** POST /tickets/{ticket_id}/comments, written as the acting agent. */
export function addComment(
  db: Database.Database,
  ticket: TicketRow,
  body: string,
  visibleToCustomer: boolean,
): AddCommentResponse {
  const author = db
    .prepare("SELECT id FROM users ORDER BY rowid LIMIT 1")
    .get() as { id: string };
  const row: CommentRow = {
    id: `cmt_${randomUUID()}`,
    ticket_id: ticket.id,
    author_id: author.id,
    body,
    public: visibleToCustomer ? 1 : 0,
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
      links: { self: `${BASE}/comments/${row.id}` },
    },
  };
}
