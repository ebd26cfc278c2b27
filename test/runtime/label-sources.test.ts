// Where labels come from outside (a JSON:API `included` array, a resolver from the spec asking the
// API) nothing is settled by guessing: an id two records label differently gets neither label, a
// record of another JSON:API type names nothing, and a JSON:API id is text. And the text a tool
// sends shows what it holds: marker cells read back exactly, and characters that hide or reorder
// text are escaped.
import { readFileSync } from "node:fs";
import { decode } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { includedLabels, joinOne } from "../../templates/runtime/joins.js";
import { specResolver, type SpecResolverSource } from "../../templates/runtime/spec-resolvers.js";
import { serializeToolResult, type TableLayout, withTableLayout } from "../../templates/runtime/table-text.js";
import { readMarkerCells } from "../helpers/marker-cells.js";

const USERS = [{ resolver: "users", type: "user", label: "name" }];

/** An openapi-fetch client whose every GET answers `data` with 200. */
const answering = (data: unknown) => ({
  GET: async () => ({ data, response: { ok: true, status: 200 } }),
});

const listUsers: SpecResolverSource = {
  method: "get",
  path: "/users",
  parameter: { name: "ids", in: "query" },
  concurrency: 1,
  records: ["data"],
  jsonapi: false,
  id: "id",
  label: ["name"],
};

const listJsonApiUsers: SpecResolverSource = {
  ...listUsers,
  jsonapi: true,
  type: "user",
  label: ["name"],
};

const user = (id: unknown, name: string, type = "user") => ({ type, id, attributes: { name } });

describe("labels in a JSON:API included array", () => {
  it("gives an id two records label differently neither label, leaving it to the resolver", () => {
    const found = includedLabels({ included: [user("u1", "Ana"), user("u2", "Bo"), user("u1", "Mallory")] }, USERS);
    expect(found.get("users")).toEqual(new Map([["u2", "Bo"]]));
    const threeTimes = includedLabels({ included: [user("u1", "Ana"), user("u1", "Mallory"), user("u1", "Ana")] }, USERS);
    expect(threeTimes.get("users")!.has("u1")).toBe(false);
  });

  it("keeps an id two records label the same", () => {
    const found = includedLabels({ included: [user("u1", "Ana"), user("u1", "Ana")] }, USERS);
    expect(found.get("users")).toEqual(new Map([["u1", "Ana"]]));
  });

  it("reads no label for a record whose id is a number: JSON:API ids are text", () => {
    const found = includedLabels({ included: [user(5, "Numbered"), user("6", "Texted")] }, USERS);
    expect(found.get("users")).toEqual(new Map([["6", "Texted"]]));
  });
});

describe("labels a resolver from the spec reads from the API's answer", () => {
  it("gives an id two records label differently an Error, so it is unresolved with an issue", async () => {
    const resolve = specResolver(
      answering({
        data: [
          { id: "u1", name: "Ana" },
          { id: "u1", name: "Mallory" },
        ],
      }),
      listUsers,
    );
    const labels = await resolve(["u1"]);
    expect(labels.get("u1")).toBeInstanceOf(Error);
    const issues: ProjectionIssue[] = [];
    const ctx = context("ticket", { onIssue: (issue) => issues.push(issue) });
    expect(joinOne("u1", { labels, resolver: "users", key: "assignee", field: "assignee", ctx })).toEqual({ unresolved: "u1" });
    expect(issues).toEqual([expect.objectContaining({ kind: "unresolved", field: "assignee" })]);
    expect(issues[0]!.message).toContain("two different labels");
    expect(issues[0]!.message).not.toContain("Mallory");
  });

  it("keeps an id two records label the same, and an id of a number where the records are not JSON:API", async () => {
    const resolve = specResolver(
      answering({
        data: [
          { id: "u1", name: "Ana" },
          { id: "u1", name: "Ana" },
          { id: 5, name: "Numbered" },
        ],
      }),
      listUsers,
    );
    expect(await resolve(["u1", "5"])).toEqual(
      new Map([
        ["u1", "Ana"],
        ["5", "Numbered"],
      ]),
    );
  });

  it("skips JSON:API records of another type than the resolver's", async () => {
    const resolve = specResolver(answering({ data: [user("u9", "Northwind", "org"), user("u1", "Ana")] }), listJsonApiUsers);
    expect(await resolve(["u9", "u1"])).toEqual(new Map([["u1", "Ana"]]));
  });

  it("reads no label for a JSON:API record whose id is a number, and says why", async () => {
    const resolve = specResolver(answering({ data: [user(5, "Numbered"), user("6", "Texted")] }), listJsonApiUsers);
    const labels = await resolve(["5", "6"]);
    expect(labels.get("6")).toBe("Texted");
    expect(String(labels.get("5"))).toMatch(/another type than the spec declares \(text\); its label is not used/);
  });

  it("is generated knowing its JSON:API type", () => {
    const generated = readFileSync(new URL("../../generated/support/spec-resolvers.ts", import.meta.url), "utf8");
    expect(generated).toMatch(/jsonapi: true,\s+type: "user",/);
  });
});

const LAYOUT: TableLayout = { list: "tickets", columns: ["id", "assignee"], page: [] };
const tableOf = (assignees: unknown[]) => ({
  tickets: assignees.map((assignee, i) => ({ id: `t${i}`, assignee })),
});

describe("a marker cell whose value is shaped like a marker cell", () => {
  it.each([["{unresolved: x}"], ["{unknown_code: 9}"], ["{unusable: a}b}"], ["{{unresolved: x}}"]])(
    "reads back as the marker holding %j by the documented reading",
    (inner) => {
      const result = tableOf(["Ana", { unresolved: inner }, { unusable: inner }]);
      const text = serializeToolResult(withTableLayout(result, LAYOUT));
      expect(text).not.toBe(JSON.stringify(result));
      expect(readMarkerCells(decode(text))).toStrictEqual(result);
    },
  );
});

const UNSEEN = ["\u0085", "\u0080", "\u009f", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069"];

describe("characters that hide or reorder text", () => {
  it.each(UNSEEN.map((c) => [c.charCodeAt(0).toString(16).padStart(4, "0"), c]))(
    "U+%s is written as an escape in JSON text, which reads back the same",
    (code, c) => {
      const result = { subject: `pay ${c}gnp.exe`, [`k${c}`]: [c] };
      const text = serializeToolResult(result);
      expect(text).not.toContain(c);
      expect(text).toContain(`\\u${code}`);
      expect(JSON.parse(text)).toStrictEqual(result);
    },
  );

  it.each(["\u202a", "\u202e", "\u2066", "\u2069"])("%j is written as an escape in table text, which reads back the same", (c) => {
    const result = tableOf([`Ana ${c}x`, "Bo"]);
    const text = serializeToolResult(withTableLayout(result, LAYOUT));
    expect(text).not.toBe(JSON.stringify(result));
    expect(text).not.toContain(c);
    expect(readMarkerCells(decode(text))).toStrictEqual(result);
  });
});
