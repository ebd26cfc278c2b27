// The JSON Schema literals generate prints itself, set aside from prettier, must come out byte for
// byte as prettier prints them: compared on random JSON values in every layout prettier chooses
// between (flat, broken, strings moved under their key, arrays that always break), and on whole files.
import fc from "fast-check";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { literal } from "../src/emit/ts.js";
import { formatFiles } from "../src/format.js";
import { putLiteralsBack, setLiteralsAside } from "../src/format-literals.js";
import { printLikePrettier } from "../src/prettier-layout/index.js";
import { textWidth } from "../src/prettier-layout/literals.js";
import { Unsure } from "../src/prettier-layout/source.js";

const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 200) };
const width = prettier.util.getStringWidth;
const byPrettier = (text: string) => prettier.format(text, { parser: "babel-ts", filepath: "x.ts" });

/** Keys as specs name properties: identifiers short and long, keywords, names that need quotes, some with quotes in them. */
const keyName = fc.oneof(
  fc.constantFrom("type", "id", "a", "title", "description", "default", "enum", "$ref", "x-nullable", "200", "it's", 'say "hi"'),
  fc.stringMatching(/^[a-z_][a-zA-Z0-9_]{0,30}$/),
  fc.string({ maxLength: 12 }),
);
const text = fc.oneof(
  fc.string({ maxLength: 90 }),
  fc.stringMatching(/^[a-z "'\\`.,-]{0,120}$/),
  fc.constantFrom("’ curly", "中文字符", "tab\there", "line\nbreak", "\u007f\u0085", "e\u0301", "\u2028"),
);
const scalar = fc.oneof(
  text,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e21, 1.5e-7, 123456789012, null, true, false),
);
const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("array"), tie("object")),
  array: fc.oneof(
    fc.array(tie("json"), { maxLength: 5 }),
    fc.array(fc.integer(), { maxLength: 30 }),
    fc.array(tie("object"), { maxLength: 3 }),
  ),
  object: fc.dictionary(keyName, tie("json"), { maxKeys: 6 }),
}));
// As generate names them (`ticketResultSchema`): never a reserved word such as `do`, which is no name at all.
const statementName = fc.oneof(
  fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,84}$/).map((name) => `${name}Schema`),
  fc.constant("getHourlyUsageInputSchema"),
);
const tail = fc.constantFrom(" as const;", " as const satisfies InputSchema;", ";");
const declaration = fc.constantFrom("export const ", "const ");
const annotation = fc.constantFrom("", ": ToolCall");

