// An id is read as the type the spec declares it: a number where the spec declares text is no id,
// and an empty string names no record; each is marked unusable and reported, never converted,
// looked up or shortened. Where the spec lets an id be text or a number, either is read.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectTicket } from "../../generated/support/resources/ticket.js";
import type { ProjectionIssue } from "../../templates/runtime/context.js";
import { generateFrom, importGenerated, recordingResolver, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.1.0
info: { title: Orders, version: 1.0.0 }
paths:
  /orders:
    get:
      operationId: listOrders
      responses:
        "200":
          description: A page of orders
          content:
            application/json:
              schema:
                type: object
                properties:
                  orders:
                    type: array
                    items: { $ref: "#/components/schemas/Order" }
  /orders/{order_id}:
    get:
      operationId: getOrder
      parameters:
        - { name: order_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: One order
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Order" }
  /customers/{customer_id}:
    get:
      operationId: getCustomer
      parameters:
        - { name: customer_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: One customer
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: { type: string }
                  name: { type: string }
components:
  schemas:
    Order:
      type: object
      required: [id]
      properties:
        id: { type: string }
        legacy_ref: { type: [string, integer] }
        customer: { type: string }
        seller: { type: [string, integer] }
        buyer: { description: "a customer id, of no declared type" }
        watchers:
          type: array
          items: { type: string }
`;

const ANNOTATION = `spec: openapi.yaml
output: generated
resolvers:
  customers: {}
resources:
  order:
    schema: Order
    fields:
      id: { argument: [get_order], shorten: true }
      legacy_ref: { argument: [get_order] }
      customer: { join: customers, argument: [get_customer] }
      seller: { join: customers }
      buyer: { join: customers }
      watchers: { join: customers }
tools:
  list_orders:
    operation: listOrders
`;

type ListOrders = (response: unknown, resolvers: unknown, options: unknown) => Promise<{ orders: Record<string, unknown>[] }>;

let generated: Promise<ListOrders> | undefined;
function listOrders(): Promise<ListOrders> {
  generated ??= (async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "openapi.yaml"), SPEC);
    writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
    const output = await generateFrom(join(dir, "projector.yaml"));
    expect(output.problems).toEqual([]);
    return (await importGenerated<{ projectListOrders: ListOrders }>(output.files)).projectListOrders;
  })();
  return generated;
}

/** Projects one order, with the ids the resolver was asked for and the issues reported. */
async function project(order: Record<string, unknown>) {
  const { resolver, calls } = recordingResolver({ c1: "Carla", "12345": "Numbered" });
  const issues: ProjectionIssue[] = [];
  const result = await (
    await listOrders()
  )({ orders: [order] }, { customers: resolver }, { onIssue: (issue: ProjectionIssue) => issues.push(issue) });
  return { order: result.orders[0]!, asked: calls.flat(), issues };
}

const unusable = (reason: string | RegExp) => ({ unusable: typeof reason === "string" ? reason : expect.stringMatching(reason) });

describe("an id the spec declares text", () => {
  it("is marked unusable when the API sends a number, never read as its digits nor looked up", async () => {
    const { order, asked, issues } = await project({ id: 5, customer: 12345, watchers: [7, "c1"] });
    expect(order).toMatchObject({
      id: unusable("expected a string, got number"),
      customer: unusable("expected a text id, got number"),
      customer_id: unusable("expected a text id, got number"),
      watchers: [unusable("expected a text id, got number"), "Carla"],
    });
    expect(asked).toEqual(["c1"]);
    expect(issues.map((issue) => [issue.kind, issue.field, issue.value])).toEqual([
      ["unusable", "id", 5],
      ["unusable", "customer", 12345],
      ["unusable", "customer", 12345],
      ["unusable", "watchers", 7],
    ]);
  });

  it.each([
    ["an empty string", { id: "", customer: "", seller: "", watchers: [""] }],
    ["only blank characters", { id: " ", customer: "\t\u001c", seller: "\u3000\u200b", watchers: ["\u0085 \u2800"] }],
  ])("is marked unusable when it is %s, never looked up nor shortened", async (got, record) => {
    const { order, asked, issues } = await project(record);
    expect(order).toMatchObject({
      id: unusable(`expected an id, got ${got}`),
      customer: unusable(`expected a text id, got ${got}`),
      customer_id: unusable(`expected a text id, got ${got}`),
      seller: unusable(`expected an id or a record with \`id\`, got ${got}`),
      watchers: [unusable(new RegExp(`got ${got}$`))],
    });
    expect(asked).toEqual([]);
    expect(issues.map((issue) => issue.kind)).toEqual(Array(5).fill("unusable"));
  });

  it("is marked unusable when the API sends a record in its place", async () => {
    const { order, asked } = await project({ id: "o1", customer: { id: "c1", name: "Embedded" }, watchers: [{ id: "c1" }] });
    expect(order["customer"]).toEqual(unusable("expected a text id, got object"));
    expect(order["watchers"]).toEqual([unusable("expected a text id, got object")]);
    expect(asked).toEqual([]);
  });

  it("is read as it is when it is text", async () => {
    const { order, asked, issues } = await project({ id: "ord_1", customer: "c1", watchers: ["c1"] });
    expect(order).toMatchObject({ id: "ord_1", customer: "Carla", customer_id: "c1", watchers: ["Carla"] });
    expect(asked).toEqual(["c1"]);
    expect(issues).toEqual([]);
  });
});

describe("an id the spec lets be text or a number", () => {
  it("reads a number as its digits, whether the spec declares both types or none", async () => {
    const { order, asked, issues } = await project({ id: "o1", legacy_ref: 5, seller: 12345, buyer: 12345 });
    expect(order).toMatchObject({ legacy_ref: "5", seller: "Numbered", buyer: "Numbered" });
    expect(asked).toEqual(["12345"]);
    expect(issues).toEqual([]);
  });

  it("still never reads an empty string as an id", async () => {
    const { order, asked } = await project({ id: "o1", legacy_ref: "", buyer: "" });
    expect(order).toMatchObject({
      legacy_ref: unusable("expected an id, got an empty string"),
      buyer: unusable("expected an id or a record with `id`, got an empty string"),
    });
    expect(asked).toEqual([]);
  });
});

describe("a JSON:API relationship whose identifiers the spec declares with a text id", () => {
  const ticket = (assignee: unknown) => ({
    type: "ticket",
    id: "tkt_1",
    attributes: { subject: "Refund", status_code: 1, priority: 1, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z" },
    relationships: { assignee: { data: { type: "user", id: assignee } }, organization: { data: null } },
  });
  const projected = (assignee: unknown) => {
    const issues: ProjectionIssue[] = [];
    const users = new Map([["5", "Numbered"]]);
    const result = projectTicket(ticket(assignee) as never, { users, orgs: new Map() }, { onIssue: (issue) => issues.push(issue) });
    return { assignee: result.assignee, issues };
  };

  it.each([
    [5, "an id that is number"],
    ["", "an id that is an empty string"],
  ])("marks an identifier whose id is %j unusable, never looking it up", (id, got) => {
    const { assignee, issues } = projected(id);
    expect(assignee).toEqual(unusable(`expected a resource identifier { type, id } with a text id, got ${got}`));
    // One issue, and no unresolved one: the id was never looked up.
    expect(issues).toEqual([expect.objectContaining({ kind: "unusable", field: "assignee" })]);
  });

  it("reads a text id", () => {
    expect(projected("5").assignee).toBe("Numbered");
  });
});
