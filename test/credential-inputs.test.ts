// A parameter that is a credential (`api_key` in the query) is never the model's: init drafts it
// dropped, generate accepts dropping it though the API requires it, and the tool sends what the
// client the consumer passes adds, never asking the model for it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { initAnnotation } from "../src/init/init.js";
import { loadSpec } from "../src/openapi/load.js";
import { generateFrom, importGenerated, tempDir, typecheckFiles } from "./helpers/pipeline.js";

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Weather", version: "1" },
  paths: {
    "/forecasts": {
      get: {
        operationId: "listForecasts",
        parameters: [
          { name: "city", in: "query", schema: { type: "string" } },
          { name: "api_key", in: "query", required: true, schema: { type: "string" } },
        ],
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: { type: "array", items: { type: "object", properties: { city: { type: "string" }, summary: { type: "string" } } } },
              },
            },
          },
        },
      },
    },
  },
};

type Tool = (args: unknown) => Promise<{ result?: unknown; error?: string }>;
type Generated = {
  createTools: (options: { client: unknown }) => Record<string, Tool>;
  toolDefinitions: Array<{ name: string; inputSchema: { properties?: Record<string, unknown>; required?: string[] } }>;
};

describe("a credential the API takes as a parameter", () => {
  it("is drafted dropped, generated, and never asked of the model", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "spec.json"), JSON.stringify(SPEC));
    const loaded = await loadSpec(join(dir, "spec.json"), "spec.json");
    const drafted = initAnnotation(loaded, { file: "projector.yaml", spec: "spec.json", output: "generated/weather", acceptGuesses: true });
    const annotation = parse(drafted.text) as { tools: Record<string, { inputs: Record<string, unknown> }> };
    expect(annotation.tools["list_forecasts"]!.inputs).toEqual({ city: {}, api_key: { drop: "a credential: the client sends it" } });
    writeFileSync(join(dir, "projector.yaml"), drafted.text);
    const output = await generateFrom(join(dir, "projector.yaml"));
    expect(output.problems).toEqual([]);
    expect(typecheckFiles(output.files)).toEqual([]);
    const generated = await importGenerated<Generated>(output.files);
    const definition = generated.toolDefinitions.find((tool) => tool.name === "list_forecasts")!;
    expect(Object.keys(definition.inputSchema.properties ?? {})).toEqual(["city"]);
    const sent: unknown[] = [];
    const client = {
      GET: async (_path: string, init: { params?: { query?: unknown } }) => {
        sent.push(init.params?.query);
        return { data: [{ city: "Oslo", summary: "snow" }], response: { ok: true, status: 200 } };
      },
    };
    const outcome = await generated.createTools({ client }).list_forecasts!({ city: "Oslo", api_key: "sk_from_the_model" });
    expect(outcome.result ?? outcome.error).toBeDefined();
    expect(JSON.stringify(sent)).not.toContain("sk_from_the_model");
  });
});
