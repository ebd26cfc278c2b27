// The model can get more than a projection shows without raw JSON: the id beside a joined name,
// fields sent on request, and a default that drops the rest of an object with its reason.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { cli, generateFrom, importGenerated, recordingResolver, ROOT, tempDir, typecheckFiles } from "./helpers/pipeline.js";

type Outcome = { result?: any; text?: string; error?: string };
type Generated = {
  toolDefinitions: { name: string; inputSchema: { properties: Record<string, any>; required: string[] }; outputSchema: object }[];
  createTools: (options: { client: unknown; resolvers?: unknown }) => Record<string, (args: unknown) => Promise<Outcome>>;
};

/** An openapi-fetch client that records each request and answers with what `answer` gives for its path. */
function recordingClient(answer: (path: string) => unknown) {
  const requests: { path: string; params: any }[] = [];
  const client = {
    GET: async (path: string, init: { params: unknown }) => {
      requests.push({ path, params: init.params });
      return { data: answer(path), response: { ok: true, status: 200 } };
    },
  };
  return { requests, client };
}

const ajv = new Ajv2020({ strict: false });
const outputSchemaOf = (generated: Generated, tool: string) => generated.toolDefinitions.find((t) => t.name === tool)!.outputSchema;
const inputSchemaOf = (generated: Generated, tool: string) => generated.toolDefinitions.find((t) => t.name === tool)!.inputSchema;
const validAgainst = (schema: object, value: unknown) => {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : validate.errors;
};

/** The support desk's spec with an annotation of its tickets written here. */
async function supportDesk(ticketFields: string, searchOptions = "") {
  const dir = tempDir("projector-detail-");
  copyFileSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(dir, "api.yaml"));
  writeFileSync(
    join(dir, "projector.yaml"),
    `spec: api.yaml
output: out
resolvers:
  users: { type: user, label: display_name }
  orgs: { type: organization, label: name }
resources:
  ticket:
    fields:
${ticketFields}
  user:
    fields:
      id: { argument: [get_user], shorten: true }
      display_name: { as: name }
      email: keep
      role: keep
      organization: { as: org, join: orgs }
tools:
  search_tickets:
    operation: searchTickets
    list: tickets
    text: table
    page: { total: meta.page.total }${searchOptions}
  get_user:
    operation: getUser
`,
  );
  const output = await generateFrom(join(dir, "projector.yaml"));
  return { output, generated: output.problems.length === 0 ? await importGenerated<Generated>(output.files) : undefined };
}

const TICKET_FIELDS = `      id: { drop: "no tool here takes it" }
      subject: keep
      status_code: { as: status, legend: spec }
      priority: { legend: { 1: low, 2: high, 3: urgent } }
      assignee: { join: users, argument: [get_user], shorten: true }
      organization: { as: org, join: orgs }
      created_at: { as: opened, format: date }
      updated_at: { drop: "not asked about" }
      sla_due_at: { drop: "not asked about" }
      internal_notes: { as: notes, detail: full }`;

const PRIYA = "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af";
const TICKETS = {
  data: [
    {
      type: "ticket",
      id: "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90",
      attributes: {
        subject: "Card declined",
        status_code: 3,
        priority: 2,
        created_at: "2026-02-11T09:14:22Z",
        internal_notes: "Legacy plan.",
      },
      relationships: { assignee: { data: { type: "user", id: PRIYA } }, organization: { data: null } },
    },
    {
      type: "ticket",
      id: "tkt_0b7c52de-91a4-4f0e-8d3b-6e2a0c9f4417",
      attributes: { subject: "Refund late", status_code: 2, priority: 3, created_at: "2026-02-12T13:40:05Z", internal_notes: null },
      relationships: { assignee: { data: null }, organization: { data: null } },
    },
  ],
  meta: { page: { total: 2 } },
};
const USER = { data: { type: "user", id: PRIYA, attributes: { display_name: "Priya Raman", email: "priya@example.com", role: "agent" } } };

