import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PerformanceObserver } from "node:perf_hooks";
import { resourceUsage } from "node:process";
import { deserialise } from "kitsu-core";

const [scenario, count, generatedDir] = [
  process.argv[2],
  Number(process.argv[3]),
  process.argv[4],
];
const ROUNDS = Number(process.argv[5] ?? 40);

/**
 * A page of `count` tickets in the article's shape; every third assignee is in `included`. With
 * `samePrefix`, the ticket ids are UUIDv7-like ids made within one minute: all share their first
 * eight hex digits, so every short form collides and the page is projected a second time.
 */
function page(count, samePrefix = false, firstTicket = 0) {
  const hex = (n, width = 8) => n.toString(16).padStart(width, "0");
  const ticketId = (i) =>
    samePrefix
      ? `tkt_0190a5d3-${hex(i & 0xffff, 4)}-7${hex(i >>> 16, 3)}-9c05-8ab3f2e17d90`
      : `tkt_${hex(firstTicket + i)}-2d18-4b6e-9c05-8ab3f2e17d90`;
  const data = [];
  const included = [];
  for (let i = 0; i < count; i++) {
    const user = `usr_${hex(i % 997)}-77aa-4f31-8d2c-1e5b6c9042af`;
    data.push({
      type: "ticket",
      id: ticketId(i),
      attributes: {
        subject: `Card declined at checkout #${i}`,
        status_code: 1 + (i % 5),
        priority: 1 + (i % 3),
        created_at: "2026-02-11T09:14:22.481Z",
        updated_at: "2026-02-14T16:02:07.113Z",
        sla_due_at: i % 2 ? "2026-02-14T16:02:07.113Z" : null,
        internal_notes: "staff only",
      },
      relationships: {
        assignee: { data: i % 7 ? { type: "user", id: user } : null },
        organization: {
          data: {
            type: "organization",
            id: `org_${hex(i % 31)}-6b2a-4c77-9e10-3f7d51ac8802`,
          },
        },
      },
      links: { self: `https://api.example.com/v1/tickets/${i}` },
    });
  }
  for (let u = 0; u < Math.min(count, 997); u += 3)
    included.push({
      type: "user",
      id: `usr_${hex(u)}-77aa-4f31-8d2c-1e5b6c9042af`,
      attributes: { display_name: `User ${u}` },
    });
  return JSON.stringify({
    data,
    included,
    links: { next: null },
    meta: { page: { total: count } },
  });
}

const names = async (ids) =>
  new Map(ids.map((id) => [id, `Name of ${id.slice(0, 12)}`]));

// The article's project_ticket, in TypeScript's JavaScript: the hand-written baseline.
const STATUS = {
  1: "new",
  2: "pending",
  3: "open",
  4: "resolved",
  5: "closed",
};
const PRIORITY = { 1: "low", 2: "high", 3: "urgent" };
function projectTicketByHand(el, users, orgs) {
  const a = el.attributes;
  const assignee = el.relationships.assignee.data;
  return {
    id: el.id.split("-")[0],
    subject: a.subject,
    status: STATUS[a.status_code],
    priority: PRIORITY[a.priority],
    opened: a.created_at.slice(0, 10),
    last_update: a.updated_at.slice(0, 10),
    sla_due: a.sla_due_at ? `${a.sla_due_at.slice(0, 16)}Z` : null,
    assignee: assignee ? (users.get(assignee.id) ?? null) : null,
    org: orgs.get(el.relationships.organization.data.id) ?? null,
  };
}
async function byHand(body) {
  const users = new Map();
  for (const u of body.included) users.set(u.id, u.attributes.display_name);
  const wantUsers = new Set();
  const wantOrgs = new Set();
  for (const el of body.data) {
    const a = el.relationships.assignee.data;
    if (a && !users.has(a.id)) wantUsers.add(a.id);
    wantOrgs.add(el.relationships.organization.data.id);
  }
  for (const [id, name] of await names([...wantUsers])) users.set(id, name);
  const orgs = await names([...wantOrgs]);
  return {
    tickets: body.data.map((el) => projectTicketByHand(el, users, orgs)),
    total: body.meta.page.total,
    more: body.links.next !== null,
  };
}

