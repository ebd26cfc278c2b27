// The article's numbers, counted with real tokenizers, and the commands that report them.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { projectSearchTickets, serializeToolResult, toolDefinitions, type SearchTicketsResponse } from "../generated/support/index.js";
import { classifyJson, PARTS } from "../src/evidence/parts.js";
import { buildReport, partRules } from "../src/evidence/report.js";
import { countParts, countText, encodeInRuns, LONGEST_RUN, TOKENIZERS, type TokenizerName } from "../src/evidence/tokens.js";
import type { ToolModel } from "../src/model/types.js";
import { cli, generateFrom, importGenerated, ROOT, tempDir } from "./helpers/pipeline.js";

const ARTICLE_ELEMENT = {
  type: "ticket",
  id: "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90",
  attributes: {
    subject: "Card declined at checkout",
    status_code: 3,
    priority: 2,
    created_at: "2026-02-11T09:14:22.481Z",
    updated_at: "2026-02-14T16:02:07.113Z",
  },
  relationships: {
    assignee: { data: { type: "user", id: "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af" } },
    organization: { data: { type: "organization", id: "org_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802" } },
  },
  links: { self: "https://api.example.com/v1/tickets/tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90" },
};

/** Twelve of the article's tickets (four sharing an assignee), with the page's links and meta. */
function articlePage() {
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  const assignees = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
  return {
    data: assignees.map((a, i) => ({
      ...ARTICLE_ELEMENT,
      id: `tkt_${hex(0x9f3a71c4 + i)}-2d18-4b6e-9c05-8ab3f2e17d90`,
      relationships: {
        assignee: { data: { type: "user", id: `usr_${hex(0x41c2be09 + a)}-77aa-4f31-8d2c-1e5b6c9042af` } },
        organization: ARTICLE_ELEMENT.relationships.organization,
      },
      links: { self: `https://api.example.com/v1/tickets/tkt_${hex(0x9f3a71c4 + i)}-2d18-4b6e-9c05-8ab3f2e17d90` },
    })),
    links: {
      first: "https://api.example.com/v1/tickets?page[number]=1",
      next: null,
      last: "https://api.example.com/v1/tickets?page[number]=1",
    },
    meta: { page: { number: 1, size: 25, total: 12 } },
  };
}

const labels = async (ids: readonly string[]) => new Map(ids.map((id) => [id, id.startsWith("org_") ? "Northwind Foods" : "Priya Raman"]));

let tool: ToolModel;
beforeAll(async () => {
  tool = (await generateFrom(join(ROOT, "projector.yaml"))).model!.tools.find((t) => t.name === "search_tickets")!;
});

