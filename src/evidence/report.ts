import type { ToolModel } from "../model/types.js";
import { leafFields } from "../rules/field.js";
import { countDefinitions, type CarriedDefinition, type DefinitionsCount } from "./definitions.js";
import { handleKeys } from "./handles.js";
import { classifyJson, PARTS, type Part, type PartRules } from "./parts.js";
import { countParts, countText, guessError, type TextCount, type TokenizerName } from "./tokens.js";

export interface Measured extends TextCount {
  records: number;
}

/** A raw text's count with its tokens by part. */
type PartsCount = TextCount & { parts: Record<Part, number> };

export interface TokensReport {
  tool: string;
  tokenizer: TokenizerName;
  /** `perRecord` is the mean over the page's records, each counted on its own. */
  raw: Measured & { parts: Record<Part, number>; perRecord: PartsCount | null };
  projected: Measured & { perRecord: TextCount | null };
  /** The whole result as each text a tool can send: `sent` is the one it does send (`text:` in the annotation). */
  texts: { sent: "json" | "table"; json: TextCount; table: TextCount | null };
  /** What the result's `next` costs in the text sent for this page, and its value here; null for a tool without one. */
  next: { tokens: number; value: string | null } | null;
  /** Distinct join ids the raw payload could not name by itself: one follow-up call each for an agent. */
  followUpsAvoided: number;
  followUpsByResolver: Record<string, number>;
  /**
   * What the handles cost per page: the ids the model can pass to a tool (argument ids, and the ids
   * kept beside joined names), as the tokens the JSON result loses without them. Null when there are none.
   */
  handles: { keys: string[]; tokens: number } | null;
  /** Tokens of one sample lookup result, and of all the avoided lookups at that size. */
  lookup: { sampleTokens: number; tokens: number } | null;
  /** The tools' definitions (name, description, inputSchema) the model reads with every request, per tool and all together. */
  toolDefinitions: DefinitionsCount;
  definitions: Record<Part, string>;
}

export const PART_DEFINITIONS: Record<Part, string> = {
  structure: "keys, punctuation and each record's type discriminator",
  links: "every `links` member, key and value, and any http(s) URL",
  ids: "values of id members, of join and argument fields and *_id fields, and strings holding a UUID",
  enums: "values of coded fields: those with a legend, and integer enums",
  facts: "every other value: the text, numbers, dates and nulls a model can say",
};

/** Which source fields hold ids and which hold codes, from the annotation's decisions and the spec. */
export function partRules(tool: ToolModel): PartRules {
  const idFields = new Set<string>();
  const enumFields = new Set<string>();
  for (const field of leafFields(tool.resource.fields)) {
    const leaf = field.source.path[field.source.path.length - 1]!;
    if (field.kind === "join" || field.kind === "related-id" || (field.kind === "value" && field.argumentOf)) idFields.add(leaf);
    else if (
      field.kind === "value" &&
      (field.legend || (field.shape.type === "literal" && field.shape.values.every((v) => typeof v === "number")))
    )
      enumFields.add(leaf);
  }
  return { idFields, enumFields };
}

export interface ReportInput {
  tool: ToolModel;
  tokenizer: TokenizerName;
  raw: unknown;
  rawRecords: unknown[];
  projectedText: string;
  projectedRecordTexts: string[];
  /** The result as compact JSON, and as a table where the tool returns a list. */
  jsonText: string;
  tableText?: string;
  /** The result as compact JSON with every handle left out, where the records have handles. */
  jsonTextWithoutHandles?: string;
  /** The text sent without the result's `next`, for a tool that has one. */
  withoutNextText?: string;
  followUpsByResolver: Record<string, number>;
  lookupSample?: string;
  /** The generated `toolDefinitions`. */
  toolDefinitions: readonly CarriedDefinition[];
}

