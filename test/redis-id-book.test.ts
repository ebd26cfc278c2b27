// Short ids on a real Redis: processes serving the generated tools, started and stopped as replicas
// and restarts are, share one book; the ambiguity rule holds across them; a stopped server is an
// error for the model, never a guessed id.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { format } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_ID_BOOK_PREFIX,
  DEFAULT_ID_BOOK_TTL_SECONDS,
  ID_BOOK_SHARERS,
  idBookSettingsFrom,
  redisIdBook,
} from "../src/redis-id-book.js";
import { ROOT } from "./helpers/pipeline.js";
import { redisServer, startRedis } from "./helpers/redis-server.js";
import { typecheck } from "./helpers/typecheck.js";

const TOOL_PROCESS = join(ROOT, "test/fixtures/id-book-process.mjs");
const BUILT = [join(ROOT, "dist/redis-id-book.js"), join(ROOT, "examples/support-desk/build/generated/support/index.js")];

interface Answer {
  outcome: { result?: { tickets?: { id: string }[] }; error?: string };
  ticketIdsSent: string[];
}

/** A process serving the generated tools over the book at `url` (see test/fixtures/id-book-process.mjs). */
function toolProcess(url: string, prefix: string, ttlSeconds = DEFAULT_ID_BOOK_TTL_SECONDS) {
  const child: ChildProcess = spawn(process.execPath, [TOOL_PROCESS, url, String(ttlSeconds), prefix], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    /** Calls a tool while the API holds `tickets`. */
    async call(tool: string, args: object, tickets: string[]): Promise<Answer> {
      child.stdin!.write(`${JSON.stringify({ tool, args, tickets })}\n`);
      const line = await lines.next();
      if (line.done) throw new Error(`the tool process ended:\n${stderr}`);
      return JSON.parse(line.value) as Answer;
    },
    /** The short ids a search showed for `tickets`. */
    async list(tickets: string[]): Promise<string[]> {
      const { outcome } = await this.call("search_tickets", {}, tickets);
      if (!outcome.result?.tickets) throw new Error(`search_tickets failed: ${outcome.error}\n${stderr}`);
      return outcome.result.tickets.map((ticket) => ticket.id);
    },
    /** Ends the process as a restart does: its memory goes with it. */
    async stop(): Promise<void> {
      child.stdin!.end();
      await exited;
    },
  };
}

const A = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const B = "tkt_9f3a71c4-77aa-4f31-8d2c-1e5b6c9042af";
const C = "tkt_5498ee00-8600-4e00-8e38-b39f4e006600";
const WHOLE = "tkt_9f3a71c4";
const FORGOTTEN =
  "if a result gave it, the full id it stands for is no longer remembered; run the tool that listed it again and pass the id it gives now";

let prefixes = 0;
/** A key prefix of its own for each test, so that no test reads another's short ids. */
const freshPrefix = () => `test-${process.pid}-${++prefixes}:`;

