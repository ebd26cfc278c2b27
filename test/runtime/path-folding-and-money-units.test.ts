// A path parameter is refused where any common server, folding what it receives before routing,
// would read it as another path; and an amount of money is written only in a currency with a minor
// unit to count it in, with the decimals ISO 4217 gives that unit.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import currencyCodes from "currency-codes";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCY_DECIMALS as GENERATOR_CURRENCY_DECIMALS, NO_MINOR_UNIT as GENERATOR_NO_MINOR_UNIT } from "../../src/rules/money.js";
import { callTool, type ToolCall } from "../../templates/runtime/call-tool.js";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { CURRENCY_DECIMALS, currencyDecimals, money, NO_MINOR_UNIT } from "../../templates/runtime/money.js";
import { duration } from "../../templates/runtime/duration.js";
import { pathSegmentProblem } from "../../templates/runtime/path-segments.js";
import { PAST_2_53 } from "../../templates/runtime/values.js";
import { type LocalApi, startLocalApi } from "../helpers/local-api.js";
import { generateFrom, importGenerated, ROOT, tempDir } from "../helpers/pipeline.js";

const SPEC = `openapi: 3.0.3
info: { title: Files, version: "1" }
paths:
  /files:
    get:
      operationId: listFiles
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: object, properties: { files: { type: array, items: { $ref: "#/components/schemas/File" } } } }
  /files/{file_id}:
    get:
      operationId: getFile
      parameters: [{ name: file_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "#/components/schemas/File" } } }
  /users/{user_id}:
    get:
      operationId: getUser
      parameters: [{ name: user_id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "#/components/schemas/User" } } }
components:
  schemas:
    File:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
        owner_id: { type: string }
        price: { type: integer }
        currency: { type: string }
    User:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
`;

const ANNOTATION = `spec: spec.yaml
output: gen
resolvers:
  users: { label: name, operation: getUser }
resources:
  file:
    schema: File
    fields:
      id: { argument: [get_file] }
      name: keep
      owner_id: { as: owner, join: users }
      price: { format: money, currency: currency }
      currency: { drop: "shown in price" }
  user:
    schema: User
    fields:
      id: { drop: "not shown" }
      name: keep
tools:
  list_files: { operation: listFiles, list: files }
  get_file: { operation: getFile }
`;

type Outcome = { result?: Record<string, unknown>; error?: string };
type Tool = (args: unknown) => Promise<Outcome>;
interface Generated {
  createTools: (options: object) => Record<string, Tool>;
  createResolvers: (client: unknown) => Record<string, unknown>;
}

let generated: Generated;
let api: LocalApi;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "spec.yaml"), SPEC);
  writeFileSync(join(dir, "projector.yaml"), ANNOTATION);
  const output = await generateFrom(join(dir, "projector.yaml"));
  expect(output.problems).toEqual([]);
  generated = await importGenerated<Generated>(output.files);
  api = await startLocalApi();
}, 60_000);

afterAll(() => api?.close());

/** The tools over the local API answering `body` to every request, and the issues they report. */
function tools(body: (path: string) => unknown) {
  api.answer = ({ path }) => ({ text: JSON.stringify(body(path)) });
  api.requests.length = 0;
  const issues: ProjectionIssue[] = [];
  const made = generated.createTools({
    client: createClient({ baseUrl: api.baseUrl }),
    resolvers: generated.createResolvers(createClient({ baseUrl: api.baseUrl })),
    onIssue: (issue: ProjectionIssue) => issues.push(issue),
  });
  return { tools: made, issues };
}

const FOLDED = 'servers may read it as a "..", "." or empty segment, which would change which path is requested';

const file = (id: string) => ({ id, name: "report", owner_id: null, price: 1234, currency: "USD" });

/** What generate says of the money scenario's annotation with these fixed currencies for its two amounts. */
async function moneyProblems(amountCurrency: string, feeCurrency: string) {
  const dir = tempDir();
  writeFileSync(
    join(dir, "projector.yaml"),
    [
      `spec: ${join(ROOT, "specs/scenarios/money/openapi.yaml")}`,
      "output: out",
      "resources:",
      "  payment:",
      "    schema: Payment",
      "    fields:",
      `      amount: { format: money, currency: ${amountCurrency} }`,
      `      fee: { format: money, currency: ${feeCurrency} }`,
      '      currency: { drop: "not shown" }',
      "      description: keep",
    ].join("\n"),
  );
  return (await generateFrom(join(dir, "projector.yaml"))).problems;
}

