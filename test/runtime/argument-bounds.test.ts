// The model's arguments are checked within bounds: no pattern, size or timeout lets one call block
// the process, hold its memory or fail every later call; members the schema does not name are checked too.
import { describe, expect, it } from "vitest";
import { createTools } from "../../generated/support/index.js";
import { argumentProblem, MAX_ARGUMENT_CHARACTERS, overlaid } from "../../templates/runtime/arguments.js";
import { callTool, type ToolCall } from "../../templates/runtime/call-tool.js";
import { patternMatches } from "../../templates/runtime/patterns.js";
import { resolveLabels } from "../../templates/runtime/resolvers.js";
import { MAX_TIMEOUT_MS } from "../../templates/runtime/timeouts.js";

/** A client that records each request and answers `{ ok: 1 }`, after `delay` when one is given. */
function client(delay?: Promise<unknown>) {
  const sent: unknown[] = [];
  const send = async (_path: string, init: unknown) => {
    sent.push(init);
    await delay;
    return { data: { data: [], ok: 1 }, response: { status: 200, ok: true } };
  };
  return { sent, GET: send, POST: send };
}

const search: ToolCall = {
  method: "get",
  path: "/v1/search",
  parameters: [{ name: "query", in: "query", argument: "query", shortIds: false }],
};
const searchSchema = { type: "object", properties: { query: { type: "string" } }, additionalProperties: false };
const asIs = async (response: unknown) => response;

/** An email pattern from a real spec, which a backtracking engine takes exponential time over on a near miss. */
const EMAIL = "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$";

describe("members the schema does not name", () => {
  const labels = { type: "object", properties: { name: { type: "string" } }, additionalProperties: { type: "integer" } };

  it("are checked against additionalProperties when it is a schema", () => {
    expect(argumentProblem(labels, { name: "a", weight: 3 }, "labels")).toBeUndefined();
    expect(argumentProblem(labels, { name: "a", weight: "heavy" }, "labels")).toBe('labels.weight must be integer, not "heavy"');
    // A declared member is checked against its own schema, not the one for the others.
    expect(argumentProblem(labels, { name: 3 }, "labels")).toBe("labels.name must be string, not 3");
  });

  it("are refused when additionalProperties is false", () => {
    expect(argumentProblem({ ...labels, additionalProperties: false }, { weight: 3 }, "labels")).toBe(
      "labels.weight is not an argument here; accepted: name",
    );
  });
});

describe("patterns", () => {
  it("refuse a near miss of a catastrophic pattern without backtracking over it", () => {
    expect(argumentProblem({ type: "string", pattern: EMAIL }, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "email")).toBe(
      `email must match ${EMAIL}`,
    );
    expect(argumentProblem({ type: "string", pattern: EMAIL }, "ann.lee_x@example.co.uk", "email")).toBeUndefined();
  });

  it("are left to the API once a call's steps are spent, rather than refusing the value", () => {
    const polynomial = { type: "string", pattern: "^[a-z]+[a-z0-9]*$" };
    // A backtracking engine takes quadratic time here; the linear test runs out of steps and lets the API judge.
    expect(argumentProblem(polynomial, `${"a".repeat(MAX_ARGUMENT_CHARACTERS - 10)}!`, "name")).toBeUndefined();
    expect(argumentProblem(polynomial, `${"a".repeat(50)}!`, "name")).toBe("name must match ^[a-z]+[a-z0-9]*$");
  });

  it.each([
    "^[a-z0-9-]+$",
    "^\\d{4}-\\d{2}-\\d{2}$",
    "ab|^cd$",
    "^(ab|a)*c$",
    "\\bfoo\\b",
    "\\Bo",
    "",
    "^x?y{2,3}z{1,}$",
    "^(?:[A-Z][a-z]+)(?: [A-Z][a-z]+)*$",
    "^\\p{Lu}\\p{Ll}*$",
    "^.$",
    "^\\uD83D\\uDE00$",
    "^[^a\\]]$",
    "^(?<year>\\d{4})$",
    "^(a|)+$",
  ])("agree with RegExp on %s", (pattern) => {
    const native = new RegExp(pattern, "u");
    const alphabet = ["a", "b", "c", "d", "o", "f", "x", "y", "z", "A", "Z", "1", "2", "-", "]", " ", "\n", "😀", "É"];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const samples = ["2024-01-02", "foo bar", "John Smith", "Éa", "😀", "aaab", "abc", "cd"];
    for (let i = 0; i < 2000; i++) samples.push(Array.from({ length: next(10) }, () => alphabet[next(alphabet.length)]).join(""));
    for (const sample of samples)
      expect(patternMatches(pattern, sample, { left: Infinity }), JSON.stringify(sample)).toBe(native.test(sample));
  });

  it("compile within bounds however large a count they repeat", () => {
    const empty = { type: "string", pattern: "^(?:(?:){1000000000}){1000000000}b$" };
    expect(argumentProblem(empty, "c", "q")).toBe(`q must match ${empty.pattern}`);
    // Too many states to follow: the API judges it.
    expect(argumentProblem({ type: "string", pattern: "^a{0,1000000000}b$" }, "c", "q")).toBeUndefined();
  });

  it("with a backreference or lookaround are left to the API", () => {
    expect(argumentProblem({ type: "string", pattern: "^(a)\\1$" }, "ab", "q")).toBeUndefined();
    expect(argumentProblem({ type: "string", pattern: "^(?=.*\\d).+$" }, "ab", "q")).toBeUndefined();
  });
});