describe.skipIf(!redisServer)(redisServer ? "short ids on Redis" : "short ids on Redis: skipped, redis-server is not installed", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let client: Redis;
  beforeAll(async () => {
    for (const file of BUILT) if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it("are taken by a process that never saw them, from another serving at the same time", async () => {
    const prefix = freshPrefix();
    const [first, second] = [toolProcess(redis.url, prefix), toolProcess(redis.url, prefix)];
    try {
      expect(await first.list([A, C])).toEqual(["tkt_9f3a71c4", "tkt_5498ee00"]);
      const { outcome, ticketIdsSent } = await second.call("get_ticket", { ticket_id: "tkt_5498ee00" }, [A, C]);
      expect(ticketIdsSent).toEqual([C]);
      expect(outcome).not.toHaveProperty("error");
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it("keep working across a restart of the tool process", async () => {
    const prefix = freshPrefix();
    const before = toolProcess(redis.url, prefix);
    expect(await before.list([A])).toEqual([WHOLE]);
    await before.stop();
    const after = toolProcess(redis.url, prefix);
    try {
      expect((await after.call("get_ticket", { ticket_id: WHOLE }, [A])).ticketIdsSent).toEqual([A]);
    } finally {
      await after.stop();
    }
  });

  it("expire after the stated time: the short id is then sent as given, and the 404 says to list again", async () => {
    const prefix = freshPrefix();
    const tools = toolProcess(redis.url, prefix, 1);
    try {
      await tools.list([A]);
      // The key is the short form qualified by its kind: a ticket's own id.
      const key = `${prefix}"ticket.id"${WHOLE}`;
      expect(await client.pttl(key)).toBeGreaterThan(0);
      await vi.waitFor(async () => expect(await client.exists(key)).toBe(0), { timeout: 30_000, interval: 100 });
      expect(await tools.call("get_ticket", { ticket_id: WHOLE }, [A])).toEqual({
        outcome: { error: `get_ticket: the API answered 404: no such ticket; no record has the id "${WHOLE}"; ${FORGOTTEN}` },
        ticketIdsSent: [WHOLE],
      });
    } finally {
      await tools.stop();
    }
  });

  it.each<[string, string[], Record<string, string>]>([
    ["two short ids, the first id first", [A, B], { [A]: "tkt_9f3a71c4-2", [B]: "tkt_9f3a71c4-7" }],
    ["two short ids, the second id first", [B, A], { [A]: "tkt_9f3a71c4-2", [B]: "tkt_9f3a71c4-7" }],
    ["an id shown whole first, then a short id", [WHOLE, A], { [A]: "tkt_9f3a71c4-2", [WHOLE]: WHOLE }],
    ["a short id first, then an id shown whole", [A, WHOLE], { [A]: "tkt_9f3a71c4-2", [WHOLE]: WHOLE }],
  ])("shown for two ids by two processes are refused (%s); the longer forms work from any process", async (_, order, forms) => {
    const prefix = freshPrefix();
    const [first, second] = [toolProcess(redis.url, prefix), toolProcess(redis.url, prefix)];
    try {
      expect(await first.list([order[0]!])).toEqual([WHOLE]);
      expect(await second.list([order[1]!])).toEqual([WHOLE]);
      const tickets = [...order];
      const choices = order.filter((id) => id !== WHOLE).map((id) => JSON.stringify(forms[id]));
      expect(await second.call("get_ticket", { ticket_id: WHOLE }, tickets)).toEqual({
        outcome: {
          error: order.includes(WHOLE)
            ? `get_ticket: ticket_id "${WHOLE}" is ambiguous: it is one record's whole id, and was shown as the short form of another's; pass it again for the record whose whole id it is, or the longer id of the one you mean: ${choices.join(" or ")}`
            : `get_ticket: ticket_id "${WHOLE}" is ambiguous: it was shown for 2 different records; pass the longer id of the one you mean: ${choices.join(" or ")}`,
        },
        ticketIdsSent: [],
      });
      // Each form from the process that did not show its id. The whole id's goes first: a fetched
      // ticket's result shows its plain short form again, which makes that text ambiguous again.
      const showedIt = new Map([
        [order[0], first],
        [order[1], second],
      ]);
      for (const id of order.includes(WHOLE) ? [WHOLE, ...order.filter((id) => id !== WHOLE)] : order) {
        const other = showedIt.get(id) === first ? second : first;
        expect((await other.call("get_ticket", { ticket_id: forms[id] }, tickets)).ticketIdsSent).toEqual([id]);
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it("are an error for the model once the server stops: no request carries a guessed id", async () => {
    const own = await startRedis();
    const tools = toolProcess(own.url, freshPrefix());
    try {
      expect(await tools.list([A])).toEqual([WHOLE]);
      await own.stop();
      const fetched = await tools.call("get_ticket", { ticket_id: WHOLE }, [A]);
      expect(fetched.outcome.error).toMatch(
        /^get_ticket: the short ids given could not be looked up in the id book \(.+\), so no request was sent; try again later$/,
      );
      expect(fetched.ticketIdsSent).toEqual([]);
      const listed = await tools.call("search_tickets", {}, [C]);
      expect(listed.outcome.error).toMatch(
        /^search_tickets: the API answered 200, but the short ids of its result could not be stored in the id book \(.+\), so the result is not shown: its short ids could not be passed back; try again later$/,
      );
    } finally {
      await tools.stop();
    }
  });

  it("remembers a result in one transaction, keeps the most recent ids of a short form, and expires them after 24 hours by default", async () => {
    const prefix = freshPrefix();
    const book = redisIdBook(client, { prefix });
    const multi = vi.spyOn(client, "multi");
    try {
      const ids = Array.from({ length: ID_BOOK_SHARERS + 2 }, (_, i) => `${WHOLE}-${i}`);
      await book.remember(ids.map((id) => [WHOLE, id] as const));
      expect(multi).toHaveBeenCalledTimes(1);
      await book.remember([[WHOLE, ids[3]!]]);
      // The two remembered first are gone; the one remembered again moves last.
      expect(await book.recall(WHOLE)).toEqual([ids[2], ...ids.slice(4), ids[3]]);
      expect(await book.recall("tkt_00000000")).toEqual([]);
      const ttl = await client.pttl(prefix + WHOLE);
      expect(ttl).toBeGreaterThan((DEFAULT_ID_BOOK_TTL_SECONDS - 60) * 1000);
      expect(ttl).toBeLessThanOrEqual(DEFAULT_ID_BOOK_TTL_SECONDS * 1000);
      expect(await client.exists(`${DEFAULT_ID_BOOK_PREFIX}${WHOLE}`)).toBe(0);
    } finally {
      multi.mockRestore();
    }
  });

  it("runs the snippet of docs/integrations.md, which prints what the docs say", async () => {
    const docs = readFileSync(join(ROOT, "docs/integrations.md"), "utf8");
    const section = docs.slice(docs.indexOf("\n## Short ids across processes: Redis or Valkey\n"));
    const [, code, prints] = section.match(/```ts\n([\s\S]*?)```\n+[^`\n]*\n+```text\n([\s\S]*?)```/) ?? [];
    expect(code, "the section has a ts snippet followed by the text it prints").toBeDefined();
    const folder = join(ROOT, "test/.redis-snippet");
    const file = join(folder, "redis-id-book.ts");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      file,
      code!.replace('"openapi-projector/redis-id-book"', '"../../dist/redis-id-book.js"').replaceAll('"./generated/', '"../../generated/'),
    );
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
    vi.stubEnv("PROJECTOR_ID_BOOK_URL", redis.url);
    try {
      expect(typecheck([file], ["node"])).toEqual([]);
      await import(file);
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
      rmSync(folder, { recursive: true, force: true });
    }
    expect(lines.join("\n")).toBe(prints!.trimEnd());
  });
});

describe("redisIdBook", () => {
  const client = { multi: () => ({ exec: async () => [] }), lrange: async () => [] };

  const ttlError = new RangeError("redisIdBook: ttlSeconds must be a number of seconds above 0 and at most 3153600000");
  it.each([
    [
      "a client without multi and lrange",
      { get: () => "" },
      {},
      new TypeError("redisIdBook: the client must have multi(commands) and lrange(key, start, stop), as ioredis's Redis has"),
    ],
    ["a time to live of 0", client, { ttlSeconds: 0 }, ttlError],
    ["a time to live that is no number", client, { ttlSeconds: Number.NaN }, ttlError],
    ["a time to live in milliseconds past 100 years", client, { ttlSeconds: 2 ** 53 }, ttlError],
  ])("refuses %s", (_, given, options, error) => {
    expect(() => redisIdBook(given as never, options)).toThrow(error);
  });
});

describe("idBookSettingsFrom", () => {
  it("reads the URL and time to live a served tool is given, 24 hours unless told", () => {
    expect(idBookSettingsFrom({})).toBeUndefined();
    expect(idBookSettingsFrom({ PROJECTOR_ID_BOOK_URL: "" })).toBeUndefined();
    expect(idBookSettingsFrom({ PROJECTOR_ID_BOOK_URL: "redis://cache:6379" })).toEqual({ url: "redis://cache:6379", ttlSeconds: 86_400 });
    expect(idBookSettingsFrom({ PROJECTOR_ID_BOOK_URL: "rediss://:secret@cache:6380/2", PROJECTOR_ID_BOOK_TTL_SECONDS: "3600" })).toEqual({
      url: "rediss://:secret@cache:6380/2",
      ttlSeconds: 3600,
    });
  });

  it.each([
    [{ PROJECTOR_ID_BOOK_URL: "cache:6379" }, 'PROJECTOR_ID_BOOK_URL must be a redis:// or rediss:// URL, not "cache:"'],
    [{ PROJECTOR_ID_BOOK_URL: "http://:secret@cache" }, 'PROJECTOR_ID_BOOK_URL must be a redis:// or rediss:// URL, not "http:"'],
    [{ PROJECTOR_ID_BOOK_URL: "not a url, secret" }, "PROJECTOR_ID_BOOK_URL is not a URL; give one like redis://host:6379"],
    [
      { PROJECTOR_ID_BOOK_URL: "redis://cache", PROJECTOR_ID_BOOK_TTL_SECONDS: "1d" },
      "PROJECTOR_ID_BOOK_TTL_SECONDS must be a number of seconds above 0 and at most 3153600000",
    ],
    [
      { PROJECTOR_ID_BOOK_URL: "redis://cache", PROJECTOR_ID_BOOK_TTL_SECONDS: "0" },
      "PROJECTOR_ID_BOOK_TTL_SECONDS must be a number of seconds above 0 and at most 3153600000",
    ],
  ])("refuses settings it cannot use, never quoting the URL: %j", (env, message) => {
    expect(() => idBookSettingsFrom(env)).toThrow(message);
    expect(message).not.toContain("secret");
  });
});