describe.each(Object.keys(TOKENIZERS) as TokenizerName[])("counted with %s", (tokenizer) => {
  it.each([
    ["the article's element", ARTICLE_ELEMENT],
    ["a 12-ticket page", articlePage()],
    ["the bundled 12-ticket page", JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8"))],
  ])("the breakdown of %s adds up to its token count exactly", (_, payload) => {
    const classified = classifyJson(payload, partRules(tool));
    expect(classified.text).toBe(JSON.stringify(payload));
    const parts = countParts(classified, tokenizer);
    expect(PARTS.reduce((sum, p) => sum + parts[p], 0)).toBe(countText(classified.text, tokenizer).tokens);
    expect(parts.links).toBeGreaterThan(0);
    expect(parts.ids).toBeGreaterThan(0);
  });

  it("projects to at most 30% of the raw tokens, and bytes/4 undercounts the raw payload", async () => {
    const page = articlePage();
    const result = await projectSearchTickets(page as unknown as SearchTicketsResponse, { users: labels, orgs: labels });
    const report = buildReport({
      tool,
      tokenizer,
      raw: page,
      rawRecords: page.data,
      projectedText: serializeToolResult(result),
      projectedRecordTexts: result.tickets.map((t) => serializeToolResult(t)),
      jsonText: JSON.stringify(result),
      tableText: serializeToolResult(result),
      followUpsByResolver: { users: 9, orgs: 1 },
      toolDefinitions,
    });
    // search_tickets is annotated `text: table`: the text it sends is the table, and it is the smaller.
    expect(report.texts.sent).toBe("table");
    expect(report.projected.tokens).toBe(report.texts.table!.tokens);
    expect(report.texts.table!.tokens).toBeLessThan(report.texts.json.tokens);
    expect(report.projected.perRecord!.tokens / report.raw.perRecord!.tokens).toBeLessThanOrEqual(0.3);
    expect(report.projected.tokens / report.raw.tokens).toBeLessThanOrEqual(0.3);
    expect(report.raw.bytesOver4).toBeLessThan(report.raw.tokens);
    expect(report.raw.bytesOver4Error).toBeLessThan(0);
    expect(report.raw.perRecord!.bytesOver4Error).toBeLessThan(0);
    console.log(
      [
        `article figures beside ours (${tokenizer}):`,
        `  per record: article 218 -> 41; measured ${report.raw.perRecord!.tokens} -> ${report.projected.perRecord!.tokens}`,
        `  per page:   article 3,180 -> about 520; measured ${report.raw.tokens} -> ${report.texts.json.tokens} as JSON, ${report.texts.table!.tokens} as a table`,
        `  bytes/4 on the raw page: ${report.raw.bytesOver4} (${report.raw.bytesOver4Error}%)`,
      ].join("\n"),
    );
  });
});

describe("a text with a run longer than the tokenizer reads whole", () => {
  const { decode } = TOKENIZERS.o200k_base();
  it("is encoded in slices no longer than the longest run, which decode back to the text", () => {
    // A name of 2,500 letters, one of astral letters (each two UTF-16 units), and a long line of punctuation.
    const text = `{"name":"${"x".repeat(2_499)}😀","math":"a${"𝐀".repeat(1_100)}","rule":"${"=".repeat(1_200)}","note":"short words stay whole"}`;
    const pieces: string[] = [];
    const tokens = encodeInRuns((piece) => {
      pieces.push(piece);
      return encode(piece);
    }, text);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(LONGEST_RUN);
    expect(pieces.join("")).toBe(text);
    expect(decode(tokens)).toBe(text);
    expect(pieces.every((piece) => !/[\uD800-\uDBFF]$/.test(piece))).toBe(true);
  });

  it("is encoded whole where no run is that long, as the model's tokenizer reads it", () => {
    const text = JSON.stringify(ARTICLE_ELEMENT);
    expect(encodeInRuns(encode, text)).toEqual(encode(text));
    expect(countText("x".repeat(LONGEST_RUN * 3), "o200k_base").tokens).toBe(3 * encode("x".repeat(LONGEST_RUN)).length);
  });
});

describe("classifying JSON text", () => {
  it.each([
    ["escapes and unicode", { 'quote"': "line\nbreak \u2028 é 日本", n: -1.5e-7, t: true, z: null }],
    ["nested arrays", [[1, [2, []]], {}, [{ a: [] }]]],
    ["a plain string", "https://example.com/x"],
  ])("reproduces JSON.stringify exactly for %s", (_, value) => {
    expect(classifyJson(value, { idFields: new Set(), enumFields: new Set() }).text).toBe(JSON.stringify(value));
  });

  it("files each part where the article does", () => {
    const { text, parts } = classifyJson(ARTICLE_ELEMENT, partRules(tool));
    const partOf = (fragment: string) => parts[text.indexOf(fragment)];
    expect(partOf('"Card declined')).toBe("facts");
    expect(partOf('"usr_41c2')).toBe("ids");
    expect(partOf('"links"')).toBe("links");
    expect(partOf('"https://')).toBe("links");
    expect(partOf(":3,")).toBe("structure");
    expect(parts[text.indexOf(":3,") + 1]).toBe("enums");
    expect(partOf('"subject"')).toBe("structure");
    expect(parts[text.indexOf('"ticket"')]).toBe("structure");
  });
});

describe("projector tokens", () => {
  it("prints the documented JSON shape for the bundled page", async () => {
    const result = await cli(
      [
        "tokens",
        "--tool",
        "search_tickets",
        "specs/examples/search-tickets-page.json",
        "--json",
        "--labels",
        "specs/examples/labels.json",
        "--lookup-sample",
        "specs/examples/get-user.json",
      ],
      ROOT,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      tokenizer: "o200k_base",
      raw: {
        records: 12,
        parts: {
          structure: expect.any(Number),
          links: expect.any(Number),
          ids: expect.any(Number),
          enums: expect.any(Number),
          facts: expect.any(Number),
        },
      },
      projected: { records: 12 },
      followUpsAvoided: 12,
      followUpsByResolver: { users: 9, orgs: 3 },
    });
    const raw = readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8");
    expect(report.raw.tokens).toBe(encode(JSON.stringify(JSON.parse(raw))).length);
    expect(report.lookup.tokens).toBe(12 * report.lookup.sampleTokens);
    for (const key of ["tokens", "bytes", "bytesOver4"]) expect(typeof report.projected[key]).toBe("number");
  });

  it("counts what the generated toolDefinitions carry: description and inputSchema per tool, and the whole list", async () => {
    const result = await cli(["tokens", "--tool", "search_tickets", "specs/examples/search-tickets-page.json", "--json"], ROOT);
    expect(result.code).toBe(0);
    const counted = JSON.parse(result.stdout).toolDefinitions;
    const carried = toolDefinitions.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    expect(counted).toEqual({
      tools: carried.map((d) => ({
        name: d.name,
        description: encode(d.description).length,
        inputSchema: encode(JSON.stringify(d.inputSchema)).length,
        tokens: encode(JSON.stringify(d)).length,
      })),
      tokens: encode(JSON.stringify(carried)).length,
    });
    expect(counted.tools.map((t: { name: string }) => t.name)).toEqual(["add_comment", "get_ticket", "get_user", "search_tickets"]);
  });

  it("prints the definitions' costs under the result's, marking the tool asked about", async () => {
    const result = await cli(["tokens", "--tool", "get_ticket"], ROOT);
    expect(result.code).toBe(0);
    const counted = encode(
      JSON.stringify(toolDefinitions.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))),
    ).length;
    expect(result.stdout).toContain(
      `tool definitions, carried by every request to the model: ${counted} tokens for all 4 (name, description, inputSchema as JSON)`,
    );
    expect(result.stdout).toMatch(/^ {2}tool\s+description\s+inputSchema\s+definition$/m);
    expect(result.stdout).toMatch(/^\* get_ticket\s+\d+\s+\d+\s+\d+$/m);
    expect(result.stdout).toMatch(/^ {2}search_tickets\s+\d+\s+\d+\s+\d+$/m);
  });

  it("uses the spec's own example when no payload is given, and prints an aligned table", async () => {
    const result = await cli(["tokens", "--tool", "get_ticket", "--tokenizer", "cl100k_base"], ROOT);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("get_ticket: raw response against projected result, counted with cl100k_base");
    expect(result.stdout).toMatch(/per record\s+tokens\s+\d+\s+\d+\s+\d+% fewer/);
    expect(result.stdout).toMatch(/bytes\/4 guess\s+\d+ \(-\d+(\.\d)?%\)/);
  });

  it("exits 2 for an unknown tool or tokenizer, and 1 for an unreadable payload", async () => {
    expect((await cli(["tokens", "--tool", "search_ticket"], ROOT)).stderr).toContain('did you mean "search_tickets"');
    expect((await cli(["tokens", "--tool", "search_ticket"], ROOT)).code).toBe(2);
    expect((await cli(["tokens", "--tool", "search_tickets", "--tokenizer", "p50k"], ROOT)).code).toBe(2);
    const missing = await cli(["tokens", "--tool", "search_tickets", "nope.json"], ROOT);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.json PRJ040 payload: no such file");
  });

  it("refuses a payload nested deeper than any API answers, saying where, rather than overflowing", async () => {
    const deep = join(tempDir(), "deep.json");
    writeFileSync(deep, `{"data":[{"id":"t1","attributes":{"subject":${"[".repeat(100_000)}${"]".repeat(100_000)}}}]}`);
    const result = await cli(["tokens", "--tool", "search_tickets", deep], ROOT);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("PRJ040 payload: nests more than 1000 levels deep, at data.0.attributes.subject.0.0.0.0…");
    expect(result.stderr).not.toContain("internal error");
  });
});