describe("a join key that is also an argument", () => {
  it("gives the name, and beside it the short id that the tool it names takes and sends whole", async () => {
    const { output, generated } = await supportDesk(TICKET_FIELDS);
    expect(output.problems).toEqual([]);
    const users = recordingResolver({ [PRIYA]: "Priya Raman" });
    const { requests, client } = recordingClient((path) => (path === "/tickets" ? TICKETS : USER));
    const tools = generated!.createTools({ client, resolvers: { users: users.resolver, orgs: recordingResolver({}).resolver } });
    const page = await tools["search_tickets"]!({});
    expect(page.result.tickets.map((t: object) => Object.entries(t).slice(0, 5))).toEqual([
      [
        ["subject", "Card declined"],
        ["status", "open"],
        ["priority", "high"],
        ["assignee", "Priya Raman"],
        ["assignee_id", "usr_41c2be09"],
      ],
      [
        ["subject", "Refund late"],
        ["status", "pending"],
        ["priority", "urgent"],
        ["assignee", null],
        ["assignee_id", null],
      ],
    ]);
    expect(page.text).toContain("assignee,assignee_id,");
    expect(validAgainst(outputSchemaOf(generated!, "search_tickets"), page.result)).toEqual([]);

    const user = await tools["get_user"]!({ user_id: page.result.tickets[0].assignee_id });
    expect(user.error).toBeUndefined();
    expect(requests.at(-1)).toEqual({ path: "/users/{user_id}", params: { path: { user_id: PRIYA }, query: {} } });
  });

  it("keeps the id under the name `id_as` gives, and the output schema and result type say so", async () => {
    const { output, generated } = await supportDesk(
      TICKET_FIELDS.replace("argument: [get_user], shorten: true }", "argument: [get_user], shorten: true, id_as: assignee_ref }"),
    );
    expect(output.problems).toEqual([]);
    const ticketSchema = (outputSchemaOf(generated!, "search_tickets") as any).$defs.Ticket;
    expect(ticketSchema.properties.assignee_ref).toMatchObject({ description: expect.stringContaining("Pass to get_user.") });
    expect(ticketSchema.required).toContain("assignee_ref");
    expect(output.files.get("resources/ticket.ts")).toMatch(
      /assignee: string \| null \| Unresolved \| Unusable;\s+assignee_ref: string \| null \| Unusable;/,
    );
  });

  it("is refused where the id beside the name would take another field's output name", async () => {
    const { output } = await supportDesk(TICKET_FIELDS.replace("subject: keep", "subject: { as: assignee_id }"));
    expect(output.problems.map((d) => [d.code, d.message])).toEqual([
      ["PRJ027", 'ticket: subject and assignee are both written as "assignee_id"'],
    ]);
  });

  it("takes `id_as` only beside a join that is also an argument", async () => {
    const { output } = await supportDesk(
      TICKET_FIELDS.replace("organization: { as: org, join: orgs }", "organization: { as: org, join: orgs, id_as: org_id }"),
    );
    expect(output.problems.map((d) => d.code)).toEqual(["PRJ029"]);
    expect(output.problems[0]!.message).toMatch(/`id_as` names the id kept beside a joined name/);
  });
});

