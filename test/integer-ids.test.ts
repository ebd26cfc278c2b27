// Integer ids kept as arguments stay integers: in the result, its TypeScript type and its JSON Schema,
// so a consumer's strict tsc and an MCP client's schema check both accept what the tool returns.
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { generateFrom, importGenerated, ROOT, typecheckFiles } from "./helpers/pipeline.js";

describe("an integer id kept as an argument", () => {
  let generated: Awaited<ReturnType<typeof generateFrom>>;
  beforeAll(async () => {
    generated = await generateFrom(join(ROOT, "specs/scenarios/integer-ids/projector.yaml"));
    expect(generated.problems).toEqual([]);
  });

  it("is a number in the result type, and a consumer holding it as one compiles under strict tsc", () => {
    const consumer = [
      `import { projectListConversations, type Unusable } from "./index.js";`,
      `export async function firstId(response: Parameters<typeof projectListConversations>[0]): Promise<number | Unusable | null | undefined> {`,
      `  const result = await projectListConversations(response, { admins: async () => new Map() });`,
      `  const id: number | Unusable | null | undefined = result.conversations[0]?.id;`,
      `  return id;`,
      `}`,
    ].join("\n");
    expect(typecheckFiles(generated.files, { "consumer.ts": consumer })).toEqual([]);
  });

  it("is an integer in the output schema, which the projected result validates against", async () => {
    const module = await importGenerated(generated.files);
    const schema = module["listConversationsOutputSchema"] as { $defs: { Conversation: { properties: { id: { anyOf: unknown[] } } } } };
    expect(schema.$defs.Conversation.properties.id.anyOf[0]).toEqual({ type: "integer" });
    const project = module["projectListConversations"] as (
      response: unknown,
      resolvers: unknown,
    ) => Promise<{ conversations: { id: unknown }[] }>;
    const result = await project(
      { conversations: [{ id: 1911149811, ticket_id: 4021, subject: "Refund" }, { id: "1911149812" }] },
      { admins: async () => new Map() },
    );
    expect(result.conversations.map((c) => c.id)).toEqual([1911149811, 1911149812]);
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
  });
});
