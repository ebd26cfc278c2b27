// Re-running init on an existing annotation: every map that gains entries gets them at its end, the
// text a person wrote stays byte for byte, and the file is parsed once for all of them (it used to be
// parsed again for every resource that gained a field, quadratic on a large annotation).
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Draft } from "../src/init/draft.js";
import { renderDraft } from "../src/init/render.js";

const keep = (reason: string) => ({ rule: "keep" as const, reason, sure: true });

const EXISTING = `# decided by a person
spec: api.yaml
output: generated/api
resolvers:
  users: { type: user, label: name } # kept
resources:
  ticket:
    fields:
      id: keep # mine
  user:
    fields:
      id: keep
tools:
  get_ticket:
    operation: getTicket
`;

describe("init on an existing annotation", () => {
  it("adds new fields inside each resource, new resources and tools after the rest, and keeps every line", () => {
    const draft: Draft = {
      resolvers: new Map([["users", { type: "user", label: "name" }]]),
      // The new resource comes first in the draft, and still lands after the fields added to `user`.
      resources: new Map([
        ["org", { fields: [["name", keep("text")]] }],
        [
          "ticket",
          {
            fields: [
              ["id", keep("an id")],
              ["subject", keep("text")],
            ],
          },
        ],
        [
          "user",
          {
            fields: [
              ["id", keep("an id")],
              ["email", keep("text")],
            ],
          },
        ],
      ]),
      tools: new Map([
        ["get_ticket", { operation: "getTicket", resource: "ticket", explicitResource: false, page: [] }],
        ["get_org", { operation: "getOrg", resource: "org", explicitResource: false, page: [] }],
      ]),
      skipped: [],
    };
    const rendered = renderDraft(draft, { spec: "api.yaml", output: "generated/api", acceptGuesses: true, existing: EXISTING });
    // `user` is the last resource: its fields and the new resource end on the same line, and its fields go first.
    expect(rendered.text).toBe(`# decided by a person
spec: api.yaml
output: generated/api
resolvers:
  users: { type: user, label: name } # kept
resources:
  ticket:
    fields:
      id: keep # mine
      subject: keep # text
  user:
    fields:
      id: keep
      email: keep # text
  org:
    fields:
      name: keep # text
tools:
  get_ticket:
    operation: getTicket
  get_org:
    operation: getOrg
`);
    expect(rendered.added).toEqual([
      ["resources", "org"],
      ["resources", "org", "fields", "name"],
      ["resources", "ticket", "fields", "subject"],
      ["resources", "user", "fields", "email"],
      ["tools", "get_org"],
    ]);
  });

  it("fills an empty section and adds a missing one", () => {
    const draft: Draft = {
      resolvers: new Map([["users", {}]]),
      resources: new Map([["ticket", { fields: [["id", keep("an id")]] }]]),
      tools: new Map(),
      skipped: [],
    };
    const existing = "spec: api.yaml\noutput: generated/api\nresources: {}\n";
    const rendered = renderDraft(draft, { spec: "api.yaml", output: "generated/api", acceptGuesses: true, existing });
    expect(rendered.text).toBe(
      "spec: api.yaml\noutput: generated/api\nresources:\n  ticket:\n    fields:\n      id: keep # an id\nresolvers:\n  users: {} # plain lookup: no `included` records carry its names\n",
    );
  });

  it("writes a new file as the general insertion would fill the empty file's sections", () => {
    const guess = (rule: "keep" | { [key: string]: unknown }, reason: string, sure: boolean) => ({ rule, reason, sure });
    const draft: Draft = {
      resolvers: new Map([
        ["users", { type: "user", label: "name" }],
        ["teams", {}],
      ]),
      resources: new Map([
        [
          "ticket",
          {
            fields: [
              ["id", guess({ argument: ["get_ticket"] }, "an id the model passes to get_ticket", true)],
              ["created_at", guess({ format: "datetime" }, "a timestamp", true)],
              ["updated_at", guess({ format: "datetime" }, "a timestamp", true)],
              ["team_id", guess({ join: "teams" }, "looks like a foreign key", false)],
              ["notes", guess("keep", "no declared type", false)],
            ],
          },
        ],
        ["user", { schema: "User", fields: [["name", keep("text")]] }],
      ]),
      tools: new Map([
        [
          "list_tickets",
          {
            operation: "listTickets",
            resource: "ticket",
            explicitResource: true,
            page: [["total", "meta.total"]],
            table: { json: 90, table: 60 },
            inputs: [{ name: "filter[status]", as: "status" }],
          },
        ],
        ["get_user", { operation: "GET /users/{id}", resource: "user", explicitResource: false, page: [] }],
      ]),
      skipped: [],
    };
    // A spec path that reads like a section, to show each section is found where it is, not by its text alone.
    for (const spec of ["api.yaml", "a\ntools: {}\nresources: {}\n"]) {
      for (const acceptGuesses of [true, false]) {
        const options = { spec, output: "generated/api", acceptGuesses };
        const empty = renderDraft({ resolvers: new Map(), resources: new Map(), tools: new Map(), skipped: [] }, options).text;
        const written = renderDraft(draft, options);
        const inserted = renderDraft(draft, { ...options, existing: empty });
        expect(written.text).toBe(inserted.text);
        expect(written.added).toEqual(inserted.added);
        expect(written.todos).toBe(acceptGuesses ? 0 : 2);
      }
    }
  });
});

