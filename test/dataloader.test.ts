import { readFileSync } from "node:fs";
import { join } from "node:path";
import DataLoader from "dataloader";
import { describe, expect, it } from "vitest";
import {
  batchFunction,
  projectGetTicket,
  projectSearchTickets,
  resolverFromLoader,
  type ProjectionIssue,
  type Resolvers,
  type SearchTicketsResponse,
} from "../generated/support/index.js";
import { ROOT } from "./helpers/pipeline.js";

const page = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8")) as SearchTicketsResponse;
const labels = JSON.parse(readFileSync(join(ROOT, "specs/examples/labels.json"), "utf8")) as Record<
  "users" | "orgs",
  Record<string, string>
>;
const [firstUser, secondUser] = Object.keys(labels.users) as [string, string];

/** A batch function over a table, recording each batch it was asked for. */
function table(rows: Record<string, string>, errors: Record<string, Error> = {}) {
  const batches: string[][] = [];
  const load = async (ids: readonly string[]) => {
    batches.push([...ids]);
    return ids.map((id) => errors[id] ?? rows[id] ?? null);
  };
  return { load, batches };
}

describe("Resolvers backed by DataLoader (one loader per request)", () => {
  it("batches a tool call into one load per kind and serves later calls of the request from the cache", async () => {
    const users = table(labels.users);
    const orgs = table(labels.orgs);
    // What a request handler does: fresh loaders, so one request never sees another's cache.
    const resolvers: Resolvers = {
      users: resolverFromLoader(new DataLoader(users.load)),
      orgs: resolverFromLoader(new DataLoader(orgs.load)),
    };
    const result = await projectSearchTickets(page, resolvers);
    expect(result.tickets.map((t) => t.assignee)).toEqual(
      page.data.map((t) => labels.users[t.relationships?.assignee?.data?.id ?? ""] ?? null),
    );
    expect(users.batches).toHaveLength(1);
    expect(new Set(users.batches[0]).size).toBe(users.batches[0]!.length);
    expect(orgs.batches).toHaveLength(1);

    const ticket = {
      data: {
        ...page.data[0]!,
        relationships: {
          assignee: { data: { type: "user" as const, id: firstUser } },
          organization: page.data[0]!.relationships!.organization!,
        },
      },
    };
    expect((await projectGetTicket(ticket, resolvers)).assignee).toBe(labels.users[firstUser]);
    expect(users.batches).toHaveLength(1);
  });

  it("turns a loader's null into an unresolved marker and its per-id Error into a reported marker", async () => {
    const users = table({ [secondUser]: labels.users[secondUser]! }, { [firstUser]: new Error("users service timed out for this id") });
    const resolvers: Resolvers = {
      users: resolverFromLoader(new DataLoader(users.load)),
      orgs: resolverFromLoader(new DataLoader(table(labels.orgs).load)),
    };
    const issues: ProjectionIssue[] = [];
    const result = await projectSearchTickets(page, resolvers, { onIssue: (issue) => issues.push(issue) });
    const assignees = new Map(page.data.map((t, i) => [t.relationships?.assignee?.data?.id, result.tickets[i]!.assignee]));
    expect(assignees.get(secondUser)).toBe(labels.users[secondUser]);
    expect(assignees.get(firstUser)).toEqual({ unresolved: firstUser.slice(0, 12) });
    expect(issues.some((issue) => issue.kind === "unresolved" && issue.message.includes("users service timed out"))).toBe(true);
    const someoneUnknown = [...assignees.entries()].find(([id]) => id !== undefined && id !== firstUser && id !== secondUser)!;
    expect(someoneUnknown[1]).toEqual({ unresolved: expect.stringMatching(/^usr_[0-9a-f]{8}$/) });
  });

  it("fails the call, naming the resolver, when the loader's batch function failed as a whole", async () => {
    const down = new DataLoader(async (_ids: readonly string[]): Promise<(string | null)[]> => {
      throw new Error("database is down");
    });
    const resolvers: Resolvers = { users: resolverFromLoader(down), orgs: resolverFromLoader(new DataLoader(table(labels.orgs).load)) };
    await expect(projectSearchTickets(page, resolvers)).rejects.toThrow(/users.*database is down/);
  });
});

describe("a resolver as a DataLoader batch function", () => {
  it("answers every key of a batch in order from one resolver call, null where it has no label", async () => {
    const calls: string[][] = [];
    const resolver = async (ids: readonly string[]) => {
      calls.push([...ids]);
      return new Map(ids.flatMap((id) => (labels.users[id] ? [[id, labels.users[id]!] as const] : [])));
    };
    const loader = new DataLoader(batchFunction(resolver));
    const names = await Promise.all([loader.load(secondUser), loader.load(firstUser), loader.load("usr_gone"), loader.load(secondUser)]);
    expect(names).toEqual([labels.users[secondUser], labels.users[firstUser], null, labels.users[secondUser]]);
    expect(calls).toEqual([[secondUser, firstUser, "usr_gone"]]);
  });

  it("passes a resolver's per-id Error to that key only, and deduplicates keys when the loader's cache is off", async () => {
    const calls: string[][] = [];
    const resolver = (ids: readonly string[]) => {
      calls.push([...ids]);
      return new Map(ids.map((id) => [id, id === firstUser ? new Error("locked account") : "Someone"]));
    };
    const loader = new DataLoader(batchFunction(resolver), { cache: false });
    const settled = await Promise.allSettled([loader.load(firstUser), loader.load(secondUser), loader.load(secondUser)]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect((settled[0] as PromiseRejectedResult).reason).toEqual(new Error("locked account"));
    expect(calls).toEqual([[firstUser, secondUser]]);
  });

  it("rejects every key of the batch when the resolver itself fails", async () => {
    const loader = new DataLoader(batchFunction(() => Promise.reject(new Error("database is down"))));
    await expect(loader.load(firstUser)).rejects.toThrow("database is down");
  });
});
