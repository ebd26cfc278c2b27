import Database from "better-sqlite3";
import { seed } from "./seed.js";

export interface TicketRow {
  id: string;
  subject: string;
  status_code: number;
  priority: number;
  created_at: string;
  updated_at: string;
  sla_due_at: string | null;
  internal_notes: string | null;
  assignee_id: string | null;
  organization_id: string;
}

export interface UserRow {
  id: string;
  display_name: string;
  email: string;
  role: string;
  organization_id: string;
}

export interface OrganizationRow {
  id: string;
  name: string;
  has_sla: number;
}

export interface CommentRow {
  id: string;
  ticket_id: string;
  author_id: string;
  body: string;
  public: number;
  created_at: string;
}

/**
 * Opens the support desk's database, creating and seeding it on first use. `logSql` sees every
 * statement the connection runs, which is how the tests count queries per tool call.
 */
export function openDatabase(
  file: string,
  logSql?: (sql: string) => void,
): Database.Database {
  const db = new Database(
    file,
    logSql ? { verbose: (sql) => logSql(String(sql)) } : {},
  );
  db.pragma("journal_mode = WAL");
  // Checked and seeded in one write transaction: a first run killed half-way leaves no tables
  // behind, and two servers starting at once on a new file seed it once.
  db.transaction(() => {
    if (
      !db
        .prepare(
          "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tickets'",
        )
        .get()
    )
      seed(db);
  }).immediate();
  return db;
}