describe("a field annotated `detail: full`", () => {
  it("is sent only when the tool is called with detail: full; both results fit the output schema, and detail is never sent", async () => {
    const { output, generated } = await supportDesk(TICKET_FIELDS);
    expect(output.problems).toEqual([]);
    const { requests, client } = recordingClient(() => TICKETS);
    const users = recordingResolver({ [PRIYA]: "Priya Raman" }).resolver;
    const tools = generated!.createTools({ client, resolvers: { users, orgs: recordingResolver({}).resolver } });

    const summary = await tools["search_tickets"]!({});
    expect(summary.result.tickets.map((t: object) => "notes" in t)).toEqual([false, false]);
    const full = await tools["search_tickets"]!({ detail: "full" });
    expect(full.result.tickets.map((t: { notes?: unknown }) => t.notes)).toEqual(["Legacy plan.", null]);
    const schema = outputSchemaOf(generated!, "search_tickets");
    expect(validAgainst(schema, summary.result)).toEqual([]);
    expect(validAgainst(schema, full.result)).toEqual([]);
    // The table text has the notes column only in full detail: each text is a table, not JSON.
    expect(summary.text).toMatch(/^tickets\[2\]\{subject,status,priority,assignee,assignee_id,org,opened\}:/);
    expect(full.text).toMatch(/^tickets\[2\]\{subject,status,priority,assignee,assignee_id,org,opened,notes\}:/);

    expect(requests.map((r) => r.params)).toEqual([
      { path: {}, query: {} },
      { path: {}, query: {} },
    ]);
    expect(inputSchemaOf(generated!, "search_tickets").properties["detail"]).toMatchObject({
      enum: ["summary", "full"],
      default: "summary",
    });
    expect(await tools["search_tickets"]!({ detail: "everything" })).toMatchObject({ error: expect.stringMatching(/detail/) });
    // A tool with no such field takes no `detail`.
    expect(inputSchemaOf(generated!, "get_user").properties["detail"]).toBeUndefined();
  });

  it("is optional in the result type and the record's schema, and its projection function takes the detail as an option", async () => {
    const { output, generated } = await supportDesk(TICKET_FIELDS);
    expect(output.files.get("resources/ticket.ts")).toMatch(/notes\?: string \| null \| Unusable;/);
    const ticketSchema = (outputSchemaOf(generated!, "search_tickets") as any).$defs.Ticket;
    expect(ticketSchema.required).not.toContain("notes");
    const { projectTicket } = generated as unknown as { projectTicket: (record: unknown, lookups: unknown, options?: object) => object };
    const lookups = { users: new Map([[PRIYA, "Priya Raman"]]), orgs: new Map() };
    expect(projectTicket(TICKETS.data[0], lookups)).not.toHaveProperty("notes");
    expect(projectTicket(TICKETS.data[0], lookups, { detail: "full" })).toHaveProperty("notes", "Legacy plan.");
  });

  it("is sent in full detail by a tool with a token budget too, and the code compiles under the strict flags", async () => {
    const { output, generated } = await supportDesk(TICKET_FIELDS, "\n    budget: { tokens: 4000 }");
    expect(output.problems).toEqual([]);
    expect(typecheckFiles(output.files)).toEqual([]);
    const { client } = recordingClient(() => TICKETS);
    const users = recordingResolver({ [PRIYA]: "Priya Raman" }).resolver;
    const tools = generated!.createTools({ client, resolvers: { users, orgs: recordingResolver({}).resolver } });
    const full = await tools["search_tickets"]!({ detail: "full" });
    expect(full.result).toMatchObject({ tickets: [{ notes: "Legacy plan." }, { notes: null }], truncated: false });
    expect((await tools["search_tickets"]!({})).result.tickets[0]).not.toHaveProperty("notes");
    expect(typecheckFiles((await charges()).output.files)).toEqual([]);
  });

  it("is refused where an API parameter would be passed as `detail` too, until it is renamed", async () => {
    const spec = chargesSpec() as any;
    spec.paths["/charges"].get.parameters = [{ name: "detail", in: "query", schema: { type: "string" } }];
    const annotation = CHARGES.replace("amount: keep", "amount: { detail: full }");
    const { output } = await charges(annotation, spec);
    expect(output.problems.map((d) => [d.code, d.message])).toEqual([
      ["PRJ063", "tool list_charges: its parameter detail is passed as `detail`, the argument its `detail: full` fields take"],
    ]);
    const renamed = await charges(
      annotation.replace("    page: { more: has_more }\n", "    page: { more: has_more }\n    inputs: { detail: { as: level } }\n"),
      spec,
    );
    expect(renamed.output.problems).toEqual([]);
    expect(Object.keys(inputSchemaOf(renamed.generated!, "list_charges").properties)).toEqual(["level", "detail"]);
  });

  it("is refused on a part inside an object, where the record's schema could not mark it optional", async () => {
    const dir = tempDir("projector-detail-nested-");
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(chargesSpec()));
    writeFileSync(
      join(dir, "projector.yaml"),
      CHARGES.replace("payment_method_details.type: keep", "payment_method_details.type: { detail: full }"),
    );
    const output = await generateFrom(join(dir, "projector.yaml"));
    expect(output.problems.map((d) => [d.code, d.message])).toEqual([
      [
        "PRJ029",
        "charge.payment_method_details.type: `detail` applies to a field at the top of the result, and this one is a part of `payment_method_details`",
      ],
    ]);
  });
});