describe("a path parameter a server would fold into another path", () => {
  it.each([
    ["`..` before a NUL (C and PHP stop there)", "..\u0000", '"..\\u0000"'],
    ["`..` before a NUL and more text", "..\u0000.txt", '"..\\u0000.txt"'],
    ["nothing before a NUL", "\u0000x", '"\\u0000x"'],
    ["`..` and a backslash (IIS and Windows read it as /)", "..\\", '"..\\\\"'],
    ["a climb written with backslashes", "a\\..\\..", '"a\\\\..\\\\.."'],
    ["`..` and a trailing space (Windows drops it)", ".. ", '".. "'],
    ["`..` between spaces and a tab", " ..\t", '" ..\\t"'],
    ["three dots (Windows drops trailing dots)", "...", '"..."'],
    ["a climb written with slashes (read so where %2F is decoded)", "a/../..", '"a/../.."'],
    ["a leading `./`", "./x", '"./x"'],
    ["a slash alone", "/", '"/"'],
    ["spaces alone", "   ", '"   "'],
    ["fullwidth dots (NFKC and Windows' best-fit read `..`)", "\uFF0E\uFF0E", '"\uFF0E\uFF0E"'],
    [
      "a climb with fullwidth dots and backslashes",
      "\uFF0E\uFF0E\uFF3C\uFF0E\uFF0E\uFF3Cadmin",
      '"\uFF0E\uFF0E\uFF3C\uFF0E\uFF0E\uFF3Cadmin"',
    ],
    ["a climb with fullwidth slashes", "a\uFF0F\uFF0E\uFF0E\uFF0F\uFF0E\uFF0E", '"a\uFF0F\uFF0E\uFF0E\uFF0F\uFF0E\uFF0E"'],
    ["small full stops", "\uFE52\uFE52", '"\uFE52\uFE52"'],
    ["one-dot leaders", "\u2024\u2024", '"\u2024\u2024"'],
    ["the two-dot leader", "\u2025", '"\u2025"'],
    ["`..` and a yen sign (code page 932 writes it where ASCII has `\\`)", "..\u00A5x", '"..\u00A5x"'],
    ["`..` and a won sign (code page 949's backslash)", "..\u20A9x", '"..\u20A9x"'],
    ["a climb with division slashes (best-fit `/`)", "a\u2215..\u2215..", '"a\u2215..\u2215.."'],
    ["`..` and a next line (U+0085: Unicode's whitespace, trimmed by .NET and Python)", "..\u0085", '"..\\u0085"'],
    ["a unit separator alone (U+001F: whitespace to Python's `strip`)", "\u001f", '"\\u001f"'],
    ["`..` and a file separator (U+001C)", "..\u001c", '"..\\u001c"'],
    ["the Mongolian vowel separator alone (whitespace before Unicode 6.3)", "\u180e", '"\\u180e"'],
  ])("refuses %s, showing it escaped, and sends nothing", async (_, value, shown) => {
    const { tools: made } = tools(() => file("f1"));
    const outcome = await made["get_file"]!({ file_id: value });
    expect(outcome).toEqual({ error: `get_file: file_id cannot be ${shown}: ${FOLDED}` });
    expect(outcome.error).not.toMatch(/[\u0000\t]/);
    expect(api.requests).toEqual([]);
  });

  it.each([
    ["a version", "v1.2", "/files/v1.2"],
    ["a name with a dot", "a.b", "/files/a.b"],
    ["a file name", "file.txt", "/files/file.txt"],
    ["a hidden file's name", ".env", "/files/.env"],
    ["dots before a letter", "...x", "/files/...x"],
    ["dots after a letter (Windows reads `x`, still one segment)", "x..", "/files/x.."],
    ["a slash between names (two segments where %2F is decoded, neither climbing)", "a/b", "/files/a%2Fb"],
    ["a NUL after a name", "a\u0000", "/files/a%00"],
    ["a price in yen", "\u00A5100", "/files/%C2%A5100"],
    ["fullwidth letters and a fullwidth dot", "\uFF41\uFF0E\uFF42", "/files/%EF%BD%81%EF%BC%8E%EF%BD%82"],
  ])("sends %s", async (_, value, path) => {
    const { tools: made } = tools(() => file(value));
    expect((await made["get_file"]!({ file_id: value })).error).toBeUndefined();
    expect(api.requests).toEqual([path]);
  });
});

describe("a long path parameter", () => {
  it("is folded in one pass, as long as an argument may be: a million dots are refused, and sent once a letter follows them", () => {
    const dots = ".".repeat(1_000_000);
    expect(pathSegmentProblem(dots)).toMatch(/^cannot be "\.{40}"… \(1000000 characters\): servers may read it/);
    expect(pathSegmentProblem(`${dots}x`)).toBeUndefined();
    expect(pathSegmentProblem(`${dots} x/`)).toBeUndefined();
  });
});

