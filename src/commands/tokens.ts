import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { deeperThan } from "../annotation/parse.js";
import { refusal, hasErrors } from "../diagnostics.js";
import { tableLayoutOf, type TableLayoutModel } from "../model/table-layout.js";
import { standInResolvers } from "../evidence/stand-ins.js";
import type { CarriedDefinition } from "../evidence/definitions.js";
import type { TextRuntime } from "../evidence/example-figures.js";
import { loadGenerated, type Projector } from "../evidence/run-generated.js";
import { handleKeys, withoutHandles } from "../evidence/handles.js";
import { buildReport, formatReport } from "../evidence/report.js";
import { TOKENIZERS, type TokenizerName } from "../evidence/tokens.js";
import type { ToolModel } from "../model/types.js";
import { leafFields } from "../rules/field.js";
import { pascalCase } from "../naming.js";
import { didYouMean } from "../suggest.js";
import { generateProject } from "../project/generate.js";
import { loadProject } from "../project/read.js";
import { printDiagnostics } from "./print.js";
import { EXIT, UsageError, type Io } from "./io.js";

export const TOKENS_HELP = `Usage: projector tokens --tool TOOL [PAYLOAD.json] [options]

Counts, with a real tokenizer, the text a tool sends the model: the raw response (JSON.stringify of
the body) against its projection (through the generated serializer), per record (the mean over a
page's records) and per page, with the bytes/4 guess and its error, the raw record broken down by
part (structure, links, ids, enums, facts), the follow-up lookups the projection saves, and the
tools' definitions (description and inputSchema per tool, and the whole list every request to the
model carries). Without a payload it uses the spec's own example of the response.

Options:
  -c, --config FILE        annotation file (default ./projector.yaml)
      --tool TOOL          the tool, as named under \`tools:\` (required)
      --tokenizer NAME     o200k_base (default) or cl100k_base
      --labels FILE        JSON { resolver: { id: label } } for the resolvers; others get a stand-in label
      --lookup-sample FILE a sample follow-up lookup result (e.g. a get_user body), to price the lookups saved
      --json               print the report as JSON
  -h, --help               this text
`;

export interface TokensOptions {
  config: string;
  tool: string;
  payload?: string;
  tokenizer: string;
  labels?: string;
  lookupSample?: string;
  json: boolean;
}

/** The JSON document in `file`, named as given and read from `cwd`. */
async function readJson(cwd: string, file: string, what: string): Promise<unknown> {
  const fail = (message: string): never => {
    throw refusal("PRJ040", `${what}: ${message}`, "pass a file holding one JSON document", { file });
  };
  const text = await readFile(resolve(cwd, file), "utf8").catch((error: NodeJS.ErrnoException) =>
    fail(error.code === "ENOENT" ? "no such file" : error.message),
  );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`not JSON: ${(error as Error).message}`);
  }
  const deep = deeperThan(value, MAX_PAYLOAD_DEPTH);
  if (deep) fail(`nests more than ${MAX_PAYLOAD_DEPTH} levels deep, at ${deep.slice(0, 8).join(".")}…, past any response an API sends`);
  return value;
}

/** How deep a payload may nest: far past any API's response, and within what the raw breakdown reads. */
const MAX_PAYLOAD_DEPTH = 1_000;

