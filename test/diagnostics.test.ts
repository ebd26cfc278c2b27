// Table-driven: each broken input, the exact diagnostic it must produce, and where.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, ROOT, tempDir } from "./helpers/pipeline.js";

const SPEC = readFileSync(join(ROOT, "specs/support-tickets.openapi.yaml"), "utf8");
const ANNOTATION = readFileSync(join(ROOT, "projector.yaml"), "utf8");

interface Case {
  name: string;
  /** [search, replace] edits to projector.yaml. */
  annotation?: [string, string][];
  spec?: [string, string][] | string;
  code: string;
  /** The diagnostic's first line, as a regular expression over `file:line:col CODE message`. */
  message: RegExp;
  /** A fragment of the edited annotation the diagnostic must point at (its line). */
  at?: string;
  help?: string;
}

const cases: Case[] = [
  {
    name: "input names no parameter",
    annotation: [["q: { as: query, description: Words to look for in the ticket's subject. }\n", "qq: { as: query }\n"]],
    code: "PRJ060",
    message: /tool search_tickets: GET \/tickets has no parameter "qq" \(did you mean "q"\?\)/,
    at: "qq: { as: query }",
    help: "its parameters: q, filter[status], page[number]",
  },
  {
    name: "required parameter dropped",
    annotation: [["operation: getTicket\n", 'operation: getTicket\n    inputs:\n      ticket_id: { drop: "never" }\n']],
    code: "PRJ061",
    message: /tool get_ticket: "ticket_id" is required by the API, so it cannot be dropped/,
    at: 'ticket_id: { drop: "never" }',
    help: "fixed",
  },
  {
    name: "input legend code not a number",
    annotation: [["page[number]: { as: page }\n", "page[number]: { legend: { one: first } }\n"]],
    code: "PRJ062",
    message: /legend code "one" is not a number, but the parameter is numeric/,
    at: "page[number]: { legend: { one: first } }",
  },
  {
    name: "input legend with a repeated word",
    annotation: [["q: { as: query, description: Words to look for in the ticket's subject. }\n", "q: { legend: { a: same, b: same } }\n"]],
    code: "PRJ062",
    message: /the legend gives two codes the word "same"/,
    at: "q: { legend: { a: same, b: same } }",
  },
  {
    name: "two arguments under one name",
    annotation: [["q: { as: query, description: Words to look for in the ticket's subject. }\n", "q: { as: page }\n"]],
    code: "PRJ063",
    message: /parameters "q" and "page\[number\]" would both be passed as "page"/,
    at: "page[number]: { as: page }",
  },
  { name: "YAML syntax error", annotation: [["tools:\n", "tools:\n  - [\n"]], code: "PRJ001", message: /PRJ001 YAML syntax/ },
  {
    name: "unknown top-level key",
    annotation: [["output:", "outptu:"]],
    code: "PRJ002",
    message: /unknown key "outptu" in the annotation file \(did you mean "output"\?\)/,
    at: "outptu:",
  },
  {
    name: "drop without a reason",
    annotation: [['internal_notes: { drop: "staff-only text, never shown to the model" }', "internal_notes: drop"]],
    code: "PRJ002",
    message: /a drop needs its reason/,
    at: "internal_notes: drop",
  },
  {
    name: "unknown format",
    annotation: [["format: datetime", "format: timestamp"]],
    code: "PRJ002",
    message: /unknown format "timestamp"/,
    at: "format: timestamp",
  },
  {
    name: "unknown operation",
    annotation: [["operation: searchTickets", "operation: searchTicket"]],
    code: "PRJ010",
    message: /no operation "searchTicket" in the spec \(did you mean "searchTickets"\?\)/,
    at: "operation: searchTicket",
  },
  {
    name: "tool returns an unannotated resource",
    annotation: [["  user:\n", "  person:\n"]],
    code: "PRJ014",
    message: /tool get_user returns `user` records, and no resource is annotated under that name/,
  },
  {
    name: "resource keyed by something other than its type",
    annotation: [["  user:\n", "  users:\n"]],
    code: "PRJ014",
    message: /tool get_user returns `user` records/,
    at: "  users:",
    help: "rename resources.users to user",
  },
  {
    name: "an OpenAPI document passed as the annotation",
    annotation: [["spec: specs/support-tickets.openapi.yaml\n", "openapi: 3.1.0\n"]],
    code: "PRJ002",
    message: /this is an OpenAPI document, not an annotation file/,
    at: "openapi: 3.1.0",
  },
  {
    name: "x-enum-varnames shorter than the enum",
    spec: [["x-enum-varnames: [new, pending, open, resolved, closed]", "x-enum-varnames: [new, pending, open]"]],
    code: "PRJ025",
    message: /ticket\.status_code: `legend: spec`, but x-enum-varnames names 3 of the enum's 5 codes/,
  },
  {
    name: "resource the spec does not have",
    annotation: [["resources:\n", "resources:\n  tickt:\n    fields: { subject: keep }\n"]],
    code: "PRJ013",
    message: /resource tickt: no tool returns it and the spec has no schema for it \(did you mean "ticket"\?\)/,
    at: "tickt:",
  },
  {
    name: "a table on a tool that returns one record",
    annotation: [["    operation: getTicket\n", "    operation: getTicket\n    text: table\n"]],
    code: "PRJ029",
    message: /tool get_ticket returns one record, so it has no rows to set out as a table/,
    at: "text: table",
  },
  {
    name: "an unknown text",
    annotation: [["    text: table ", "    text: toon "]],
    code: "PRJ002",
    message: /text must be `json` or `table`, not "toon"/,
    at: "text: toon",
  },
  {
    name: "unclassified field",
    annotation: [["      subject: keep\n", ""]],
    code: "PRJ020",
    message: /ticket\.subject is declared by the spec but not classified/,
    help: "add `subject: keep`",
  },
  {
    name: "field the spec does not declare",
    annotation: [["subject: keep", "subject: keep\n      subjet: keep"]],
    code: "PRJ021",
    message: /ticket\.subjet is not declared by the spec \(did you mean "subject"\?\)/,
    at: "subjet: keep",
  },
  {
    name: "JSON:API envelope named",
    annotation: [["subject: keep", "subject: keep\n      links: keep"]],
    code: "PRJ021",
    message: /ticket\.links is not declared/,
    at: "links: keep",
    help: "envelope",
  },
  {
    name: "id kept without a role",
    annotation: [["id: { argument: [get_ticket, add_comment, assign_ticket], shorten: true }", "id: keep"]],
    code: "PRJ022",
    message: /ticket\.id: an id is kept only as an argument to a tool or as a join key/,
    at: "id: keep",
  },
  {
    name: "relationship kept without a role",
    annotation: [["assignee: { join: users }", "assignee: keep"]],
    code: "PRJ022",
    message: /ticket\.assignee: a relationship must be joined/,
    at: "assignee: keep",
  },
  {
    name: "integer enum kept without a legend",
    annotation: [["priority: { legend: { 1: low, 2: high, 3: urgent } }", "priority: keep"]],
    code: "PRJ023",
    message: /ticket\.priority: integer enum \[1,2,3\] is kept without a legend/,
    at: "priority: keep",
    help: "{ legend: { 1: WORD, 2: WORD, 3: WORD } }",
  },
  {
    name: "integer enum whose spec names its codes",
    annotation: [["status_code: { as: status, legend: spec }", "status_code: keep"]],
    code: "PRJ023",
    message: /status_code: integer enum/,
    help: "`status_code: { legend: spec }`",
  },
  {
    name: "inline legend missing a code",
    annotation: [["{ 1: low, 2: high, 3: urgent }", "{ 1: low, 2: high }"]],
    code: "PRJ024",
    message: /ticket\.priority: the legend has no word for 3, which the spec's enum lists/,
    at: "{ 1: low, 2: high }",
  },
  {
    name: "legend: spec where the spec has none",
    annotation: [["priority: { legend: { 1: low, 2: high, 3: urgent } }", "priority: { legend: spec }"]],
    code: "PRJ025",
    message: /ticket\.priority: `legend: spec`, but the spec gives no words/,
    at: "priority: { legend: spec }",
  },
  {
    name: "join to an undeclared resolver",
    annotation: [["assignee: { join: users }", "assignee: { join: agents }"]],
    code: "PRJ026",
    message: /resolver "agents" is not declared/,
    at: "assignee: { join: agents }",
  },
  {
    name: "two fields, one output name",
    annotation: [["updated_at: { as: last_update", "updated_at: { as: opened"]],
    code: "PRJ027",
    message: /ticket: created_at and updated_at are both written as "opened"/,
  },
  {
    name: "output name __proto__",
    annotation: [["subject: keep", "subject: { as: __proto__ }"]],
    code: "PRJ028",
    message: /output name "__proto__" is not allowed/,
  },
  {
    name: "format on a relationship",
    annotation: [["assignee: { join: users }", "assignee: { join: users, format: date }"]],
    code: "PRJ029",
    message: /`format` does not apply to a relationship/,
  },
  {
    name: "shorten without argument",
    annotation: [["subject: keep", "subject: { shorten: true }"]],
    code: "PRJ029",
    message: /`shorten` applies to argument ids only/,
  },
  {
    name: "page path the response lacks",
    annotation: [["total: meta.page.total", "total: meta.page.totl"]],
    code: "PRJ031",
    message: /tool search_tickets: the response has no meta\.page\.totl \(did you mean "total"\?\)/,
    at: "total: meta.page.totl",
  },
  {
    name: "a todo left in",
    annotation: [["subject: keep", 'subject: { todo: "free text: keep?" }']],
    code: "PRJ032",
    message: /ticket\.subject is still a guess: free text: keep\?/,
    at: "subject: { todo",
  },
  {
    name: "a $ref to nothing",
    spec: [['items: { $ref: "#/components/schemas/Ticket" }', 'items: { $ref: "#/components/schemas/Tickt" }']],
    code: "PRJ003",
    message:
      /^specs\/support-tickets\.openapi\.yaml:\d+:\d+ PRJ003 cannot load the spec: Missing \$ref pointer "#\/components\/schemas\/Tickt"/m,
    help: "points at nothing",
  },
  {
    name: "missing spec file",
    annotation: [["spec: specs/support-tickets.openapi.yaml", "spec: specs/nope.yaml"]],
    code: "PRJ003",
    message: /^specs\/nope\.yaml PRJ003 cannot read the spec: no such file/m,
  },
  {
    name: "spec YAML syntax error",
    spec: [["  title: Support desk\n", "  title: [Support desk\n"]],
    code: "PRJ003",
    message: /^specs\/support-tickets\.openapi\.yaml:\d+:\d+ PRJ003 spec syntax/m,
  },
  {
    name: "Swagger 2.0",
    spec: 'swagger: "2.0"\ninfo: { title: x, version: "1" }\npaths: {}\n',
    code: "PRJ004",
    message: /^specs\/support-tickets\.openapi\.yaml:1:1 PRJ004 Swagger 2\.0 is not supported/m,
    help: "swagger2openapi",
  },
  { name: "empty spec", spec: "", code: "PRJ004", message: /PRJ004 the spec is empty or not an object/ },
  {
    name: "remote $ref refused",
    spec: [["        subject: { type: string }", '        subject: { $ref: "https://example.com/schemas/subject.json" }']],
    code: "PRJ005",
    message: /^specs\/support-tickets\.openapi\.yaml:\d+:\d+ PRJ005 remote \$ref https:\/\/example\.com\/schemas\/subject\.json refused/m,
    help: "--allow-remote-refs",
  },
];

