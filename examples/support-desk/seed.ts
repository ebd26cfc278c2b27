import type Database from "better-sqlite3";

// Fixed data, the same on every machine: a seeded generator rather than Math.random, so a ticket
// named in the README or a test is the same ticket everywhere.
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ORGANIZATIONS = [
  "Northwind Foods",
  "Contoso Pharmacy",
  "Fabrikam Outdoor",
  "Tailspin Toys",
  "Wide World Importers",
  "Adventure Works",
  "Alpine Ski House",
  "Blue Yonder Airlines",
  "Coho Winery",
  "Datum Analytics",
  "Fourth Coffee",
  "Graphic Design Institute",
  "Humongous Insurance",
  "Litware Labs",
  "Lucerne Publishing",
  "Margie's Travel",
  "Proseware Systems",
  "Southridge Video",
  "Trey Research",
  "Woodgrove Bank",
  "Relecloud",
  "VanArsdel Furniture",
  "Wingtip Bakery",
  "Bellows College",
];
const FIRST = [
  "Priya",
  "Marcus",
  "Sofia",
  "Kenji",
  "Amara",
  "Lukas",
  "Chloe",
  "Diego",
  "Hana",
  "Omar",
  "Ingrid",
  "Tomás",
  "Aisha",
  "Noah",
  "Mei",
  "Rafael",
];
const LAST = [
  "Raman",
  "Lee",
  "Rossi",
  "Tanaka",
  "Okafor",
  "Becker",
  "Martin",
  "Silva",
  "Kim",
  "Haddad",
  "Larsen",
  "García",
];
const PROBLEMS = [
  "Card declined at checkout",
  "Refund not received after cancellation",
  "Invoice shows the wrong VAT rate",
  "Cannot reset password",
  "Two-factor codes never arrive",
  "Export to CSV times out",
  "Duplicate charge this month",
  "Webhook deliveries failing with 502",
  "Seats not updated after upgrade",
  "SSO login loops back to the start page",
  "Order stuck in processing",
  "API rate limit lower than the plan says",
  "Shipping address cannot be changed",
  "Receipts missing the company name",
  "Mobile app crashes on launch",
  "Report totals differ from the dashboard",
];
const NOTES = [
  "Customer is on the legacy billing plan.",
  "Escalated by phone.",
  "Asked twice already.",
  "Possible fraud, check with risk.",
  null,
  null,
];

/** An agent who left: tickets still point at them, the users table no longer has them. */
const DELETED_AGENT_INDEX = 3;

const SCHEMA = `
  CREATE TABLE organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, has_sla INTEGER NOT NULL);
  CREATE TABLE users (id TEXT PRIMARY KEY, display_name TEXT NOT NULL, email TEXT NOT NULL, role TEXT NOT NULL, organization_id TEXT NOT NULL);
  CREATE TABLE tickets (
    id TEXT PRIMARY KEY, subject TEXT NOT NULL, status_code INTEGER NOT NULL, priority INTEGER NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, sla_due_at TEXT, internal_notes TEXT,
    assignee_id TEXT, organization_id TEXT NOT NULL
  );
  CREATE TABLE comments (
    id TEXT PRIMARY KEY, ticket_id TEXT NOT NULL, author_id TEXT NOT NULL, body TEXT NOT NULL,
    public INTEGER NOT NULL, created_at TEXT NOT NULL
  );
  CREATE INDEX tickets_by_update ON tickets (updated_at DESC);
`;

/** Creates the tables and fills them: 24 organizations, 40 agents, 400 tickets, some unassigned. */
export function seed(db: Database.Database): void {
  const random = generator(20260211);
  const pick = <T>(list: readonly T[]): T =>
    list[Math.floor(random() * list.length)]!;
  const uuid = (): string => {
    const hex = Array.from({ length: 32 }, () =>
      Math.floor(random() * 16).toString(16),
    );
    hex[12] = "4";
    hex[16] = "89ab"[Math.floor(random() * 4)]!;
    const h = hex.join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  const start = Date.parse("2026-02-01T08:00:00.000Z");
  const at = (ms: number) => new Date(ms).toISOString();

  db.transaction(() => {
    db.exec(SCHEMA);
    const orgs = ORGANIZATIONS.map((name, i) => ({
      id: `org_${uuid()}`,
      name,
      has_sla: i % 3 === 0 ? 0 : 1,
    }));
    const insertOrg = db.prepare(
      "INSERT INTO organizations (id, name, has_sla) VALUES (@id, @name, @has_sla)",
    );
    for (const org of orgs) insertOrg.run(org);

    const deskOrg = orgs[0]!;
    const agents = Array.from({ length: 40 }, (_, i) => {
      const first = FIRST[i % FIRST.length]!;
      const last = LAST[(i * 7) % LAST.length]!;
      return {
        id: `usr_${uuid()}`,
        display_name: `${first} ${last}`,
        email: `${first}.${last}@example.com`.toLowerCase(),
        role: i < 3 ? "admin" : i % 9 === 8 ? "viewer" : "agent",
        organization_id: deskOrg.id,
      };
    });
    const insertUser = db.prepare(
      "INSERT INTO users (id, display_name, email, role, organization_id) VALUES (@id, @display_name, @email, @role, @organization_id)",
    );
    for (const agent of agents) insertUser.run(agent);

    const insertTicket = db.prepare(
      `INSERT INTO tickets VALUES (@id, @subject, @status_code, @priority, @created_at, @updated_at, @sla_due_at, @internal_notes, @assignee_id, @organization_id)`,
    );
    const insertComment = db.prepare(
      "INSERT INTO comments VALUES (@id, @ticket_id, @author_id, @body, @public, @created_at)",
    );
    for (let i = 0; i < 400; i++) {
      const org = pick(orgs);
      const created = start + Math.floor(random() * 27 * 86_400_000);
      const updated = created + Math.floor(random() * 3 * 86_400_000);
      const status = 1 + Math.floor(random() * 5);
      const assignee =
        status === 1 || random() < 0.12
          ? null
          : i % 17 === 0
            ? agents[DELETED_AGENT_INDEX]!
            : pick(agents);
      const ticket = {
        id: `tkt_${uuid()}`,
        subject: pick(PROBLEMS),
        status_code: status,
        priority: 1 + Math.floor(random() * 3),
        created_at: at(created),
        updated_at: at(updated),
        sla_due_at: org.has_sla ? at(created + 2 * 86_400_000) : null,
        internal_notes: pick(NOTES),
        assignee_id: assignee?.id ?? null,
        organization_id: org.id,
      };
      insertTicket.run(ticket);
      if (assignee && random() < 0.5) {
        insertComment.run({
          id: `cmt_${uuid()}`,
          ticket_id: ticket.id,
          author_id: assignee.id,
          body: "Looking into it.",
          public: 1,
          created_at: at(updated),
        });
      }
    }
    db.prepare("DELETE FROM users WHERE id = ?").run(
      agents[DELETED_AGENT_INDEX]!.id,
    );
  })();
}
