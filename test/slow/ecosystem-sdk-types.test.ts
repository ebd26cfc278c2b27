// The definitions of the bundled example and of every scenario folder, assigned to each model SDK's
// own types and to the JSON Schema types: each compiles as it is, with no cast.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, typecheck } from "../helpers/pipeline.js";
import { scenarioNames } from "../helpers/scenarios.js";

const FOLDERS = ["generated/support", ...scenarioNames.map((name) => `specs/scenarios/${name}/generated`)];

describe("the definitions of every golden folder, against each SDK's own types", () => {
  const files = join(ROOT, "test/.ecosystem-sdk-types");
  beforeAll(() => {
    mkdirSync(files, { recursive: true });
    writeFileSync(join(files, "package.json"), JSON.stringify({ type: "module" }));
  });
  afterAll(() => rmSync(files, { recursive: true, force: true }));

  it("type-check as Anthropic.Tool[], ChatCompletionTool[], FunctionTool[], JSONSchema7, jsonSchema() and z.fromJSONSchema()", () => {
    const written = FOLDERS.map((folder, i) => {
      const file = join(files, `folder-${i}.ts`);
      writeFileSync(
        file,
        [
          `import type Anthropic from "@anthropic-ai/sdk";`,
          `import { jsonSchema } from "ai";`,
          `import type { JSONSchema7 } from "json-schema";`,
          `import type OpenAI from "openai";`,
          `import { z } from "zod";`,
          `import * as generated from "../../${folder}/index.js";`,
          `export const anthropic: Anthropic.Tool[] = generated.anthropicToolDefinitions;`,
          `export const chat: OpenAI.ChatCompletionTool[] = generated.openaiToolDefinitions;`,
          `export const responses: OpenAI.Responses.FunctionTool[] = generated.openaiResponsesToolDefinitions;`,
          `for (const definition of generated.toolDefinitions) {`,
          `  const input: JSONSchema7 = definition.inputSchema;`,
          `  const output: JSONSchema7 = definition.outputSchema;`,
          `  jsonSchema(definition.inputSchema);`,
          `  z.fromJSONSchema(definition.inputSchema);`,
          `  z.fromJSONSchema(definition.outputSchema);`,
          `  void input, output;`,
          `}`,
          "",
        ].join("\n"),
      );
      return file;
    });
    expect(typecheck(written, ["node"])).toEqual([]);
  });
});