/** A plain-REST charges API: each charge embeds its customer and holds payment details of many kinds. */
function chargesSpec(extraParts: Record<string, object> = {}) {
  const ok = (schema: object) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
  return {
    openapi: "3.0.3",
    info: { title: "charges", version: "1" },
    paths: {
      "/charges": {
        get: {
          operationId: "listCharges",
          responses: ok({
            type: "object",
            properties: { data: { type: "array", items: { $ref: "#/components/schemas/Charge" } }, has_more: { type: "boolean" } },
          }),
        },
      },
      "/customers/{customer_id}": {
        get: {
          operationId: "getCustomer",
          parameters: [{ name: "customer_id", in: "path", required: true, schema: { type: "string" } }],
          responses: ok({ $ref: "#/components/schemas/Customer" }),
        },
      },
    },
    components: {
      schemas: {
        Charge: {
          type: "object",
          required: ["id"],
          properties: {
            id: { type: "string" },
            amount: { type: "integer" },
            customer: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
            payment_method_details: {
              type: "object",
              properties: {
                type: { type: "string" },
                card: { type: "object", properties: { brand: { type: "string" }, last4: { type: "string" } } },
                ach_debit: { type: "object", properties: { bank_name: { type: "string" }, routing_number: { type: "string" } } },
                ...extraParts,
              },
            },
          },
        },
        Customer: { type: "object", required: ["id"], properties: { id: { type: "string" }, name: { type: "string" } } },
      },
    },
  };
}

const CHARGES = `spec: openapi.json
output: out
resolvers:
  customers: { label: name }
resources:
  charge:
    schema: Charge
    fields:
      id: { drop: "no tool here takes it" }
      amount: keep
      customer: { join: customers, argument: [get_customer], shorten: true }
      payment_method_details.type: keep
      payment_method_details.card: keep
      payment_method_details.*: { drop: "details of other payment methods: ask the dashboard" }
  customer:
    schema: Customer
    fields:
      id: { argument: [get_customer], shorten: true }
      name: keep
tools:
  list_charges:
    operation: listCharges
    rows: data
    list: charges
    page: { more: has_more }
  get_customer:
    operation: getCustomer
`;

const CUSTOMER = "cus_NffrFeUfNV2HibXyZ0a1";
const CHARGE_PAGE = {
  data: [
    {
      id: "ch_3KpXb2Lkd9cQ2Tfa1B5e7LmN",
      amount: 1200,
      customer: { id: CUSTOMER, name: "Northwind Foods" },
      payment_method_details: { type: "card", card: { brand: "visa", last4: "4242" }, ach_debit: { bank_name: "X", routing_number: "1" } },
    },
  ],
  has_more: false,
};

async function charges(annotation = CHARGES, spec = chargesSpec()) {
  const dir = tempDir("projector-charges-");
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
  writeFileSync(join(dir, "projector.yaml"), annotation);
  const output = await generateFrom(join(dir, "projector.yaml"));
  return { dir, output, generated: output.problems.length === 0 ? await importGenerated<Generated>(output.files) : undefined };
}

describe("an embedded record joined and passed on", () => {
  it("gives the name it carries and its short id, which the tool it names expands", async () => {
    const { output, generated } = await charges();
    expect(output.problems).toEqual([]);
    const { requests, client } = recordingClient((path) => (path === "/charges" ? CHARGE_PAGE : { id: CUSTOMER, name: "Northwind Foods" }));
    const customers = recordingResolver({});
    const tools = generated!.createTools({ client, resolvers: { customers: customers.resolver } });
    const page = await tools["list_charges"]!({});
    expect(page.result).toEqual({
      charges: [
        {
          amount: 1200,
          customer: "Northwind Foods",
          customer_id: "cus_NffrFeUf",
          payment_method_details: { type: "card", card: { brand: "visa", last4: "4242" } },
        },
      ],
      more: false,
    });
    expect(customers.calls).toEqual([]);
    await tools["get_customer"]!({ customer_id: "cus_NffrFeUf" });
    expect(requests.at(-1)).toEqual({ path: "/customers/{customer_id}", params: { path: { customer_id: CUSTOMER }, query: {} } });
  });
});