async function withKitsu(body) {
  const { data } = deserialise(body);
  const orgs = await names([
    ...new Set(data.map((t) => t.organization.data.id)),
  ]);
  const users = await names([
    ...new Set(
      data.flatMap((t) =>
        t.assignee.data && !t.assignee.data.display_name
          ? [t.assignee.data.id]
          : [],
      ),
    ),
  ]);
  return data.map((t) => ({
    id: t.id.split("-")[0],
    subject: t.subject,
    status: STATUS[t.status_code],
    priority: PRIORITY[t.priority],
    opened: t.created_at.slice(0, 10),
    last_update: t.updated_at.slice(0, 10),
    sla_due: t.sla_due_at ? `${t.sla_due_at.slice(0, 16)}Z` : null,
    assignee: t.assignee.data
      ? (t.assignee.data.display_name ?? users.get(t.assignee.data.id))
      : null,
    org: orgs.get(t.organization.data.id),
  }));
}

const text = page(count, scenario === "same-prefix");
// With the id book in use, as under createTools, pages of other tickets take turns, so that every
// page hands out ids the book has not seen, as when a model pages through a long list.
const otherText = scenario === "id-book" ? page(count, false, count) : text;
const textOf = (round) => (round % 2 ? otherText : text);
const generated =
  scenario === "generated" ||
  scenario === "same-prefix" ||
  scenario === "calls" ||
  scenario === "id-book"
    ? await import(pathToFileURL(join(generatedDir, "index.js")).href)
    : undefined;
let calls = 0;
const counted = async (ids) => (calls++, names(ids));
// Each scenario projects an already-parsed page, so that the projection is timed apart from the
// JSON.parse before it; the parse is timed too, in the same process and round, for the ratio.
const run = {
  "json-parse": async () => undefined,
  generated: async (body) =>
    generated.projectSearchTickets(body, { users: names, orgs: names }),
  "id-book": async (body) =>
    generated.projectSearchTickets(body, { users: names, orgs: names }),
  "same-prefix": async (body) =>
    generated.projectSearchTickets(body, { users: names, orgs: names }),
  "by-hand": async (body) => byHand(body),
  kitsu: async (body) => withKitsu(body),
  calls: async (body) =>
    generated.projectSearchTickets(body, { users: counted, orgs: counted }),
}[scenario];

// warm-up: JIT and first-call costs are not what a server pays per page
if (scenario === "id-book") {
  const runtime = join(generatedDir, "runtime/index.js");
  (await import(pathToFileURL(runtime).href)).useIdBook();
}
for (let i = 0; i < 3; i++) await run(JSON.parse(textOf(i)));
calls = 0;
// A collection that falls in the projection mostly copies the page JSON.parse has just made, so
// its cost moves between the two windows from round to round: the rounds with one are counted.
const collections = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push(entry.startTime);
});
observer.observe({ entryTypes: ["gc"] });
const windows = [];
for (let i = 0; i < ROUNDS; i++) {
  const started = performance.now();
  const body = JSON.parse(textOf(i));
  const parsed = performance.now();
  await run(body);
  windows.push({ started, parsed, done: performance.now() });
}
await new Promise((resolve) => setTimeout(resolve, 100)); // the observer hears of the last collections
observer.disconnect();
const mean = (values) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;
const parseMs = ({ started, parsed }) => parsed - started;
const projectMs = ({ parsed, done }) => done - parsed;
const collectedIn = ({ parsed, done }) =>
  collections.some((at) => at >= parsed && at < done);
// Means, not medians: a page's JSON.parse takes about 15 ms in a round with no collection in it and
// 45 to 60 ms in one with, about every other round, so a median of the rounds (or of their ratios)
// lands in one mode or the other, and a projection that allocated less could read worse. A mean
// counts each collection once, in the window it fell in.
process.stdout.write(
  JSON.stringify({
    scenario,
    records: count,
    /** Parse and projection together, as a server pays per page. */
    ms: mean(windows.map(({ started, done }) => done - started)),
    parseMs: mean(windows.map(parseMs)),
    /** The projection alone, on the page already parsed. */
    projectMs: mean(windows.map(projectMs)),
    /** The projection's time over the rounds against the parse's over the same rounds. */
    projectPerParse: mean(windows.map(projectMs)) / mean(windows.map(parseMs)),
    /** The rounds in which a collection ran during the projection. */
    roundsCollectedIn: windows.filter(collectedIn).length,
    rounds: ROUNDS,
    peakMb: resourceUsage().maxRSS / 1024,
    callsPerPage: calls / ROUNDS,
    bytes: text.length,
  }),
);