function setUp(c: Case): string {
  const dir = tempDir();
  mkdirSync(join(dir, "specs"));
  let annotation = ANNOTATION;
  for (const [search, replace] of c.annotation ?? []) {
    expect(annotation, `case "${c.name}" edits text that is not in projector.yaml`).toContain(search);
    annotation = annotation.replace(search, replace);
  }
  let spec = typeof c.spec === "string" ? c.spec : SPEC;
  for (const [search, replace] of typeof c.spec === "string" ? [] : (c.spec ?? [])) {
    expect(spec).toContain(search);
    spec = spec.replace(search, replace);
  }
  writeFileSync(join(dir, "projector.yaml"), annotation);
  writeFileSync(join(dir, "specs/support-tickets.openapi.yaml"), spec);
  return dir;
}

describe("diagnostics", () => {
  it.each(cases)("$name: $code", async (c) => {
    const dir = setUp(c);
    const result = await cli(["generate"], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(c.message);
    expect(result.stderr).not.toMatch(/\n\s+at .*\(/);
    const line = result.stderr.split("\n").find((l) => c.message.test(l))!;
    expect(line).toMatch(new RegExp(`^\\S+(:\\d+:\\d+)? (\\(#[^)]*\\) )?${c.code} `));
    if (c.at !== undefined) {
      const annotation = readFileSync(join(dir, "projector.yaml"), "utf8").split("\n");
      const exact = annotation.findIndex((l) => l.trim() === c.at!.trim());
      const expectedLine = (exact >= 0 ? exact : annotation.findIndex((l) => l.includes(c.at!))) + 1;
      expect(line.startsWith(`projector.yaml:${expectedLine}:`), `${line} should point at line ${expectedLine}`).toBe(true);
    }
    if (c.help !== undefined) expect(result.stderr).toContain(c.help);
    expect(result.stderr).toContain("help: ");
  });
});