describe("names YAML cannot write as they are", () => {
  // A line break, a tab, a bidi override, quotes and a colon, spaces YAML would trim at either end, and a name longer than the 1,024
  // characters YAML reads a key of before its `:`.
  const long = "x".repeat(1100);
  const names = ["line\nbreak", "tab\there", "right\u202eleft", 'quote"d: x #y', "\u00a0nbsp", "ideo\u3000", long];
  const draft = (tool: string): Draft => ({
    resolvers: new Map(),
    resources: new Map([[long, { fields: names.map((name) => [name, keep("text")]) }]]),
    tools: new Map([[tool, { operation: `get${long}`, resource: long, explicitResource: true, page: [], inputs: [{ name: "a\nb" }] }]]),
    skipped: [],
  });

  it("are written so that the file reads back as the same names, every unseen character escaped", () => {
    const { text } = renderDraft(draft(long), { spec: "api.yaml", output: "generated/api", acceptGuesses: true });
    const read = parse(text) as { resources: Record<string, { fields: object }>; tools: Record<string, object> };
    expect(Object.keys(read.resources[long]!.fields)).toEqual(names);
    expect(read.tools[long]).toEqual({ operation: `get${long}`, resource: long, inputs: { "a\nb": {} } });
    expect(text).toContain('      "line\\nbreak": keep # text\n');
    expect(text).toContain('      "right\\u202eleft": keep # text\n');
    expect(text).toContain(`      ? ${long}\n      : keep # text\n`);
    expect(text).toContain('      "\\u00a0nbsp": keep # text\n');
    expect(text).not.toMatch(/[\u202e\t\u00a0\u3000]/);
  });

  it("are added to an existing file alike", () => {
    const existing = "spec: api.yaml\noutput: generated/api\nresources:\n  ticket:\n    fields:\n      id: keep\ntools: {}\n";
    const { text } = renderDraft(draft("get_thing"), { spec: "api.yaml", output: "generated/api", acceptGuesses: true, existing });
    const read = parse(text) as { resources: Record<string, { fields: object }>; tools: Record<string, object> };
    expect(Object.keys(read.resources)).toEqual(["ticket", long]);
    expect(Object.keys(read.resources[long]!.fields)).toEqual(names);
    expect(Object.keys(read.tools)).toEqual(["get_thing"]);
  });
});
