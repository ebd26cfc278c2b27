// Hand-written annotations of a few agent tools per real plain-REST spec (test/real-rest/<api>/projector.yaml),
// each tool's response example from the spec itself projected through the generated code and compared with
// the checked-in result. Skipped cleanly where ../shared/real-specs is absent.
// PROJECTOR_WRITE_EXPECTED=1 rewrites the expected files; review them by eye before committing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Field, ToolModel } from "../../src/model/types.js";
import { pascalCase } from "../../src/naming.js";
import { generateFrom, importGenerated, REAL_SPECS, ROOT, typecheckFiles } from "../helpers/pipeline.js";

type Project = (response: unknown, resolvers: unknown, options: unknown) => Promise<unknown>;

const APIS: { api: string; spec: string; tools: string[]; examples?: "properties" }[] = [
  { api: "pagerduty", spec: "pagerduty_rest_openapiv3.json", tools: ["list_incidents", "get_incident", "get_service"] },
  { api: "sentry", spec: "sentry_openapi_derefed.json", tools: ["list_issues", "get_issue", "get_project"] },
  // Box gives examples on properties, not on responses (three shared-link responses aside).
  { api: "box", spec: "box_openapi.json", tools: ["list_folder_items", "get_file", "get_folder"], examples: "properties" },
  {
    api: "digitalocean",
    spec: "digitalocean/specification/DigitalOcean-public.v2.yaml",
    tools: ["list_droplets", "get_droplet", "get_image"],
  },
];

const WRITE = process.env["PROJECTOR_WRITE_EXPECTED"] === "1";

/** The values at a dotted path in a record, through arrays. */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, path));
  if (path.length === 0) return [value];
  if (typeof value !== "object") return [];
  return valuesAt((value as Record<string, unknown>)[path[0]!], path.slice(1));
}

/** Every string and number at any depth of a value. */
function leaves(value: unknown): (string | number)[] {
  if (typeof value === "string" || typeof value === "number") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(leaves);
}

/** Where each kept value is read, from the record (a part's path already holds its parents'). */
function keptPaths(fields: readonly Field[]): string[][] {
  return fields.flatMap((f) => (f.kind === "object" ? keptPaths(f.children) : [f.source.path]));
}

type Schema = { [key: string]: unknown };

/**
 * A response assembled from the spec's own property examples: through `$ref` and `allOf`, with one
 * list item per `oneOf` branch so that mixed lists (a folder's files, folders and web links) hold each kind.
 */
function exampleFromProperties(document: Schema, node: unknown, depth = 0): unknown {
  let schema = node as Schema;
  while (typeof schema["$ref"] === "string")
    schema = (schema["$ref"] as string)
      .slice(2)
      .split("/")
      .reduce<Schema>((at, key) => at[key] as Schema, document);
  if ("example" in schema) return schema["example"];
  if (depth > 8) return undefined;
  const branches = [...((schema["oneOf"] as unknown[]) ?? []), ...((schema["anyOf"] as unknown[]) ?? [])];
  if (schema["type"] === "array" && schema["items"] !== undefined) {
    let items = schema["items"] as Schema;
    while (typeof items["$ref"] === "string")
      items = (items["$ref"] as string)
        .slice(2)
        .split("/")
        .reduce<Schema>((at, key) => at[key] as Schema, document);
    const variants = [...((items["oneOf"] as unknown[]) ?? []), ...((items["anyOf"] as unknown[]) ?? [])];
    return (variants.length > 0 ? variants : [items])
      .map((item) => exampleFromProperties(document, item, depth + 1))
      .filter((v) => v !== undefined);
  }
  if (branches.length > 0 && schema["properties"] === undefined && schema["allOf"] === undefined)
    return exampleFromProperties(document, branches[0], depth + 1);
  const record: Record<string, unknown> = {};
  for (const part of (schema["allOf"] as unknown[]) ?? []) {
    const value = exampleFromProperties(document, part, depth + 1);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) Object.assign(record, value);
    // `allOf: [{ type: string, example }, { nullable: false }]`: the example of a plain value.
    else if (value !== undefined && schema["properties"] === undefined) return value;
  }
  for (const [name, property] of Object.entries((schema["properties"] as Schema) ?? {})) {
    const value = exampleFromProperties(document, property, depth + 1);
    if (value !== undefined) record[name] = value;
  }
  return Object.keys(record).length > 0 ? record : undefined;
}