export function buildReport(input: ReportInput): TokensReport {
  const rules = partRules(input.tool);
  const rawText = classifyJson(input.raw, rules);
  const rawRecords = input.rawRecords.map((record) => classifyJson(record, rules));
  const followUpsAvoided = Object.values(input.followUpsByResolver).reduce((a, b) => a + b, 0);
  const count = (text: string) => countText(text, input.tokenizer);
  const sampleTokens = input.lookupSample === undefined ? undefined : count(input.lookupSample).tokens;
  return {
    tool: input.tool.name,
    tokenizer: input.tokenizer,
    raw: {
      ...count(rawText.text),
      records: input.rawRecords.length,
      parts: countParts(rawText, input.tokenizer),
      perRecord: meanRecord(rawRecords.map((record) => ({ ...count(record.text), parts: countParts(record, input.tokenizer) }))),
    },
    projected: {
      ...count(input.projectedText),
      records: input.projectedRecordTexts.length,
      perRecord: meanCount(input.projectedRecordTexts.map(count)),
    },
    texts: {
      sent: input.tool.text,
      json: count(input.jsonText),
      table: input.tableText === undefined ? null : count(input.tableText),
    },
    handles:
      input.jsonTextWithoutHandles === undefined
        ? null
        : {
            keys: handleKeys(input.tool.resource.fields),
            tokens: count(input.jsonText).tokens - count(input.jsonTextWithoutHandles).tokens,
          },
    next: nextCost(input),
    followUpsAvoided,
    followUpsByResolver: input.followUpsByResolver,
    lookup: sampleTokens === undefined ? null : { sampleTokens, tokens: sampleTokens * followUpsAvoided },
    toolDefinitions: countDefinitions(input.toolDefinitions, input.tokenizer),
    definitions: PART_DEFINITIONS,
  };
}

/** The mean of each record's own count, rounded as a count is; the bytes/4 error is that of the means. */
function meanCount(counts: readonly TextCount[]): TextCount | null {
  if (counts.length === 0) return null;
  const mean = (of: (count: TextCount) => number) => Math.round(counts.reduce((sum, count) => sum + of(count), 0) / counts.length);
  const tokens = mean((c) => c.tokens);
  const bytesOver4 = mean((c) => c.bytesOver4);
  return { tokens, bytes: mean((c) => c.bytes), bytesOver4, bytesOver4Error: guessError(bytesOver4, tokens) };
}

/** {@link meanCount} with the mean of each part, rounded so that the parts still add up to the tokens. */
function meanRecord(counts: readonly PartsCount[]): PartsCount | null {
  const mean = meanCount(counts);
  if (!mean) return null;
  const exact = PARTS.map((part) => counts.reduce((sum, count) => sum + count.parts[part], 0) / counts.length);
  const parts = exact.map(Math.floor);
  const byRemainder = PARTS.map((_, i) => i).sort((a, b) => exact[b]! - parts[b]! - (exact[a]! - parts[a]!) || a - b);
  for (let left = mean.tokens - parts.reduce((a, b) => a + b, 0), i = 0; left > 0; left--, i++) parts[byRemainder[i % PARTS.length]!]!++;
  return { ...mean, parts: Object.fromEntries(PARTS.map((part, i) => [part, parts[i]!])) as Record<Part, number> };
}

/** The tokens `next` adds to the text sent, and its value, read back from the result's JSON. */
function nextCost(input: ReportInput): TokensReport["next"] {
  if (input.withoutNextText === undefined) return null;
  const value = (JSON.parse(input.jsonText) as { next?: unknown }).next;
  return {
    tokens: countText(input.projectedText, input.tokenizer).tokens - countText(input.withoutNextText, input.tokenizer).tokens,
    value: typeof value === "string" ? value : null,
  };
}

const number = (n: number) => n.toLocaleString("en-US");
const signed = (n: number) => `${n > 0 ? "+" : ""}${n}%`;
const percentSaved = (raw: number, projected: number) => (raw === 0 ? "" : `${Math.round((1 - projected / raw) * 100)}% fewer`);

