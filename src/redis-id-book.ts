// A shared id book on Redis or Valkey for the generated `createTools({ idBook })`: the short ids one
// process hands out are taken by every other, across restarts and replicas. The client is the
// caller's own (ioredis, or iovalkey for Valkey): this module needs two of its methods, so neither
// it nor the generated folder depends on a Redis client.

/** How long a short id is remembered after the last result that gave it, unless told otherwise: 24 hours. */
export const DEFAULT_ID_BOOK_TTL_SECONDS = 24 * 60 * 60;

/** What every key starts with unless told otherwise. */
export const DEFAULT_ID_BOOK_PREFIX = "projector:id-book:";

/** How many different ids one short form keeps, the most recently remembered: as many as the runtime reads. */
export const ID_BOOK_SHARERS = 8;

/** The environment variable a served tool reads the book's URL from (`redis://` or `rediss://`); unset, short ids stay in the process. */
export const ID_BOOK_URL_VARIABLE = "PROJECTOR_ID_BOOK_URL";

/** The environment variable a served tool reads the book's time to live from, in seconds. */
export const ID_BOOK_TTL_VARIABLE = "PROJECTOR_ID_BOOK_TTL_SECONDS";

/** What the book needs of a client: ioredis's `Redis` and iovalkey's have both methods as they are. */
export interface RedisIdBookClient {
  /** Runs the commands as one transaction (MULTI ... EXEC), in one round trip. */
  multi(commands: (string | number)[][]): { exec(): Promise<[error: Error | null, result: unknown][] | null> };
  lrange(key: string, start: number, stop: number): Promise<string[]>;
}

export interface RedisIdBookOptions {
  /** How long a short id is remembered after the last result that gave it, in seconds: {@link DEFAULT_ID_BOOK_TTL_SECONDS} unless given. */
  readonly ttlSeconds?: number;
  /** What every key starts with, {@link DEFAULT_ID_BOOK_PREFIX} unless given: one per API when several share a server. */
  readonly prefix?: string;
}

/** The id book `createTools({ idBook })` takes, as the generated runtime's `IdBook` declares it. */
export interface RedisIdBook {
  remember(entries: ReadonlyArray<readonly [short: string, full: string]>): Promise<void>;
  recall(short: string): Promise<readonly string[]>;
}

/**
 * An id book on Redis or Valkey. Each short form, as the runtime gives it (qualified by its kind:
 * `"ticket.id"tkt_9f3a71c4`), is a list of the full ids it was given, each once, the most recently
 * remembered last, at most {@link ID_BOOK_SHARERS}: two ids behind one form, from any processes,
 * make the form ambiguous. A result's entries are remembered in one transaction, one
 * round trip; each list expires `ttlSeconds` after the last result that gave its form. A recall is
 * one round trip. A failure rejects, and the tool answers the model with an error.
 */
export function redisIdBook(client: RedisIdBookClient, options: RedisIdBookOptions = {}): RedisIdBook {
  if (typeof client?.multi !== "function" || typeof client.lrange !== "function")
    throw new TypeError("redisIdBook: the client must have multi(commands) and lrange(key, start, stop), as ioredis's Redis has");
  const ttlMs = Math.ceil(checkedTtlSeconds(options.ttlSeconds ?? DEFAULT_ID_BOOK_TTL_SECONDS, "redisIdBook: ttlSeconds") * 1000);
  const prefix = options.prefix ?? DEFAULT_ID_BOOK_PREFIX;
  if (typeof prefix !== "string") throw new TypeError("redisIdBook: prefix must be a string");
  return {
    async remember(entries) {
      if (entries.length === 0) return;
      const commands: (string | number)[][] = [];
      for (const [short, full] of entries) {
        const key = prefix + short;
        // Taken out and put back last: the list stays in the order of last remembering, each id once.
        commands.push(["lrem", key, 0, full], ["rpush", key, full], ["ltrim", key, -ID_BOOK_SHARERS, -1], ["pexpire", key, ttlMs]);
      }
      const replies = await client.multi(commands).exec();
      if (replies === null) throw new Error("the transaction was aborted");
      for (const [error] of replies) if (error) throw error;
    },
    recall: (short) => client.lrange(prefix + short, 0, -1),
  };
}

/** The store a served tool is told to use by its environment; undefined when no URL is set. */
export interface IdBookSettings {
  readonly url: string;
  readonly ttlSeconds: number;
}

/**
 * The book's URL and time to live from {@link ID_BOOK_URL_VARIABLE} and {@link ID_BOOK_TTL_VARIABLE};
 * undefined when no URL is set. A URL that is not `redis://` or `rediss://`, or a time to live that is
 * not a number of seconds above 0, throws: a served tool stops at its start rather than at a call.
 * The URL itself, which may hold a password, is never quoted.
 */
export function idBookSettingsFrom(env: Readonly<Record<string, string | undefined>>): IdBookSettings | undefined {
  const url = env[ID_BOOK_URL_VARIABLE];
  if (url === undefined || url === "") return undefined;
  if (!URL.canParse(url)) throw new TypeError(`${ID_BOOK_URL_VARIABLE} is not a URL; give one like redis://host:6379`);
  const { protocol } = new URL(url);
  if (protocol !== "redis:" && protocol !== "rediss:")
    throw new TypeError(`${ID_BOOK_URL_VARIABLE} must be a redis:// or rediss:// URL, not ${JSON.stringify(protocol.slice(0, 20))}`);
  const ttl = env[ID_BOOK_TTL_VARIABLE];
  return {
    url,
    ttlSeconds:
      ttl === undefined || ttl === ""
        ? DEFAULT_ID_BOOK_TTL_SECONDS
        : checkedTtlSeconds(/^\d+(?:\.\d+)?$/.test(ttl) ? Number(ttl) : Number.NaN, ID_BOOK_TTL_VARIABLE),
  };
}

/** The longest time to live taken, 100 years: Redis refuses an expiry past its clock's range, which would fail every result. */
const LONGEST_TTL_SECONDS = 100 * 365 * 24 * 60 * 60;

function checkedTtlSeconds(seconds: unknown, who: string): number {
  if (typeof seconds !== "number" || !(seconds > 0 && seconds <= LONGEST_TTL_SECONDS))
    throw new RangeError(`${who} must be a number of seconds above 0 and at most ${LONGEST_TTL_SECONDS}`);
  return seconds;
}