describe("an array or object written into a path parameter, folded as the server reads it", () => {
  const getBlob: ToolCall = {
    method: "get",
    path: "/blobs/{key}",
    parameters: [{ name: "key", in: "path", argument: "key", shortIds: false }],
  };
  const anySchema = { type: "object", properties: { key: {} }, required: ["key"] };

  /** A client that records each path it is asked for and answers an empty object. */
  function recording() {
    const paths: string[] = [];
    const client = createClient<any>({
      baseUrl: "https://api.example.com",
      fetch: async (request: Request) => {
        paths.push(new URL(request.url).pathname);
        return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    return { client, paths };
  }
  const asIs = async (response: unknown) => response;

  it.each([
    ["an array item of `..` before a NUL", ["..\u0000", "a"], '"..%00,a"'],
    ["an array item climbing with a backslash", ["a", "\\.."], '"a,%5C.."'],
    ["an object member's value of `..` and a space", { v: "x", w: "/.. " }, '"v,x,w,%2F..%20"'],
  ])("refuses %s", async (_, value, written) => {
    const { client, paths } = recording();
    const kind = Array.isArray(value) ? "an array" : "an object";
    expect(await callTool(client, "get_blob", getBlob, anySchema, { key: value }, asIs)).toEqual({
      error: `get_blob: key cannot be ${kind} written into the path as ${written}: ${FOLDED}`,
    });
    expect(paths).toEqual([]);
  });

  it("sends an array whose items hold dots only beside other text, one segment as before", async () => {
    const { client, paths } = recording();
    await callTool(client, "get_blob", getBlob, anySchema, { key: ["a", "..", "v1.2"] }, asIs);
    expect(paths).toEqual(["/blobs/a,..,v1.2"]);
  });
});

describe("an id a get-by-id resolver would fold into another path", () => {
  it("stays unresolved with an issue saying why, and no request is sent for it", async () => {
    const { tools: made, issues } = tools((path) =>
      path === "/files"
        ? {
            files: [
              { ...file("f1"), owner_id: "..\u0000" },
              { ...file("f2"), owner_id: "u1" },
            ],
          }
        : { id: "u1", name: "Ann" },
    );
    const outcome = await made["list_files"]!({});
    expect(outcome.result?.["files"]).toMatchObject([{ owner: { unresolved: "..\u0000" } }, { owner: "Ann" }]);
    expect(api.requests).toEqual(["/files", "/users/u1"]);
    const unresolved = issues.filter((issue) => issue.kind === "unresolved");
    expect(unresolved.map((issue) => issue.message)).toEqual([
      `file.owner_id: ..\\u0000: resolver "users" failed for it: user_id cannot be "..\\u0000": ${FOLDED}; no request was sent for it`,
    ]);
  });
});

describe("money in a currency ISO 4217 gives no minor unit", () => {
  const NO_MINOR_UNIT_REASON = (code: string) => `${code} has no minor unit in ISO 4217: its amounts cannot be counted in minor units`;

  it("is unusable with that reason, never written with CLDR's default of two decimals", async () => {
    const { tools: made, issues } = tools(() => ({ files: [{ ...file("f1"), currency: "XDR" }] }));
    const outcome = await made["list_files"]!({});
    expect(outcome.result?.["files"]).toMatchObject([{ price: { unusable: NO_MINOR_UNIT_REASON("XDR") } }]);
    expect(issues.map((issue) => issue.message)).toContainEqual(expect.stringContaining(NO_MINOR_UNIT_REASON("XDR")));
  });

  // The codes ISO 4217 List One (published 2024-06-25) gives with minor unit "N.A.".
  const ISO_NO_MINOR_UNIT = ["XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX"];

  it.each(ISO_NO_MINOR_UNIT)("marks an amount in %s unusable, and gives it no decimals", (code) => {
    const ctx = context("payment", { onIssue: () => {} });
    expect(money(1234, { currency: code, field: "amount", required: true, ctx })).toEqual({ unusable: NO_MINOR_UNIT_REASON(code) });
    expect(currencyDecimals(code)).toBeUndefined();
  });

  it("keeps the other currencies, X codes with a minor unit included", () => {
    const ctx = context("payment", { onIssue: () => {} });
    const read = (currency: string) => money(1234, { currency, field: "amount", required: true, ctx });
    expect([read("USD"), read("JPY"), read("KWD"), read("XOF")]).toEqual(["12.34 USD", "1234 JPY", "1.234 KWD", "1234 XOF"]);
  });

  it("is one list in the runtime and in generate, ISO 4217's list", () => {
    expect([...NO_MINOR_UNIT].sort()).toEqual(ISO_NO_MINOR_UNIT);
    expect([...GENERATOR_NO_MINOR_UNIT].sort()).toEqual(ISO_NO_MINOR_UNIT);
  });

  it("is refused by generate where the annotation names it, as an unknown code is", async () => {
    const problems = await moneyProblems("XDR", "XAU");
    expect(problems.map((d) => [d.code, d.message])).toEqual([
      ["PRJ029", `payment.amount: ${NO_MINOR_UNIT_REASON("XDR")}`],
      ["PRJ029", `payment.fee: ${NO_MINOR_UNIT_REASON("XAU")}`],
    ]);
  });
});

describe("money's decimals, as ISO 4217 gives each currency's minor unit", () => {
  const ctx = context("payment", { onIssue: () => {} });
  const read = (amount: number, currency: string) => money(amount, { currency, field: "amount", required: true, ctx });

  it.each(["9007199254740993", "-9007199254740993", "12345678901234567890123"])(
    "marks an amount the parse has rounded (%s) unusable, never quoting the rounded number, and so a duration",
    (written) => {
      const amount = JSON.parse(written) as number;
      expect(read(amount, "USD")).toEqual({ unusable: PAST_2_53 });
      expect(duration(amount, { unit: "seconds", field: "took", required: true, ctx })).toEqual({ unusable: PAST_2_53 });
    },
  );

  it.each([
    [1234, "IQD", "1.234 IQD"],
    [12345, "CLF", "1.2345 CLF"],
    [12345, "UYW", "1.2345 UYW"],
    [1234, "HUF", "12.34 HUF"],
    [1234, "JPY", "1234 JPY"],
    [1234, "KWD", "1.234 KWD"],
  ])("writes %j %s as %j", (amount, currency, written) => {
    expect(read(amount, currency)).toBe(written);
  });

  it.each(["ALL", "AFN", "IRR", "LAK", "LBP", "MGA", "MMK", "SOS", "SYP", "YER", "HUF", "KPW"])(
    "writes %s with two decimals, where Unicode CLDR has none",
    (code) => {
      expect(currencyDecimals(code)).toBe(2);
      expect(read(1234, code)).toBe(`12.34 ${code}`);
    },
  );

  it("marks an amount in a withdrawn currency unusable, and writes the next in IQD with three decimals", async () => {
    expect(currencyDecimals("DEM")).toBeUndefined();
    expect(read(1234, "DEM")).toEqual({ unusable: 'not an ISO 4217 currency code: "DEM"' });
    const { tools: made } = tools(() => ({
      files: [
        { ...file("f1"), currency: "DEM" },
        { ...file("f2"), currency: "IQD" },
      ],
    }));
    const outcome = await made["list_files"]!({});
    expect(outcome.result?.["files"]).toMatchObject([
      { price: { unusable: 'not an ISO 4217 currency code: "DEM"' } },
      { price: "1.234 IQD" },
    ]);
  });

  it("is refused by generate where the annotation names a withdrawn currency, and kept for one CLDR does not know", async () => {
    const problems = await moneyProblems("DEM", "CLF");
    expect(problems.map((d) => [d.code, d.message])).toEqual([["PRJ029", "payment.amount: DEM is not an ISO 4217 currency code"]]);
  });

  it("is one table in the runtime and in generate, ISO 4217 List One as the currency-codes package holds it", () => {
    expect([...GENERATOR_CURRENCY_DECIMALS].sort()).toEqual([...CURRENCY_DECIMALS].sort());
    // The package writes the codes with no minor unit ("N.A." in the list it ships) as 0 digits;
    // they are refused here, and every other code has the package's digits.
    const listOne = readFileSync(createRequire(import.meta.url).resolve("currency-codes/iso-4217-list-one.xml"), "utf8");
    const notApplicable = [...listOne.matchAll(/<Ccy>(\w+)<\/Ccy>\s*<CcyNbr>\d+<\/CcyNbr>\s*<CcyMnrUnts>N\.A\.</g)].map((m) => m[1]);
    expect([...new Set(notApplicable)].sort()).toEqual([...NO_MINOR_UNIT].sort());
    const withMinorUnit = currencyCodes.data.filter((currency) => !NO_MINOR_UNIT.has(currency.code));
    // The Caribbean guilder came into List One after the package's edition.
    expect(Object.fromEntries(CURRENCY_DECIMALS)).toEqual({
      ...Object.fromEntries(withMinorUnit.map((currency) => [currency.code, currency.digits])),
      XCG: 2,
    });
    expect(currencyCodes.publishDate).toBe("2024-06-25");
  });
});
