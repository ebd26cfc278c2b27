// Where a tool's records sit in its response when the response is a union of records (a customer, or
// the stub left when it was deleted) or a record with no id of its own: the record itself, never one
// of its lists.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { findRows, namesOneRecord } from "../src/model/rows.js";
import { SchemaReader, type JsonObject } from "../src/openapi/schema.js";
import { cli, tempDir } from "./helpers/pipeline.js";

const customer = {
  type: "object",
  required: ["id", "object"],
  properties: {
    id: { type: "string" },
    object: { type: "string", enum: ["customer"] },
    email: { type: "string", nullable: true },
    preferred_locales: { type: "array", items: { type: "string" } },
  },
};
const deletedCustomer = {
  type: "object",
  required: ["id", "object", "deleted"],
  properties: { id: { type: "string" }, object: { type: "string", enum: ["customer"] }, deleted: { type: "boolean", enum: [true] } },
};
const ok = (schema: JsonObject) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });

const document: JsonObject = {
  openapi: "3.0.3",
  info: { title: "payments", version: "1" },
  paths: {
    "/v1/customers/{customer}": {
      get: {
        operationId: "GetCustomersCustomer",
        parameters: [{ name: "customer", in: "path", required: true, schema: { type: "string" } }],
        responses: ok({ anyOf: [{ $ref: "#/components/schemas/customer" }, { $ref: "#/components/schemas/deleted_customer" }] }),
      },
    },
    "/v1/customers": {
      get: {
        operationId: "GetCustomers",
        responses: ok({
          type: "object",
          properties: {
            object: { type: "string", enum: ["list"] },
            data: { type: "array", items: { $ref: "#/components/schemas/customer" } },
            has_more: { type: "boolean" },
          },
        }),
      },
    },
    "/v1/balance/{currency}": {
      get: {
        operationId: "GetBalance",
        parameters: [{ name: "currency", in: "path", required: true, schema: { type: "string" } }],
        responses: ok({ $ref: "#/components/schemas/balance" }),
      },
    },
  },
  components: {
    schemas: {
      customer,
      deleted_customer: deletedCustomer,
      // No id of its own, and a single list of records among its fields.
      balance: {
        type: "object",
        properties: {
          currency: { type: "string" },
          livemode: { type: "boolean" },
          available: { type: "array", items: { type: "object", properties: { amount: { type: "integer" }, source: { type: "string" } } } },
        },
      },
    },
  },
};

const reader = new SchemaReader(document);
const rowsOf = (path: string) => {
  const operation = (document["paths"] as Record<string, { get: { operationId: string } }>)[path]!.get;
  const at = { schema: (operation as unknown as { responses: JsonObject }).responses, pointer: "" };
  const schema = ((at.schema["200"] as JsonObject)["content"] as Record<string, { schema: JsonObject }>)["application/json"]!.schema;
  const pointer = `/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/get/responses/200/content/application~1json/schema`;
  const rows = findRows(reader, {}, { schema, pointer }, "application/json", [], path);
  if ("problem" in rows) throw new Error(rows.problem);
  return { path: rows.path, many: rows.many };
};

describe("a single-record response", () => {
  it("that is a union of a record and its deleted stub is the record, not its only list", () => {
    expect(rowsOf("/v1/customers/{customer}")).toEqual({ path: [], many: false });
  });

  it("with no id of its own, fetched by a path naming one record, is the record, not its only list", () => {
    expect(rowsOf("/v1/balance/{currency}")).toEqual({ path: [], many: false });
  });

  it("keeps the union's fields, every branch's", () => {
    const names = reader
      .properties({ schema: { anyOf: [customer, deletedCustomer] }, pointer: "/x" })
      .map((p) => `${p.name}${p.required ? "" : "?"}`);
    expect(names).toEqual(["id?", "object?", "email?", "preferred_locales?", "deleted?"]);
  });
});

describe("a list envelope", () => {
  it("still gives its one list of records", () => {
    expect(rowsOf("/v1/customers")).toEqual({ path: ["data"], many: true });
  });
});

describe("namesOneRecord", () => {
  it.each([
    ["/v1/customers/{customer}", true],
    ["/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json", true],
    ["/api/v2/pokemon/{id}/", true],
    ["/v1/customers", false],
    ["/v1/customers/{customer}/sources", false],
    ["/2010-04-01/Accounts/{AccountSid}/Messages.json", false],
  ])("%s: %s", (path, one) => {
    expect(namesOneRecord(path)).toBe(one);
  });
});

describe("init", () => {
  it("drafts the get-customer tool on the customer's own fields", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "spec.yaml"), stringify(document));
    const drafted = await cli(["init", "spec.yaml", "--operations", "GetCustomersCustomer", "--accept-guesses"], dir);
    expect(drafted.code).toBe(0);
    const draft = readFileSync(join(dir, "projector.yaml"), "utf8");
    expect(draft).toMatch(/^ {6}email: /m);
    expect(draft).toMatch(/^ {6}deleted: /m);
    expect(draft).not.toMatch(/rows: preferred_locales/);
  });
});

describe("a record whose identity is its sid", () => {
  const twilio: JsonObject = {
    openapi: "3.0.3",
    info: { title: "messages", version: "1" },
    paths: {
      "/Accounts/{AccountSid}/Messages/{Sid}.json": {
        get: {
          operationId: "FetchMessage",
          parameters: ["AccountSid", "Sid"].map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
          responses: ok({ $ref: "#/components/schemas/message" }),
        },
      },
    },
    components: {
      schemas: {
        message: {
          type: "object",
          properties: {
            sid: { type: "string" },
            account_sid: { type: "string" },
            body: { type: "string" },
            subresource_uris: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    },
  };

  it("is the record, and its other sids are ids generate will not keep as text", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "spec.yaml"), stringify(twilio));
    const annotation = [
      "spec: spec.yaml",
      "output: out",
      "resources:",
      "  message:",
      "    schema: message",
      "    fields:",
      "      sid: { argument: [fetch_message] }",
      "      account_sid: keep",
      "      body: keep",
      '      subresource_uris: { drop: "links" }',
      "tools:",
      "  fetch_message: { operation: FetchMessage }",
      "",
    ].join("\n");
    writeFileSync(join(dir, "projector.yaml"), annotation);
    const run = await cli(["generate", "--check"], dir);
    expect(run.stderr).toMatch(/PRJ022 message\.account_sid/);
    expect(run.stderr).not.toMatch(/message\.sid/);
  });
});