describe("the arguments' size", () => {
  it("is bounded before anything else is done with them", async () => {
    const api = client();
    const outcome = await callTool(api, "search", search, searchSchema, { query: "a".repeat(20_000_000) }, asIs);
    expect(outcome).toEqual({
      error: `search: the arguments are too large: their JSON text is over ${MAX_ARGUMENT_CHARACTERS} characters; pass shorter values`,
    });
    expect(api.sent).toEqual([]);
  });

  it("counts every member, however the size is made up", async () => {
    const api = client();
    const many = { query: "q", tags: Array.from({ length: 600_000 }, () => "ab") };
    expect((await callTool(api, "search", search, searchSchema, many, asIs)) as object).toHaveProperty(
      "error",
      expect.stringContaining("too large"),
    );
    const cyclic: Record<string, unknown> = { query: "q" };
    cyclic["self"] = cyclic;
    expect((await callTool(api, "search", search, searchSchema, cyclic, asIs)) as object).toHaveProperty(
      "error",
      expect.stringContaining("self nests lists and objects more than 64 deep"),
    );
    expect(api.sent).toEqual([]);
    expect(await callTool(api, "search", search, searchSchema, { query: "a".repeat(100_000) }, asIs)).toHaveProperty("result");
  });
});

describe("a call's timeout", () => {
  it("is no timeout at all when it is Infinity", async () => {
    const later = new Promise((settle) => setTimeout(settle, 20));
    expect(await callTool(client(later), "search", search, searchSchema, { query: "q" }, asIs, { timeoutMs: Infinity })).toEqual({
      result: { data: [], ok: 1 },
      text: expect.any(String),
    });
    const tools = createTools({
      client: client(later),
      resolvers: { users: async () => new Map(), orgs: async () => new Map() },
      timeoutMs: Infinity,
    });
    expect(await tools.search_tickets({ query: "q" })).not.toHaveProperty("error");
  });

  it.each([0, -1, NaN, 2 ** 31, -Infinity])("is refused at setup when it is %s", async (timeoutMs) => {
    const resolvers = { users: async () => new Map(), orgs: async () => new Map() };
    expect(() => createTools({ client: client(), resolvers, timeoutMs })).toThrow(RangeError);
    expect(() => createTools({ client: client(), resolvers, timeoutMs })).toThrow(
      /createTools: timeoutMs must be above 0 and at most 2147483647/,
    );
    await expect(callTool(client(), "search", search, searchSchema, { query: "q" }, asIs, { timeoutMs })).rejects.toThrow(RangeError);
    await expect(resolveLabels({ users: ["u1"] }, { users: async () => new Map() }, new Map(), { timeoutMs })).rejects.toThrow(RangeError);
  });

  it("is refused when it is not a number", () => {
    const resolvers = { users: async () => new Map(), orgs: async () => new Map() };
    expect(() => createTools({ client: client(), resolvers, timeoutMs: "100" as never })).toThrow(TypeError);
  });

  it("takes the longest wait setTimeout keeps", () => {
    const resolvers = { users: async () => new Map(), orgs: async () => new Map() };
    expect(() => createTools({ client: client(), resolvers, timeoutMs: MAX_TIMEOUT_MS })).not.toThrow();
  });
});

describe("full-id checks laid over an input schema", () => {
  it("add the spec's constraints without changing the schema the model sees", () => {
    const shown = { type: "object", properties: { key: { type: "string", description: "An id" } } } as const;
    const checked = overlaid(shown, { properties: { key: { pattern: "^tsk_" } } });
    expect(checked).toEqual({ type: "object", properties: { key: { type: "string", description: "An id", pattern: "^tsk_" } } });
    expect(shown.properties.key).toEqual({ type: "string", description: "An id" });
  });
});
