// `max_chars`: a text kept as it is, cut to at most so many characters and the cut marked.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fieldSchema } from "../../src/emit/json-schema.js";
import { MAX_CHARS } from "../../src/rules/max-chars.js";
import { valueReading } from "../../src/rules/field-rules.js";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { clippedString } from "../../templates/runtime/values.js";
import { generateFrom, tempDir } from "../helpers/pipeline.js";
import { fieldProblems } from "./field-problems.js";
import { checkProblems, facts, place, valueField, valueScope } from "./rule-checks.js";

const issues: ProjectionIssue[] = [];
const ctx = context("article", { onIssue: (issue) => issues.push(issue) });
const read = (value: unknown, most: number, required = true) => clippedString(value, { most, field: "body", required, ctx });

describe("the clippedString reader", () => {
  it("keeps a text of at most `most` characters as it is", () => {
    expect(read("short", 5)).toBe("short");
    expect(read("", 5)).toBe("");
  });

  it("cuts a longer text and marks the cut as the runtime's general bound does, with the whole length", () => {
    expect(read("This description is far too long", 20)).toBe("This description is … (32 characters)");
    expect(read("abcdef", 1)).toBe("a… (6 characters)");
  });

  it("never halves a character written as two UTF-16 units", () => {
    expect(read(`${"a".repeat(4)}😀b`, 5)).toBe("aaaa… (7 characters)");
    expect(read(`${"a".repeat(4)}😀b`, 6)).toBe("aaaa😀… (7 characters)");
  });

  it("marks a value that is no text unusable, and reads an absent one as null, reported where the spec promises it", () => {
    issues.length = 0;
    expect(read(42, 5)).toEqual({ unusable: "expected a string, got number" });
    expect(read(undefined, 5)).toBeNull();
    expect(read(null, 5, false)).toBeNull();
    expect(issues.map((issue) => [issue.kind, issue.field])).toEqual([
      ["unusable", "body"],
      ["missing", "body"],
    ]);
  });
});

describe("the max_chars rule as written", () => {
  it.each([[0], [10001], [2.5], ['"280"'], ["true"]])("refuses %s, at the key's value", (value) => {
    const [problem, ...rest] = fieldProblems(`      body: { max_chars: ${value} }\n`);
    expect(rest).toEqual([]);
    expect(problem!.code).toBe("PRJ002");
    expect(problem!.message).toBe(
      `\`max_chars\` is a whole number of characters from 1 to 10000, not ${JSON.stringify(JSON.parse(String(value)))}`,
    );
    expect(problem!.help).toBe("write `max_chars: 280`");
    expect(place(problem!)).toEqual([6, 26]);
  });

  it("takes 1 to 10000", () => {
    expect(
      fieldProblems("      a: { max_chars: 1 }\n      b: { max_chars: 10000 }\n      c: { as: c2, max_chars: 280, detail: full }\n"),
    ).toEqual([]);
  });

  it("refuses the keys that read the value as something other than text, and a field that is no text, at `max_chars`", () => {
    expect(checkProblems(MAX_CHARS, { max_chars: 5, format: { name: "date", options: undefined } })).toEqual([
      ["PRJ029", "`max_chars` cuts a text kept as it is; `format` says otherwise", "max_chars"],
    ]);
    expect(checkProblems(MAX_CHARS, { max_chars: 5, legend: { source: "spec" } })).toEqual([
      ["PRJ029", "`max_chars` cuts a text kept as it is; `legend` says otherwise", "max_chars"],
    ]);
    expect(checkProblems(MAX_CHARS, { max_chars: 5, join: "users" }, facts({ role: "join key" }))).toEqual([
      ["PRJ029", "`max_chars` cuts a text kept as it is; `join` says otherwise", "max_chars"],
    ]);
    expect(checkProblems(MAX_CHARS, { max_chars: 5, argument: ["get_user"] })).toEqual([
      ["PRJ029", "`max_chars` cuts a text kept as it is; `argument` says otherwise", "max_chars"],
    ]);
    expect(checkProblems(MAX_CHARS, { max_chars: 5, fact: "people quote it" })).toEqual([
      ["PRJ029", "`max_chars` cuts a text kept as it is; `fact` says otherwise", "max_chars"],
    ]);
    expect(checkProblems(MAX_CHARS, { max_chars: 5 }, facts({ kind: "integer" }))).toEqual([
      ["PRJ029", "`max_chars` applies to text, not integer", "max_chars"],
    ]);
    expect(checkProblems(MAX_CHARS, { max_chars: 5 }, facts({ kind: "object" }))).toEqual([
      ["PRJ029", "`max_chars` applies to text, not object", "max_chars"],
    ]);
    expect(checkProblems(MAX_CHARS, { max_chars: 5, as: "text", detail: "full" })).toEqual([]);
  });

  it("leaves the result schema a string, with no maxLength, and says in its description how a text is cut", () => {
    const schema = fieldSchema({
      kind: "value",
      out: "text",
      name: "body",
      source: { base: "record", path: ["body"] },
      description: "The article's text.",
      shape: { type: "string" },
      shorten: false,
      required: true,
      maxChars: 20,
    });
    expect(schema).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }, { $ref: "#/$defs/unusable" }],
      description:
        'The article\'s text. Longer text is cut to its first 20 characters, followed by "… (N characters)" with its whole length.',
    });
  });
});

describe("the max_chars rule against the spec", () => {
  it("is refused, at `max_chars`, on a number, an enum, and beside a format, and accepted on text", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "openapi.yaml"),
      `openapi: 3.0.0
info: { title: Articles, version: 1.0.0 }
paths:
  /articles:
    get:
      operationId: ListArticles
      responses:
        "200":
          description: Articles
          content:
            application/json:
              schema: { type: array, items: { $ref: "#/components/schemas/Article" } }
components:
  schemas:
    Article:
      type: object
      properties:
        body: { type: string }
        words: { type: integer }
        status: { type: string, enum: [draft, published] }
        created: { type: string }
`,
    );
    writeFileSync(
      join(dir, "projector.yaml"),
      `spec: openapi.yaml
output: out
resources:
  article:
    schema: Article
    fields:
      body: { max_chars: 280 }
      words: { max_chars: 5 }
      status: { max_chars: 5 }
      created: { format: datetime, max_chars: 5 }
tools:
  list_articles:
    operation: ListArticles
`,
    );
    const { problems } = await generateFrom(join(dir, "projector.yaml"));
    expect(problems.map((d) => [d.code, d.message, d.help, place(d)])).toEqual([
      ["PRJ029", "article.words: `max_chars` applies to text, not integer", "remove `max_chars`", [8, 16]],
      [
        "PRJ029",
        "article.status: `max_chars` applies to free text, and the spec lists this text's values (an enum)",
        "remove `max_chars`",
        [9, 17],
      ],
      [
        "PRJ029",
        "article.created: `max_chars` cuts a text kept as it is; `format` says otherwise",
        "remove `max_chars`, or `format`",
        [10, 36],
      ],
    ]);
  });
});

describe("a text cut by max_chars", () => {
  it("is read by clippedString, given the most it keeps", () => {
    const body = valueField({ maxChars: 280 });
    expect(valueReading(body)).toBe(MAX_CHARS.value);
    expect(valueReading(body).read(body, 'root?.["body"]', valueScope)).toEqual({
      reader: "clippedString",
      value: 'root?.["body"]',
      options: [["most", "280"]],
    });
  });
});
