// A JSON:API type its tools declare as several schemas: one resource, checked and read as all of
// them, whichever tool the annotation lists first.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../src/annotation/parse.js";
import { buildModel } from "../src/model/build.js";
import { loadSpec } from "../src/openapi/load.js";
import { tempDir } from "./helpers/pipeline.js";

const text = { type: "string" };
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });
const ticket = (attributes: Record<string, unknown>) => ({
  type: "object",
  properties: { id: text, type: { type: "string", enum: ["tickets"] }, attributes: object(attributes) },
});
const jsonApi = (schema: unknown) => ({
  "200": { description: "ok", content: { "application/vnd.api+json": { schema: object({ data: schema }) } } },
});
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Desk", version: "1" },
  paths: {
    "/tickets": {
      get: { operationId: "listTickets", responses: jsonApi({ type: "array", items: { $ref: "#/components/schemas/TicketBrief" } }) },
    },
    "/tickets/{id}": {
      get: {
        operationId: "getTicket",
        parameters: [{ name: "id", in: "path", required: true, schema: text }],
        responses: jsonApi({ $ref: "#/components/schemas/TicketFull" }),
      },
    },
  },
  components: {
    schemas: {
      TicketBrief: ticket({
        blob: {},
        score: { type: "integer" },
        meta: object({ a: object({ b: object({ c: object({ d: object({ e: text }) }) }) }) }),
      }),
      TicketFull: ticket({
        blob: object({ password: text }),
        score: { type: "number" },
        meta: object({ a: object({ b: object({ c: object({ d: object({ e: text, note: text }) }) }) }) }),
      }),
    },
  },
};

/** The errors generate gives the annotation keeping `fields`, its tools listed in `order`. */
async function problems(fields: string, order: string[]) {
  const dir = tempDir();
  writeFileSync(join(dir, "spec.json"), JSON.stringify(SPEC));
  const tools = order.map((tool) => `  ${tool}:\n    operation: ${tool === "list_tickets" ? "listTickets" : "getTicket"}\n`).join("");
  const annotation = `spec: spec.json\noutput: generated\nresources:\n  tickets:\n    fields:\n      id: { argument: [get_ticket] }\n${fields}tools:\n${tools}`;
  const spec = await loadSpec(join(dir, "spec.json"), "spec.json");
  const { diagnostics, model } = buildModel(parseAnnotation(annotation, join(dir, "projector.yaml")), spec);
  const errors = diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`);
  return { errors, model };
}

const BOTH_ORDERS = [
  ["list_tickets", "get_ticket"],
  ["get_ticket", "list_tickets"],
];

describe("a JSON:API type declared as several schemas", () => {
  it.each(BOTH_ORDERS)(
    "refuses a value kept whole that one schema leaves of any type and another says holds a credential (%s first)",
    async (...order) => {
      const { errors } = await problems('      blob: keep\n      score: keep\n      meta: { drop: "internal" }\n', order);
      expect(errors).toEqual(["PRJ034 tickets.blob: kept whole, this value would carry `blob.password`, a credential, to the model"]);
    },
  );

  it.each(BOTH_ORDERS)("reads a number where one schema says integer, whichever comes first (%s first)", async (...order) => {
    const { errors, model } = await problems(
      '      blob: { drop: "internal" }\n      score: keep\n      meta: { drop: "internal" }\n',
      order,
    );
    expect(errors).toEqual([]);
    const score = model!.resources[0]!.fields.find((f) => f.name === "score")!;
    expect(score.kind === "value" && score.shape).toEqual({ type: "number" });
  });

  it.each(BOTH_ORDERS)("refuses a value kept whole whose members differ five levels down (%s first)", async (...order) => {
    const { errors } = await problems('      blob: { drop: "internal" }\n      score: keep\n      meta: keep\n', order);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^PRJ045 resource tickets: tool \w+ returns records whose `meta` is an attribute of shape object/);
  });
});