describe("projector eval: the article's sla_due_at story", () => {
  const questions =
    "questions:\n  - ask: Which tickets are about to breach their SLA?\n    tool: search_tickets\n    needs: [sla_due_at, status_code]\n";
  function project(slaRule: string): string {
    const dir = tempDir();
    mkdirSync(join(dir, "specs"));
    cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(dir, "specs/support-tickets.openapi.yaml"));
    writeFileSync(
      join(dir, "projector.yaml"),
      readFileSync(join(ROOT, "projector.yaml"), "utf8").replace("sla_due_at: { as: sla_due, format: datetime }", `sla_due_at: ${slaRule}`),
    );
    writeFileSync(join(dir, "questions.yaml"), questions);
    return dir;
  }

  it("fails when sla_due_at is dropped, saying it was dropped and why", async () => {
    const result = await cli(["eval", "questions.yaml"], project('{ drop: "nobody asked about it in the traces we read" }'));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("NOT answerable  Which tickets are about to breach their SLA?");
    expect(result.stdout).toContain("sla_due_at: dropped by the annotation: nobody asked about it in the traces we read");
  });

  it("passes when sla_due_at is kept", async () => {
    const result = await cli(["eval", "questions.yaml"], project("{ as: sla_due, format: datetime }"));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("sla_due_at: kept as sla_due");
  });

  it("says when a needed field never existed in the spec", async () => {
    const dir = project("keep");
    writeFileSync(join(dir, "questions.yaml"), questions.replace("sla_due_at", "escalation_due_at"));
    const result = await cli(["eval", "questions.yaml", "--json"], dir);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0].needs[0]).toMatchObject({ need: "escalation_due_at", status: "missing" });
  });

  it("answers every question of the bundled example", async () => {
    const result = await cli(["eval", "specs/examples/questions.yaml"], ROOT);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("4 of 4 question(s) answerable");
  });
});

