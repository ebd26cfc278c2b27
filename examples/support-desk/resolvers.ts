import type Database from "better-sqlite3";
import type { Resolver, Resolvers } from "../../generated/support/index.js";

/**
 * One `SELECT ... WHERE id IN (...)` per resolver call, whatever the number of ids: the ids travel
 * as one JSON array parameter, so the statement is prepared once and SQLite's limit on bound
 * variables never applies.
 */
function labelsFrom(
  db: Database.Database,
  table: "users" | "organizations",
  label: "display_name" | "name",
): Resolver {
  const statement = db.prepare(
    `SELECT id, ${label} AS label FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`,
  );
  return (ids) => {
    const rows = statement.all(JSON.stringify(ids)) as {
      id: string;
      label: string;
    }[];
    return new Map(rows.map((row) => [row.id, row.label]));
  };
}

export function databaseResolvers(db: Database.Database): Resolvers {
  return {
    users: labelsFrom(db, "users", "display_name"),
    orgs: labelsFrom(db, "organizations", "name"),
  };
}
