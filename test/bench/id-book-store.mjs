// The cost per tool call of the id book: `node id-book-store.mjs <book> <records> <generated dir>
// <rounds> [redis url]`, the book `memory` (the process's own) or `redis`. Each round lists a page of
// `records` tickets the book has not seen, through createTools with an API that answers at once,
// then fetches one ticket by the short id the page gave. Prints the mean milliseconds of each.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { redisIdBook } from "../../dist/redis-id-book.js";

const [book, records, generatedDir, rounds, url] = [
  process.argv[2],
  Number(process.argv[3]),
  process.argv[4],
  Number(process.argv[5]),
  process.argv[6],
];
const { createTools } = await import(
  pathToFileURL(join(generatedDir, "index.js")).href
);

const hex = (n) => n.toString(16).padStart(8, "0");
const ticket = (n) => ({
  type: "ticket",
  id: `tkt_${hex(n)}-2d18-4b6e-9c05-8ab3f2e17d90`,
  attributes: {
    subject: `Card declined at checkout #${n}`,
    status_code: 1 + (n % 5),
    priority: 1 + (n % 3),
    created_at: "2026-02-11T09:14:22.481Z",
    updated_at: "2026-02-14T16:02:07.113Z",
    sla_due_at: null,
  },
  relationships: {
    assignee: {
      data: {
        type: "user",
        id: `usr_${hex(n % 997)}-77aa-4f31-8d2c-1e5b6c9042af`,
      },
    },
    organization: {
      data: {
        type: "organization",
        id: `org_${hex(n % 31)}-6b2a-4c77-9e10-3f7d51ac8802`,
      },
    },
  },
});
/** Pages of tickets no earlier page had, made before the clock starts. */
const WARM_UP = 3;
const pages = Array.from({ length: WARM_UP + rounds }, (_, round) => ({
  data: Array.from({ length: records }, (_, i) => ticket(round * records + i)),
  meta: { page: { total: records } },
  links: { next: null },
}));
const byId = new Map(pages.flatMap((page) => page.data.map((t) => [t.id, t])));

let page;
const ok = (data) => ({ data, response: { status: 200, ok: true } });
const client = {
  GET: async (path, init) =>
    path === "/tickets"
      ? ok(page)
      : ok({ data: byId.get(init.params.path.ticket_id) }),
};
const names = async (ids) =>
  new Map(ids.map((id) => [id, `Name of ${id.slice(0, 12)}`]));
const redis = book === "redis" ? new Redis(url) : undefined;
const tools = createTools({
  client,
  resolvers: { users: names, orgs: names },
  ...(redis
    ? { idBook: redisIdBook(redis, { prefix: `bench-${process.pid}:` }) }
    : {}),
});

const listMs = [];
const fetchMs = [];
for (let round = 0; round < WARM_UP + rounds; round++) {
  page = pages[round];
  const listing = performance.now();
  const listed = await tools.search_tickets({});
  const listedAt = performance.now();
  if ("error" in listed) throw new Error(listed.error);
  const fetched = await tools.get_ticket({
    ticket_id: listed.result.tickets.at(-1).id,
  });
  const fetchedAt = performance.now();
  if ("error" in fetched) throw new Error(fetched.error);
  if (round < WARM_UP) continue;
  listMs.push(listedAt - listing);
  fetchMs.push(fetchedAt - listedAt);
}
redis?.disconnect();
const mean = (values) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;
process.stdout.write(
  JSON.stringify({
    book,
    records,
    listMs: mean(listMs),
    fetchMs: mean(fetchMs),
  }),
);
