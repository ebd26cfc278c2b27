// The annotation's fast read (js-yaml over the one-line subset init writes) against the full parser
// it stands in for: the same value wherever it answers, and no answer wherever the two could part.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineCounter, parseDocument } from "yaml";
import { parseAnnotation } from "../src/annotation/parse.js";
import { readPlainYaml } from "../src/annotation/plain-yaml.js";

/** The full parser's reading, as parseAnnotation takes it, or `undefined` where it reports a problem. */
function fullRead(text: string): unknown {
  const document = parseDocument(text, { lineCounter: new LineCounter(), uniqueKeys: false, prettyErrors: false, strict: true });
  if (document.errors.length > 0 || hasRepeatedKey(document.contents)) return undefined;
  return document.toJS({ maxAliasCount: -1 });
}

function hasRepeatedKey(node: unknown): boolean {
  if (typeof node !== "object" || node === null || !("items" in node)) return false;
  const seen = new Set<unknown>();
  for (const item of (node as { items: unknown[] }).items) {
    const pair = item as { key?: { value?: unknown }; value?: unknown };
    if (pair.key === undefined) {
      if (hasRepeatedKey(item)) return true;
      continue;
    }
    if (pair.key !== null && typeof pair.key === "object" && "value" in pair.key) {
      if (seen.has(pair.key.value)) return true;
      seen.add(pair.key.value);
    }
    if (hasRepeatedKey(pair.value)) return true;
  }
  return false;
}

