import type { JsonSchema, ToolModel } from "../model/types.js";
import { commentText, literal } from "./ts.js";
import type { ModuleWriter } from "./module.js";

/** What `next` adds to a list tool's module: its rule, its member of the result, and its type. */
export interface NextPageCode {
  /** The `NEXT` constant, with its comment. */
  rule: string[];
  /** The result's `next` member, given the records, how many the API returned, and the records as projected. */
  member: (records: string, returned: string, rows: string) => string;
  /** The member reads the projected rows: the value it continues after is shown in them. */
  readsRows: boolean;
  type: string;
}

/**
 * The runtime's `NextPageRule` for a tool: with the query parameters the model sets as the tool's
 * call reads and sends them, and their arguments' schemas, so that a `next` is handed out only
 * where the tool takes it back.
 */
function nextPageRule(tool: ToolModel & { next: NonNullable<ToolModel["next"]> }) {
  const { path, source, settable, fixed, defaultLimit } = tool.next;
  const parameters = tool.inputs.parameters.filter((p) => p.in === "query" && settable.includes(p.name));
  const schema: JsonSchema = { properties: Object.fromEntries(parameters.map((p) => [p.argument!, p.schema])) };
  return {
    path,
    source,
    parameters: parameters.map((p) => ({
      name: p.name,
      in: p.in,
      argument: p.argument!,
      ...(p.legend ? { legend: p.legend } : {}),
      ...(p.serialization ? { style: p.serialization.style, explode: p.serialization.explode } : {}),
    })),
    schema,
    ...(fixed ? { fixed } : {}),
    ...(defaultLimit !== undefined ? { defaultLimit } : {}),
  };
}

/** An object member, written short where its value is a variable of its name. */
const named = (name: string, value: string) => (value === name ? name : `${name}: ${value}`);

/** The code of a tool's `page.next`, or undefined for a tool without one. */
export function nextPageCode(module: ModuleWriter, tool: ToolModel): NextPageCode | undefined {
  if (!tool.next) return undefined;
  const rule = nextPageRule({ ...tool, next: tool.next });
  const readsRows = "shown" in rule.source;
  return {
    rule: [
      `/** Where a ${commentText(tool.name)} response says its next page is, and the query parameters a \`next\` may carry. */`,
      `const NEXT: ${module.runtimeType("NextPageRule")} = ${literal(rule)};`,
      "",
    ],
    member: (records, returned, rows) =>
      `next: ${module.runtime("nextPage")}(NEXT, { response, ${named("records", records)}, returned: ${returned}, exchange: options.exchange, ctx${readsRows ? `, ${named("rows", rows)}` : ""} })`,
    readsRows,
    type: "next: string | null;",
  };
}

/** The JSON Schema of the result's `next`, which tells the model how to use it. */
export const NEXT_RESULT_SCHEMA = {
  anyOf: [{ type: "string" }, { type: "null" }],
  description: "Pass it as `next`, with the other arguments as before, for the following page; null on the last page.",
};

/** The JSON Schema of the input's `next`. */
export const NEXT_INPUT_SCHEMA = {
  type: "string",
  description: "The `next` of a result, for the following page; pass the other arguments as before.",
};