describe("JSON literals printed as prettier prints them", () => {
  it("match prettier's output for random values, names and tails", { timeout: 300_000 }, async () => {
    let printed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(keyName, json, { minKeys: 1, maxKeys: 8 }),
        declaration,
        statementName,
        annotation,
        tail,
        async (value, start, name, type, end) => {
          const file = `${start}${name}${type} = ${literal(value)}${end}\n`;
          const aside = setLiteralsAside(file, width);
          if (aside === undefined) return;
          printed++;
          expect(putLiteralsBack(await byPrettier(aside.skeleton), aside)).toBe(await byPrettier(file));
        },
      ),
      RUNS,
    );
    // Most values are printed here rather than left to prettier, or the test would show nothing.
    expect(printed).toBeGreaterThan(RUNS.numRuns / 3);
  });

  it("print named imports and exports as prettier does, on one line or one name per line", { timeout: 300_000 }, async () => {
    // The number in front keeps names apart and reserved words out.
    const identifier = fc.stringMatching(/^[A-Za-z0-9_$]{0,40}$/);
    const specifier = fc.tuple(fc.boolean(), identifier, fc.option(identifier));
    const head = fc.constantFrom("import ", "import type ", "export ", "export type ");
    await fc.assert(
      fc.asyncProperty(
        head,
        fc.array(specifier, { minLength: 1, maxLength: 8 }),
        fc.stringMatching(/^[./a-z-]{1,60}$/),
        async (start, specifiers, from) => {
          const typed = (type: boolean) => (type && !start.includes("type") ? "type " : "");
          const names = specifiers.map(
            ([type, name, alias], i) => `${typed(type)}n${i}${name}${alias === null ? "" : ` as a${i}${alias}`}`,
          );
          const file = `// Generated.\n${start}{ ${names.join(", ")} } from "${from}.js";\nexport const x = 1;\n`;
          const aside = setLiteralsAside(file, width);
          expect(aside?.literals).toHaveLength(1);
          expect(putLiteralsBack(await byPrettier(aside!.skeleton), aside!)).toBe(await byPrettier(file));
        },
      ),
      RUNS,
    );
  });

  it("keep a whole file identical to prettier's, literals among code and literals left to prettier", async () => {
    const schema = {
      type: "object",
      properties: {
        status: { type: "string", enum: ["open", "pending", "solved", "closed with a very long status name"] },
        ids: {
          type: "array",
          items: { type: "integer" },
          examples: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]],
        },
        note: { description: "Quoted \"twice\" and 'once'; long enough that prettier moves it below its key." },
      },
      required: ["status"],
      additionalProperties: false,
    };
    const file = [
      "// Generated.",
      'import type { InputSchema } from "./runtime.js";',
      'import { projectListTickets, listTicketsOutputSchema, type ListTicketsResponse, type ListTicketsResult } from "./tools/list-tickets.js";',
      `export const listTicketsInputSchema = ${literal(schema)} as const satisfies InputSchema;`,
      `export const getTicketInputSchema = ${literal({ type: "object", properties: { id: { type: "string" } }, required: ["id"] })} as const satisfies InputSchema;`,
      `export const outputSchema = ${JSON.stringify({ type: "object", properties: { id: { anyOf: [{ type: "string" }, { $ref: "#/$defs/unusable" }] } }, required: ["id"] })} satisfies JsonSchema;`,
      `export const aVeryLongNameThatLeavesNoRoomForTheOpeningBraceOfItsLiteralSchemaX = ${literal({ a: 1 })} as const;`,
      `export const computed = { ["__proto__"]: {"type":"string"} } as const;`,
      "export function project(value: unknown) { return { value, schema: listTicketsInputSchema }; }",
      "",
    ].join("\n");
    const aside = setLiteralsAside(file, width);
    expect(aside?.literals.map((l) => l.column)).toEqual([36, 28, 2, 0, 0]);
    const files = new Map([["tools/list-tickets.ts", file]]);
    expect((await formatFiles(files, null)).get("tools/list-tickets.ts")).toBe(await byPrettier(file));
  });

  it("match prettier with any comment on lines of its own among the statements", { timeout: 300_000 }, async () => {
    const line = fc.oneof(
      fc.stringMatching(/^[a-z `*/@{}.-]{0,50}$/),
      fc.constantFrom("", " ", "two spaces  ", "tab\there", "trailing\t", "nbsp\u00a0", "prettier-ignore", "中文", "  indented"),
    );
    const comment = fc.oneof(
      line.map((text) => `//${text}`),
      line.filter((text) => !text.includes("*/")).map((text) => `/*${text}*/`),
      fc
        .array(
          line.filter((text) => !text.includes("*/")),
          { minLength: 1, maxLength: 4 },
        )
        .chain((lines) =>
          fc.constantFrom(
            `/**\n${lines.map((text) => ` * ${text}`).join("\n")}\n */`,
            `/** ${lines[0]}\n${lines.map((text) => ` *${text}`).join("\n")}\n */`,
            `/*\n${lines.join("\n")}\n*/`,
            `/**\n${lines.map((text) => `   * ${text}`).join("\n")}\n   */`,
          ),
        ),
    );
    const statement = fc.constantFrom(
      "export type A = { a: string; b: number };",
      "export function f() { return 1; }",
      "const x = [1, 2];",
      "",
    );
    let laidOutHere = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(comment, fc.constantFrom("\n", "\n\n"), statement), { minLength: 1, maxLength: 4 }),
        async (parts) => {
          const file = `${parts.map(([text, gap, code]) => `${text}${gap}${code}`).join("\n")}\n`;
          const expected = await byPrettier(file).catch(() => undefined);
          if (expected === undefined) return;
          if (printLikePrettier(file) !== undefined) laidOutHere++;
          expect((await formatFiles(new Map([["a.ts", file]]), null)).get("a.ts")).toBe(expected);
        },
      ),
      RUNS,
    );
    // Most files are laid out here rather than left to prettier, or the test would show nothing.
    expect(laidOutHere).toBeGreaterThan(RUNS.numRuns / 3);
  });

  it("fall back to prettier for the whole file when a placeholder is not where its literal belongs", async () => {
    const file = `export const schema = ${literal({ type: "object", description: "x".repeat(70) })} as const;\n`;
    const aside = setLiteralsAside(file, width)!;
    const moved = (await byPrettier(aside.skeleton)).replace("export const schema = ", "export const schema =\n  ");
    expect(putLiteralsBack(moved, aside)).toBeUndefined();
  });

  it("take no line of a comment for a statement, after a lone carriage return or a line separator", async () => {
    for (const separator of ["\r", "\u2028"]) {
      const file = `/* note${separator}const body = {"name":"x"};${separator}import { a } from "./a.js"; */\nexport const x = 1;\n`;
      expect((await formatFiles(new Map([["a.ts", file]]), null)).get("a.ts")).toBe(await byPrettier(file));
    }
  });

  it("leave an empty object to the layout, which moves it under a head too long for it", async () => {
    for (const length of [10, 31, 45, 61, 70])
      for (const tail of [" as const;", ";", " as const satisfies InputSchema;"]) {
        const file = `export const ${"a".repeat(length)} = {}${tail}\n`;
        expect((await formatFiles(new Map([["a.ts", file]]), null)).get("a.ts")).toBe(await byPrettier(file));
      }
  });

  it("leave files with a consumer's prettier options, or a placeholder's name in them, to prettier alone", async () => {
    const file = `export const schema = ${literal({ type: "object", enum: ["a", "b"] })} as const;\n`;
    expect(setLiteralsAside(`// projector_literal_0\n${file}`, width)).toBeUndefined();
    const options = { printWidth: 20, singleQuote: true };
    const formatted = (await formatFiles(new Map([["a.ts", file]]), options)).get("a.ts");
    expect(formatted).toBe(await prettier.format(file, { ...options, parser: "babel-ts", filepath: "a.ts" }));
  });
});

describe("textWidth", () => {
  it("counts the columns prettier counts for every character it measures, and for text mixing them", () => {
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => String.fromCodePoint(from + i));
    const characters = [...range(0, 0x1100), ...range(0x1e00, 0x20d0)];
    expect(characters.filter((character) => textWidth(character) !== width(character))).toEqual([]);
    expect(textWidth(characters.join(""))).toBe(width(characters.join("")));
    const mixed = fc.string({ unit: fc.constantFrom(...characters), maxLength: 30 });
    fc.assert(
      fc.property(mixed, (text) => {
        expect(textWidth(text)).toBe(width(text));
      }),
      RUNS,
    );
    // Wider scripts, emoji and a keycap sequence are left to prettier.
    for (const wide of ["中", "👍", "1\u20e3", "\u2328"]) expect(() => textWidth(wide)).toThrow(Unsure);
  });
});