describe("projector tokens", () => {
  it("says what the handles cost per page: the tokens the JSON result would lose without the ids the model passes on", async () => {
    const { dir } = await charges();
    writeFileSync(join(dir, "page.json"), JSON.stringify(CHARGE_PAGE));
    const json = await cli(["tokens", "--tool", "list_charges", "page.json", "--json"], dir);
    expect(json.code).toBe(0);
    const record = {
      amount: 1200,
      customer: "Northwind Foods",
      customer_id: "cus_NffrFeUf",
      payment_method_details: { type: "card", card: { brand: "visa", last4: "4242" } },
    };
    const { customer_id: _, ...withoutHandle } = record;
    const tokensOf = (charge: object) => encode(JSON.stringify({ charges: [charge], more: false })).length;
    const tokens = tokensOf(record) - tokensOf(withoutHandle);
    expect(tokens).toBeGreaterThan(0);
    expect(JSON.parse(json.stdout).handles).toEqual({ keys: ["customer_id"], tokens });
    const text = await cli(["tokens", "--tool", "list_charges", "page.json"], dir);
    expect(text.stdout).toContain(`handles (ids the model can pass to a tool: customer_id): ${tokens} tokens per page, `);
  });
});

describe("a default for the rest of an object", () => {
  it("drops every part no rule names, the named ones winning, and generate lists what it covered", async () => {
    const { dir, output } = await charges();
    expect(output.problems).toEqual([]);
    const run = await cli(["generate"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /\n {2}payment_method_details\.ach_debit +dropped by payment_method_details\.\*: details of other payment methods: ask the dashboard\n/,
    );
    expect(run.stdout).not.toMatch(/payment_method_details\.(type|card) +dropped/);
  });

  it("covers a part the spec gains later: generate still passes, and lists it", async () => {
    const grown = chargesSpec({ wallet: { type: "object", properties: { wallet_id: { type: "string" } } } });
    const { dir, output } = await charges(CHARGES, grown);
    expect(output.problems).toEqual([]);
    const run = await cli(["generate"], dir);
    expect(run.stdout).toMatch(/\n {2}payment_method_details\.wallet +dropped by payment_method_details\.\*: /);
    // Without the default, the part the spec gained stops the build until someone decides.
    const { output: without } = await charges(CHARGES.replace(/ {6}payment_method_details\.\*.*\n/, ""), grown);
    expect(without.problems.map((d) => d.code)).toEqual(["PRJ020", "PRJ020"]);
  });

  it.each([
    ["keep", "keep"],
    ["a rule that keeps", "{ as: details }"],
  ])("refuses %s as a default, with why", async (_, rule) => {
    const { output } = await charges(CHARGES.replace(/(payment_method_details\.\*: ).*/, `$1${rule}`));
    expect(output.problems.map((d) => [d.code, d.message])).toEqual([
      [
        "PRJ037",
        "charge.payment_method_details.*: a default may only drop; a keep here would let every part `payment_method_details` gains in the spec reach the model without anyone deciding",
      ],
    ]);
  });

  it("may cover a whole resource, which a re-run of init then leaves as it is", async () => {
    const annotation = CHARGES.replace(/ {6}payment_method_details\..*\n/g, "").replace(
      "      amount: keep\n",
      '      amount: keep\n      "*": { drop: "only the amount and customer are asked about" }\n',
    );
    const { dir, output } = await charges(annotation);
    expect(output.problems).toEqual([]);
    expect((await cli(["generate"], dir)).stdout).toMatch(/\n {2}payment_method_details +dropped by \*: only the amount/);
    const rerun = await cli(["init", "openapi.json"], dir);
    expect(rerun.code).toBe(0);
    expect(Object.keys(parse(readFileSync(join(dir, "projector.yaml"), "utf8")).resources.charge.fields)).toEqual([
      "id",
      "amount",
      "*",
      "customer",
    ]);
  });

  it("is accepted, as a drop only, by the annotation's JSON Schema", () => {
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, "schema/projector.schema.json"), "utf8")));
    const annotation = parse(CHARGES) as any;
    expect(validate(annotation), JSON.stringify(validate.errors)).toBe(true);
    annotation.resources.charge.fields["payment_method_details.*"] = "keep";
    expect(validate(annotation)).toBe(false);
    annotation.resources.charge.fields["payment_method_details.*"] = { drop: "why", as: "x" };
    expect(validate(annotation)).toBe(false);
  });
});