describe("token budgets", () => {
  async function budgeted(budget: string) {
    const dir = tempDir();
    mkdirSync(join(dir, "specs"));
    cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(dir, "specs/support-tickets.openapi.yaml"));
    writeFileSync(
      join(dir, "projector.yaml"),
      readFileSync(join(ROOT, "projector.yaml"), "utf8").replace(
        "    page: { total: meta.page.total, more: links.next }\n",
        `    page: { total: meta.page.total, more: links.next }\n    budget: ${budget}\n`,
      ),
    );
    const generated = await generateFrom(join(dir, "projector.yaml"));
    expect(generated.problems).toEqual([]);
    return {
      dir,
      module: await importGenerated<{
        projectSearchTickets: (r: unknown, res: unknown, o?: unknown) => Promise<Record<string, unknown>>;
        serializeToolResult(v: unknown): string;
        conservativeTokenCount(t: string): number;
      }>(generated.files),
    };
  }
  const page = JSON.parse(readFileSync(join(ROOT, "specs/examples/search-tickets-page.json"), "utf8"));

  it("cuts whole records to fit, says so, and fits under the default counter", async () => {
    const { module } = await budgeted("{ tokens: 600 }");
    const result = await module.projectSearchTickets(page, { users: labels, orgs: labels });
    const tickets = result["tickets"] as unknown[];
    expect(tickets.length).toBeGreaterThan(0);
    expect(tickets.length).toBeLessThan(12);
    expect(result["truncated"]).toEqual({ shown: tickets.length, total: 12 });
    expect(module.conservativeTokenCount(module.serializeToolResult(result))).toBeLessThanOrEqual(600);
    expect(Object.keys(tickets[0] as object)).toHaveLength(9);
  });

  it("fits under a real tokenizer passed as the counter, keeping more records than the conservative default", async () => {
    const { module } = await budgeted("{ tokens: 600 }");
    const count = (text: string) => encode(text).length;
    const real = await module.projectSearchTickets(page, { users: labels, orgs: labels }, { countTokens: count });
    const byDefault = await module.projectSearchTickets(page, { users: labels, orgs: labels });
    expect(count(module.serializeToolResult(real))).toBeLessThanOrEqual(600);
    expect((real["tickets"] as unknown[]).length).toBeGreaterThan((byDefault["tickets"] as unknown[]).length);
    expect(count(module.serializeToolResult(byDefault))).toBeLessThanOrEqual(
      module.conservativeTokenCount(module.serializeToolResult(byDefault)),
    );
  });

  it("reports truncated: false when everything fits, and honours a row budget", async () => {
    const { module } = await budgeted("{ tokens: 100000, rows: 5 }");
    const asked: string[][] = [];
    const users = async (ids: readonly string[]) => (asked.push([...ids]), labels(ids));
    const result = await module.projectSearchTickets(page, { users, orgs: labels });
    expect(result["truncated"]).toEqual({ shown: 5, total: 12 });
    expect(asked).toEqual([
      [
        ...new Set(
          page.data.slice(0, 5).map((t: { relationships: { assignee: { data: { id: string } } } }) => t.relationships.assignee.data.id),
        ),
      ],
    ]);
    const all = await (await budgeted("{ tokens: 100000 }")).module.projectSearchTickets(page, { users: labels, orgs: labels });
    expect(all["truncated"]).toBe(false);
  });

  it("measures records with their labels filled in, and reports the records' issues before the page's", async () => {
    const { module } = await budgeted("{ tokens: 100000, rows: 2 }");
    const broken = structuredClone(page);
    broken.data[0].attributes.subject = null;
    broken.meta = { page: { total: "twelve" } };
    const issues: { kind: string; field: string }[] = [];
    const none = async () => new Map<string, string>();
    const result = await module.projectSearchTickets(
      broken,
      { users: labels, orgs: none },
      { onIssue: (i: { kind: string; field: string }) => issues.push(i) },
    );
    expect(issues.map((i) => `${i.kind} ${i.field}`)).toEqual([
      "missing subject",
      "unresolved organization",
      "unresolved organization",
      "unusable total",
    ]);
    expect((result["tickets"] as { assignee: unknown }[]).map((t) => t.assignee)).toEqual(["Priya Raman", "Priya Raman"]);
  });

  it("makes generate --check fail when the spec's example does not fit", async () => {
    const { dir } = await budgeted("{ tokens: 60 }");
    expect((await cli(["generate"], dir)).code).toBe(0);
    const check = await cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(
      /^projector\.yaml:\d+:5 PRJ042 tool search_tickets: the spec's example response does not fit its budget of 60 tokens; 0 of 2 records would be shown/m,
    );
  });
});