export async function runTokens(options: TokensOptions, io: Io): Promise<number> {
  if (!(options.tokenizer in TOKENIZERS))
    throw new UsageError(`unknown tokenizer "${options.tokenizer}"; use ${Object.keys(TOKENIZERS).join(" or ")}`);
  const tokenizer = options.tokenizer as TokenizerName;
  const project = await loadProject({ config: options.config }, io.cwd);
  const generated = await generateProject(project, { format: false });
  printDiagnostics(io, generated.diagnostics);
  if (hasErrors(generated.diagnostics) || !generated.model) return EXIT.problems;
  const names = generated.model.tools.map((t) => t.name);
  const tool = generated.model.tools.find((t) => t.name === options.tool);
  if (!tool)
    throw new UsageError(`no tool "${options.tool}" in the annotation${didYouMean(options.tool, names)}; tools: ${names.join(", ")}`);
  const payloadLocation =
    options.payload !== undefined ? { file: options.payload } : project.annotation.locate(["tools", tool.name], "key");
  let payload: unknown;
  if (options.payload !== undefined) payload = await readJson(io.cwd, options.payload, "payload");
  else if (tool.example !== undefined) payload = tool.example;
  else
    throw refusal(
      "PRJ041",
      `no payload given, and the spec has no example response for ${tool.operationLabel}`,
      "pass a recorded response: `projector tokens --tool NAME payload.json`",
      payloadLocation,
    );
  const labels =
    options.labels === undefined ? {} : ((await readJson(io.cwd, options.labels, "labels")) as Record<string, Record<string, string>>);
  const lookupSample =
    options.lookupSample === undefined ? undefined : JSON.stringify(await readJson(io.cwd, options.lookupSample, "lookup sample"));
  const modules = await loadGenerated(generated.files);
  try {
    const runtime = modules.runtime as TextRuntime & { at(value: unknown, path: readonly string[]): unknown };
    const project = modules.index[`project${pascalCase(tool.name)}`] as Projector<Record<string, unknown>>;
    const atRows = runtime.at(payload, tool.rowsPath);
    const rawRecords = tool.many ? (Array.isArray(atRows) ? atRows : []) : [atRows];
    // Each follow-up lookup avoided is an id a resolver is asked about: `included` named the others.
    const asked = new Map<string, number>();
    const resolvers = generated.model.resolvers.map((r) => r.name);
    const counting = Object.fromEntries(
      Object.entries(standInResolvers(resolvers, labels)).map(([name, resolver]) => [
        name,
        (ids: readonly string[]) => {
          asked.set(name, (asked.get(name) ?? 0) + ids.length);
          return resolver(ids);
        },
      ]),
    );
    // No request was sent: a next read from the request's own offset starts from the first page.
    const projected = await project(payload, counting, { exchange: { query: {} } }).catch((error: unknown) => {
      // A payload without the records where the spec declares them has nothing to count.
      if (!(error instanceof Error) || error.name !== "ResponseShapeError") throw error;
      throw refusal(
        "PRJ040",
        `${options.payload ?? `the spec's example of ${tool.operationLabel}`}: ${error.message}`,
        `pass a response ${tool.operationLabel} answers, as the API sends it`,
        payloadLocation,
      );
    });
    const followUpsByResolver = Object.fromEntries(joinResolvers(tool).map((name) => [name, asked.get(name) ?? 0]));
    const layout = tableLayoutOf(tool);
    const records = tool.list === undefined ? [projected] : tool.many ? (projected[tool.list] as unknown[]) : [projected[tool.list]];
    const report = buildReport({
      tool,
      tokenizer,
      raw: payload,
      rawRecords,
      projectedText: runtime.serializeToolResult(projected),
      jsonText: JSON.stringify(projected),
      ...(handleKeys(tool.resource.fields).length > 0 ? { jsonTextWithoutHandles: JSON.stringify(withoutHandles(tool, projected)) } : {}),
      ...(layout ? { tableText: runtime.serializeToolResult(runtime.withTableLayout(projected, layout)) } : {}),
      projectedRecordTexts: records.map((r) => runtime.serializeToolResult(r)),
      ...(tool.next ? { withoutNextText: textWithoutNext(projected, layout, runtime) } : {}),
      followUpsByResolver,
      toolDefinitions: modules.index["toolDefinitions"] as CarriedDefinition[],
      ...(lookupSample !== undefined ? { lookupSample } : {}),
    });
    io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  } finally {
    await modules.dispose();
  }
  return EXIT.ok;
}

/** The result's text as the tool would send it without its `next`, to tell what `next` costs. */
function textWithoutNext(projected: Record<string, unknown>, layout: TableLayoutModel | undefined, runtime: TextRuntime): string {
  const { next: _next, ...rest } = projected;
  const sentAsJson = runtime.serializeToolResult(projected) === JSON.stringify(projected);
  if (!layout || sentAsJson) return JSON.stringify(rest);
  return runtime.serializeToolResult(runtime.withTableLayout(rest, { ...layout, page: layout.page.filter((key) => key !== "next") }));
}

const joinResolvers = (tool: ToolModel): string[] => [
  ...new Set(leafFields(tool.resource.fields).flatMap((f) => (f.kind === "join" ? [f.resolver] : []))),
];