function responseExample(api: (typeof APIS)[number], tool: ToolModel, document: () => Schema): unknown {
  if (api.examples !== "properties") return tool.example;
  const operation = ((document()["paths"] as Schema)[tool.response.path] as Schema)[tool.response.method] as Schema;
  const media = (((operation["responses"] as Schema)[tool.response.status] as Schema)["content"] as Schema)[
    tool.response.mediaType
  ] as Schema;
  return exampleFromProperties(document(), media["schema"]);
}

function rowsOf(tool: ToolModel, example: unknown): unknown[] {
  const rows = valuesAt(example, tool.rowsPath);
  return tool.many ? rows : rows.slice(0, 1);
}

for (const entry of APIS) {
  const { api, spec, tools } = entry;
  describe.skipIf(!existsSync(join(REAL_SPECS, spec)))(`${api}: a hand-written annotation over the real spec`, () => {
    const folder = join(ROOT, "test/real-rest", api);
    let generated: Awaited<ReturnType<typeof generateFrom>>;
    let module: Record<string, Project>;
    let document: Schema | undefined;
    const specDocument = () => (document ??= JSON.parse(readFileSync(join(REAL_SPECS, spec), "utf8")) as Schema);
    beforeAll(async () => {
      generated = await generateFrom(join(folder, "projector.yaml"));
      if (generated.problems.length === 0) module = await importGenerated(generated.files);
    }, 120_000);

    it("generates without a problem", () => {
      expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
      expect(generated.model!.tools.map((t) => t.name).sort()).toEqual([...tools].sort());
    });

    it("generates code that compiles under the strict flags", () => {
      expect(generated.files.size).toBeGreaterThan(0);
      expect(typecheckFiles(generated.files)).toEqual([]);
    }, 120_000);

    it.each(tools)("projects the spec's own example of %s to the checked-in result", async (name) => {
      const tool = generated.model!.tools.find((t) => t.name === name)!;
      const example = responseExample(entry, tool, specDocument);
      expect(example, `${name} has a response example in the spec`).toBeDefined();
      // Every resolver names an id "<resolver> <id>", and records what it was asked.
      const calls: Record<string, string[][]> = {};
      const resolvers = Object.fromEntries(
        generated.model!.resolvers.map((r) => [
          r.name,
          async (ids: readonly string[]) => {
            (calls[r.name] ??= []).push([...ids]);
            return new Map(ids.map((id) => [id, `${r.name} ${id}`]));
          },
        ]),
      );
      const issues: unknown[] = [];
      const result = await module[`project${pascalCase(name)}`]!(example, resolvers, { onIssue: (issue: unknown) => issues.push(issue) });
      for (const [resolver, made] of Object.entries(calls)) expect(made.length, `${resolver} calls`).toBe(1);

      const projectedRows = tool.list === undefined ? [result] : ((result as Record<string, unknown>)[tool.list] as unknown[]);
      for (const [index, row] of rowsOf(tool, example).entries()) {
        const projected = new Set(leaves(projectedRows[index]));
        // Never a silent null: a top-level field the example sends is not null in the result.
        for (const field of tool.resource.fields) {
          if (field.kind === "object" || valuesAt(row, field.source.path).length === 0) continue;
          expect((projectedRows[index] as Record<string, unknown>)[field.out], `${field.name} came out null`).not.toBeNull();
        }
        const kept = new Set(keptPaths(tool.resource.fields).flatMap((path) => valuesAt(row, path).flatMap(leaves)));
        for (const dropped of tool.resource.dropped) {
          for (const value of valuesAt(row, dropped.name.split(".")).flatMap(leaves)) {
            if (typeof value === "string" && !kept.has(value)) expect(projected.has(value), `${dropped.name}: ${value} leaked`).toBe(false);
          }
        }
      }

      const file = join(folder, "expected", `${name}.json`);
      if (WRITE) {
        mkdirSync(join(folder, "expected"), { recursive: true });
        writeFileSync(file, `${JSON.stringify({ result, issues, calls }, null, 2)}\n`);
      }
      expect({ result, issues, calls }).toStrictEqual(JSON.parse(readFileSync(file, "utf8")));
    });
  });
}