/** The report as a person reads it: an aligned table, raw against projected. */
export function formatReport(report: TokensReport): string {
  const rows: string[][] = [["", "", "raw", "projected", ""]];
  const block = (label: string, raw: TextCount | null, projected: TextCount | null) => {
    if (!raw || !projected) return;
    rows.push([label, "tokens", number(raw.tokens), number(projected.tokens), percentSaved(raw.tokens, projected.tokens)]);
    rows.push(["", "bytes", number(raw.bytes), number(projected.bytes), ""]);
    rows.push([
      "",
      "bytes/4 guess",
      `${number(raw.bytesOver4)} (${signed(raw.bytesOver4Error)})`,
      `${number(projected.bytesOver4)} (${signed(projected.bytesOver4Error)})`,
      "",
    ]);
  };
  // One record's count where the tool returns one; a page's records differ, so theirs is the mean, and says so.
  const record = report.raw.records > 1 ? `record (mean of ${number(report.raw.records)})` : "record";
  block(`per ${record}`, report.raw.perRecord, report.projected.perRecord);
  block("per page", report.raw, report.projected);
  rows.push(["records", "", number(report.raw.records), number(report.projected.records), ""]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r) =>
    r
      .map((cell, c) => (c >= 2 && c <= 3 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd(),
  );
  const parts = report.raw.perRecord?.parts ?? report.raw.parts;
  const lines = [
    `${report.tool}: raw response against projected result, counted with ${report.tokenizer}`,
    "",
    ...table,
    "",
    `raw ${report.raw.perRecord ? record : "page"} by part (tokens): ${PARTS.map((p) => `${p} ${number(parts[p])}`).join(", ")}`,
    textsLine(report.texts),
  ];
  if (report.handles) lines.push(handlesLine(report.handles, report.texts.json.tokens));
  if (report.next)
    lines.push(
      `next: ${number(report.next.tokens)} tokens of the page's text, ${report.next.value === null ? "null here (the last page, or a next the payload cannot give)" : `here ${JSON.stringify(report.next.value)}`}`,
    );
  const byResolver = Object.entries(report.followUpsByResolver).filter(([, n]) => n > 0);
  lines.push(
    `follow-up lookups avoided: ${report.followUpsAvoided}${byResolver.length ? ` (${byResolver.map(([r, n]) => `${r} ${n}`).join(", ")})` : ""}` +
      (report.lookup ? `, about ${number(report.lookup.tokens)} tokens at ${number(report.lookup.sampleTokens)} per lookup result` : ""),
  );
  lines.push("", ...definitionsLines(report), "", "parts:", ...PARTS.map((p) => `  ${p.padEnd(9)} ${report.definitions[p]}`));
  return `${lines.join("\n")}\n`;
}

/** What the tools' definitions cost: every request to the model carries all of them, whatever it calls. */
function definitionsLines(report: TokensReport): string[] {
  const { tools, tokens } = report.toolDefinitions;
  const rows = [
    ["tool", "description", "inputSchema", "definition"],
    ...tools.map((t) => [t.name, number(t.description), number(t.inputSchema), number(t.tokens)]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r, i) => {
    const marker = i > 0 && tools[i - 1]!.name === report.tool ? "* " : "  ";
    return marker + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  });
  return [
    `tool definitions, carried by every request to the model: ${number(tokens)} tokens for all ${tools.length} (name, description, inputSchema as JSON)`,
    ...table,
  ];
}

/** What the ids the model can pass on cost, so that `argument:` and `shorten:` are chosen on figures too. */
function handlesLine(handles: NonNullable<TokensReport["handles"]>, jsonTokens: number): string {
  const share = jsonTokens === 0 ? 0 : Math.round((handles.tokens / jsonTokens) * 100);
  return `handles (ids the model can pass to a tool: ${handles.keys.join(", ")}): ${number(handles.tokens)} tokens per page, ${share}% of the JSON result`;
}

/** Both texts of the result, marking the one the tool sends, so `text: table` is chosen on figures. */
function textsLine(texts: TokensReport["texts"]): string {
  const json = `${number(texts.json.tokens)} tokens`;
  if (!texts.table) return `text: JSON ${json} (sent; a tool returning one record has no table)`;
  const table = number(texts.table.tokens);
  const saved =
    texts.table.tokens <= texts.json.tokens
      ? percentSaved(texts.json.tokens, texts.table.tokens)
      : `${number(texts.table.tokens - texts.json.tokens)} more`;
  return texts.sent === "table"
    ? `text: table ${table} tokens (sent, ${saved}); JSON ${json}`
    : `text: JSON ${json} (sent); table ${table} (${saved}; \`text: table\` sends it)`;
}
