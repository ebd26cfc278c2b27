// Generated code is laid out without prettier, as prettier lays it out with its default options
// (src/prettier-layout). Each case is the literal output, checked against prettier itself too; every
// emitted file of every golden scenario must be laid out here, not handed to prettier.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { printLikePrettier } from "../src/prettier-layout/index.js";
import { STRETCH_CHARACTERS, stretchesOf } from "../src/prettier-layout/stretches.js";
import { ROOT } from "./helpers/pipeline.js";

const byPrettier = (text: string) => prettier.format(text, { parser: "babel-ts", filepath: "x.ts" });

const CASES: [name: string, input: string, output: string][] = [
  [
    "a union that breaks after the `=`, then one member a line",
    'export type Status = "new" | "pending" | "open" | "resolved" | "closed" | "archived" | "deleted" | "x";\n',
    'export type Status =\n  | "new"\n  | "pending"\n  | "open"\n  | "resolved"\n  | "closed"\n  | "archived"\n  | "deleted"\n  | "x";\n',
  ],
  [
    "a member whose union breaks under its key",
    'export interface TicketResult { status: "new" | "pending" | "open" | "resolved" | "closed" | null | UnknownCode | Unusable; }\n',
    'export interface TicketResult {\n  status:\n    | "new"\n    | "pending"\n    | "open"\n    | "resolved"\n    | "closed"\n    | null\n    | UnknownCode\n    | Unusable;\n}\n',
  ],
  [
    "call arguments one a line where they do not fit",
    'const value = readSomething(attributes?.["a_long_attribute_name"], TICKET_STATUS_CODE, ctx, "status_code", REQUIRED);\n',
    'const value = readSomething(\n  attributes?.["a_long_attribute_name"],\n  TICKET_STATUS_CODE,\n  ctx,\n  "status_code",\n  REQUIRED,\n);\n',
  ],
  [
    "a last arrow argument hugged",
    'export function f() { return withDistinctShortIds(options.onIssue, 0, (recordOptions) => { const ctx = context("t", recordOptions); return ctx; }); }\n',
    'export function f() {\n  return withDistinctShortIds(options.onIssue, 0, (recordOptions) => {\n    const ctx = context("t", recordOptions);\n    return ctx;\n  });\n}\n',
  ],
  [
    "a last arrow argument that cannot be hugged",
    'const total = pageValue(response, ["total"], ctx, "total", (value) => integer(value, ctx, "total", OPTIONAL));\n',
    'const total = pageValue(response, ["total"], ctx, "total", (value) =>\n  integer(value, ctx, "total", OPTIONAL),\n);\n',
  ],
  [
    "a long access path moved under the `=`",
    'export type SearchTicketsResponse = paths["/tickets"]["get"]["responses"][200]["content"]["application/vnd.api+json"];\n',
    'export type SearchTicketsResponse =\n  paths["/tickets"]["get"]["responses"][200]["content"]["application/vnd.api+json"];\n',
  ],
  [
    "a conditional argument",
    'const x = { get_addon: (args, call = {}) => callTool(options.client, "get_addon", getAddonCall, getAddonInputSchema, args, (response) => projectGetAddon(response as GetAddonResponse, options.resolvers, call.signal ? { ...projection, signal: call.signal } : projection), { ...timeout, ...call }) };\n',
    'const x = {\n  get_addon: (args, call = {}) =>\n    callTool(\n      options.client,\n      "get_addon",\n      getAddonCall,\n      getAddonInputSchema,\n      args,\n      (response) =>\n        projectGetAddon(\n          response as GetAddonResponse,\n          options.resolvers,\n          call.signal ? { ...projection, signal: call.signal } : projection,\n        ),\n      { ...timeout, ...call },\n    ),\n};\n',
  ],
  [
    "JSDoc re-indented inside an interface",
    'export interface Resolvers {\n/** Labels for the ids\n * joined through "users". */\nreadonly users: Resolver;\n}\n',
    'export interface Resolvers {\n  /** Labels for the ids\n   * joined through "users". */\n  readonly users: Resolver;\n}\n',
  ],
  [
    "a function whose parameters break",
    "export function projectTicket(record: TicketRecord, lookups: TicketLookups, options: RecordOptions = {}): TicketResult { return { id: 1 }; }\n",
    "export function projectTicket(\n  record: TicketRecord,\n  lookups: TicketLookups,\n  options: RecordOptions = {},\n): TicketResult {\n  return { id: 1 };\n}\n",
  ],
  [
    "a Map with type arguments that break",
    'const TICKET_STATUS_CODE = new Map<unknown, "new" | "pending" | "open" | "resolved" | "closed">([[1, "new"], [2, "pending"]]);\n',
    'const TICKET_STATUS_CODE = new Map<\n  unknown,\n  "new" | "pending" | "open" | "resolved" | "closed"\n>([\n  [1, "new"],\n  [2, "pending"],\n]);\n',
  ],
  [
    "quotes chosen by the string's content and keys unquoted where they can be",
    'const o = { "plain": "say \\"hi\\"", "needs-quotes": \'it\', ok: "x" };\n',
    'const o = { plain: \'say "hi"\', "needs-quotes": "it", ok: "x" };\n',
  ],
  [
    "numbers filled onto lines",
    'const SEVERITY = new Map<unknown, "info" | "low">([[1, "info"]]);\nconst LEVELS = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700];\n',
    'const SEVERITY = new Map<unknown, "info" | "low">([[1, "info"]]);\nconst LEVELS = [\n  100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400,\n  1500, 1600, 1700,\n];\n',
  ],
  [
    "a function that sets the fields of this, its parameters broken",
    'function fillTicketResult(this: TicketResult, v0: TicketResult["id"], v1: TicketResult["last-update"]): void { this.id = v0; this["last-update"] = v1; }\n',
    'function fillTicketResult(\n  this: TicketResult,\n  v0: TicketResult["id"],\n  v1: TicketResult["last-update"],\n): void {\n  this.id = v0;\n  this["last-update"] = v1;\n}\n',
  ],
  [
    "parentheses around simple types dropped",
    "export type ImagesGetArguments = { image_id: (number) | (string); };\n",
    "export type ImagesGetArguments = { image_id: number | string };\n",
  ],
];