describe("readPlainYaml", () => {
  it.each([
    ["017", 17],
    ["0o17", 15],
    ["0x1F", 31],
    ["+12", 12],
    ["1e3", 1000],
    [".5", 0.5],
    ["-.Inf", Number.NEGATIVE_INFINITY],
    ["~", null],
    ["Null", null],
    ["", null],
    ["True", true],
    ["FALSE", false],
    ["tRue", "tRue"],
    ["yes", "yes"],
    ["on", "on"],
    ["2026-01-01", "2026-01-01"],
    ["1_000", "1_000"],
    ["0b101", "0b101"],
    ['"017"', "017"],
    ["'it''s'", "it's"],
    ['"tab\\there"', "tab\there"],
    ["[a, 'b, c', { d: 1 }]", ["a", "b, c", { d: 1 }]],
    ["why: not # a comment", undefined],
  ])("reads `value: %s` as the yaml library does", (written, expected) => {
    const text = `value: ${written}\n`;
    expect(readPlainYaml(text)).toEqual(expected === undefined ? undefined : { value: expected });
    if (expected !== undefined) expect(fullRead(text)).toEqual({ value: expected });
  });

  it.each([
    ["an anchor and its alias", "a: &x { b: 1 }\nc: *x\n"],
    ["a tag", "a: !!str 1\n"],
    ["an explicit key", "? a\n: b\n"],
    ["a sequence as a key", "[a]: b\n"],
    ["a sequence as a key in a flow mapping", "a: { [b]: c }\n"],
    ["a pair in a flow sequence", "a: [b: c]\n"],
    ["a null key", "~: a\n"],
    ["a key named null", "fields:\n  null: keep\n"],
    ["a quoted scalar over two lines", 'a: "b\n  c"\n'],
    ["a flow mapping over two lines", "a: { b: c,\n  d: e }\n"],
    ["a block scalar", "a: |\n  b\n"],
    ["a document marker", "---\na: b\n"],
    ["a directive", "%YAML 1.2\n---\na: b\n"],
    ["a tab", "a:\tb\n"],
    ["a carriage return that ends no line", "a: b\rc: d\n"],
    ["a key written twice", "a: 1\na: 2\n"],
    ["a syntax error", "a: b: c\n"],
    ["`a:b` in a flow mapping", "a: { b:c }\n"],
    ["a `\\U` escape (js-yaml reads one past U+10FFFF as broken text)", 'a: "\\U00110000"\n'],
    ["a key longer than 1,024 characters", `${"k".repeat(1025)}: b\n`],
    ["an empty sequence entry", "- - \n- b\n"],
    ["an empty sequence entry with a comment", "a:\n  - # none\n- b\n"],
    ["a plain scalar's next line", "a: b\n  c\n"],
  ])("leaves %s to the full parser", (_, text) => {
    expect(readPlainYaml(text)).toBeUndefined();
  });

  it("reads a long run of spaces in linear time", () => {
    // A backtracking pattern took about 13 s on this; the full parser 2 ms.
    expect(readPlainYaml(`a: b${" ".repeat(100_000)}c\n`)).toEqual({ a: `b${" ".repeat(100_000)}c` });
    expect(readPlainYaml(`a${" ".repeat(100_000)}b: c\n`)).toBeUndefined();
  });

  it("reads a text with Windows line endings", () => {
    expect(readPlainYaml("a: 1\r\nb: { c: d }\r\n")).toEqual({ a: 1, b: { c: "d" } });
  });

  // Every annotation of the repository, edited at random a few characters or lines at a time.
  const annotations = [
    "projector.yaml",
    ...readdirSync("specs/scenarios", { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join("specs/scenarios", entry.name, "projector.yaml")),
  ].map((path) => readFileSync(path, "utf8"));
  const PIECES = [
    " ",
    "  ",
    "\n",
    ":",
    ": ",
    "- ",
    "#",
    " #",
    "'",
    '"',
    "{",
    "}",
    "[",
    "]",
    ",",
    "?",
    "|",
    ">",
    "\\",
    "~",
    "null",
    "017",
    "0x1F",
    "yes",
    "\r\n",
    "a",
    "b: c",
  ];
  const edit = fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    kind: fc.constantFrom("insert", "delete", "indent", "swap"),
    piece: fc.constantFrom(...PIECES),
    other: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  type Edit = { at: number; kind: string; piece: string; other: number };
  const applied = (text: string, { at, kind, piece, other }: Edit): string => {
    const lines = text.split("\n");
    const line = Math.floor(at * lines.length) % lines.length;
    const position = Math.floor(at * text.length);
    if (kind === "insert") return text.slice(0, position) + piece + text.slice(position);
    if (kind === "delete") return text.slice(0, position) + text.slice(position + 1 + Math.floor(other * 3));
    if (kind === "indent") lines[line] = other < 0.5 ? ` ${lines[line]}` : lines[line]!.replace(/^ /, "");
    else {
      const with_ = Math.floor(other * lines.length) % lines.length;
      [lines[line], lines[with_]] = [lines[with_]!, lines[line]!];
    }
    return lines.join("\n");
  };

  it("answers, on edited annotations, only where the full parser reads the same value", () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.nat(annotations.length - 1), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, edits) => {
        const text = edits.reduce(applied, annotations[which]!);
        const fast = readPlainYaml(text);
        if (fast === undefined) return;
        answered++;
        expect(fast).toStrictEqual(fullRead(text));
      }),
      { numRuns: 3000 },
    );
    // The fast read must answer often for the comparison to mean anything.
    expect(answered).toBeGreaterThan(600);
  });
});

describe("places in an annotation read the fast way", () => {
  const text = "spec: api.yaml\noutput: generated/api\ntools:\n  list_users:\n    operation: listUsers\n    resource: user\n";

  it("find their line and column when read, the same in a copy and in JSON text", () => {
    const annotation = parseAnnotation(text, "projector.yaml");
    const place = annotation.locate(["tools", "list_users", "resource"], "key");
    expect({ ...place }).toEqual({ file: "projector.yaml", line: 6, column: 5 });
    expect(JSON.parse(JSON.stringify(place))).toEqual({ file: "projector.yaml", line: 6, column: 5 });
    expect(annotation.locate(["tools", "list_users"], "key")).toEqual({ file: "projector.yaml", line: 4, column: 3 });
    const moved = annotation.locate(["tools"], "key");
    moved.line = 10;
    expect({ ...moved }).toEqual({ file: "projector.yaml", line: 10, column: 1 });
  });
});