describe("printLikePrettier", () => {
  it.each(CASES)("%s", async (_name, input, output) => {
    expect(printLikePrettier(input)).toBe(output);
    expect(await byPrettier(input)).toBe(output);
  });

  it("keeps an empty function body on one line, as prettier does", async () => {
    const input = "export function f() {}\nconst g = () => {};\n";
    expect(printLikePrettier(input)).toBe(input);
    expect(await byPrettier(input)).toBe(input);
  });

  it("leaves to prettier what it does not lay out", () => {
    expect(printLikePrettier("class A { x = 1; }\n")).toBeUndefined();
    expect(printLikePrettier("const a = b ? (c ? d : e) : f;\n")).toBeUndefined();
    expect(printLikePrettier("const a = `x`;\n")).toBeUndefined();
    expect(printLikePrettier("const a = {\n")).toBeUndefined();
  });

  it.each([
    ["a comment among arguments", "const x = f(a, /* c */ b);\n"],
    ["a comment after a statement", "const x = 1; // c\nconst y = 2;\n"],
    ["a comment closing a block", "export function f() {\n  const a = 1;\n  // last\n}\n"],
    ["a comment after an object's last property", "const x = {\n  a: 1,\n  // dangling\n};\n"],
    ["a comment inside a type", 'const x: /* c */ string = "a";\n'],
    ["a method called on a number", "const x = 1.5.toFixed(2);\n"],
    ["a hexadecimal number", "const x = 0xff;\n"],
    ["a line break after return, which ends the statement", "export function f() {\n  return\n  x;\n}\n"],
    ["a Markdown line break in JSDoc", "/**\n * a  \n * b\n */\nexport const a = 1;\n"],
    ["an empty block after if, which prettier breaks", "export function f() {\n  if (a) {}\n}\n"],
    ["an empty block after for...of", "export function f() {\n  for (const x of xs) {}\n}\n"],
    ["an empty block alone", "{}\n"],
    ["an assignment to other than a member of this", "function f(v: string): void {\n  x.id = v;\n}\n"],
    ["an assignment of other than a parameter", "function f(): void {\n  this.id = g(1);\n}\n"],
    [
      "an assignment too long to be sure prettier keeps it on its line",
      "function f(v0: string): void {\n  this.a_field_whose_name_runs_on_and_on_and_on_and_on_and_on_and_on = v0;\n}\n",
    ],
  ])("never drops or misreads what it does not lay out: %s", (_name, input) => {
    expect(printLikePrettier(input)).toBeUndefined();
  });
});

describe("stretchesOf", () => {
  it.each([
    [
      "cut at blank lines between top-level statements",
      "const a = 1;\n\nexport const b = 2;\n\n/** c */\ntype C = string;\n",
      ["const a = 1;\n", "export const b = 2;\n", "/** c */\ntype C = string;\n"],
    ],
    [
      "a block's end may end a stretch",
      "function f() {\n  return 1;\n}\n\nconst a = 1;\n",
      ["function f() {\n  return 1;\n}\n", "const a = 1;\n"],
    ],
    ["not where a line comment ends the line before", "const a = 1; // why;\n\nconst b = 2;\n", ["const a = 1; // why;\n\nconst b = 2;\n"]],
    ["not inside a block, whose lines are indented", "function f() {\n  a();\n\n  b();\n}\n", ["function f() {\n  a();\n\n  b();\n}\n"]],
    [
      "not before a line that can run on from the one before",
      "const a = b;\n\nas();\n\nx.y = 1;\n",
      ["const a = b;\n\nas();\n\nx.y = 1;\n"],
    ],
    ["not at the second of two blank lines", "const a = 1;\n\n\nconst b = 2;\n", ["const a = 1;\n\n\nconst b = 2;\n"]],
  ])("%s", (_name, text, stretches) => {
    expect(stretchesOf(text, 1)).toEqual(stretches);
    expect(stretchesOf(text, 1).join("\n")).toBe(text);
  });

  it("keeps every stretch at least as long as asked", () => {
    const text = "const a = 1;\n\nconst b = 2;\n\nconst c = 3;\n\nconst d = 4;\n";
    expect(stretchesOf(text, 20)).toEqual(["const a = 1;\n\nconst b = 2;\n", "const c = 3;\n\nconst d = 4;\n"]);
  });
});

describe("a file long enough to be laid out in stretches", () => {
  const statement = (i: number) =>
    `/** Record ${i}. */\nexport function project${i}(record: Record${i}, options: RecordOptions = {}): Result${i} { return { id: shortArgumentId(record?.["id"], ctx, "id", REQUIRED), n: ${i} }; }\n`;
  const many = (count: number, between: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => statement(i) + between(i)).join("");
  const count = Math.ceil((3 * STRETCH_CHARACTERS) / statement(0).length);

  it("is laid out as prettier lays it out whole", async () => {
    const text = many(count, () => "\n");
    expect(stretchesOf(text).length).toBeGreaterThan(2);
    expect(printLikePrettier(text)).toBe(await byPrettier(text));
  });

  it("is laid out whole where a cut would fall inside a block", async () => {
    // Inside a function written unindented, a blank line between two lines that read as statements.
    const text = many(count, (i) => (i % 2 ? "\nfunction g() {\na();\n\nconst b = 1;\n\nconst c = 2;\n}\n\n" : "\n"));
    expect(stretchesOf(text).some((stretch) => /^const [bc] = /.test(stretch))).toBe(true);
    expect(printLikePrettier(text)).toBe(await byPrettier(text));
  });
});

const GOLDEN_FOLDERS = [
  join(ROOT, "generated/support"),
  ...readdirSync(join(ROOT, "specs/scenarios"))
    .map((name) => join(ROOT, "specs/scenarios", name, "generated"))
    .filter((folder) => existsSync(folder)),
];
const emittedFiles = GOLDEN_FOLDERS.flatMap((folder) =>
  readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.startsWith("runtime") && !file.endsWith("openapi.ts"))
    .map((file) => join(folder, file)),
);

describe("every emitted file of the golden scenarios", () => {
  it.each(emittedFiles.map((file) => [file.slice(ROOT.length + 1), file]))("%s is laid out as prettier left it", (_name, file) => {
    const text = readFileSync(file, "utf8");
    expect(printLikePrettier(text)).toBe(text);
  });
});
