// src/prettier-layout prints its docs with a doc printer of its own, which must print every doc
// exactly as prettier's printDocToString does: on random docs made of the builders the layout uses
// (groups, conditional groups, indents, aligns, lines, if-breaks tied to a group, indent-if-breaks,
// break parents), at random widths, and on the cases that make it give way to prettier's.
import fc from "fast-check";
import { builders, printer } from "prettier/doc";
import { describe, expect, it } from "vitest";
import { printDoc } from "../src/prettier-layout/doc-printer.js";

type Doc = builders.Doc;
const { group, conditionalGroup, indent, align, line, softline, hardline, ifBreak, indentIfBreak, breakParent, fill, label } = builders;
const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 300) };
const byPrettier = (doc: Doc, width: number) => printer.printDocToString(doc, { printWidth: width, tabWidth: 2, useTabs: false }).formatted;

/** A random doc; group ids are drawn from a few, so that if-breaks refer to groups printed before them. */
function docs(ids: symbol[]) {
  const word = fc.stringMatching(/^[a-z(){}[\],.:;= ]{0,12}$/);
  return fc.letrec<{ doc: Doc }>((tie) => ({
    doc: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      word,
      fc.constantFrom<Doc>(line, softline, hardline, breakParent),
      fc.array(tie("doc"), { maxLength: 5 }),
      fc
        .record({ contents: tie("doc"), shouldBreak: fc.boolean(), id: fc.option(fc.constantFrom(...ids), { nil: undefined }) })
        .map(({ contents, shouldBreak, id }) => group(contents, { shouldBreak, ...(id ? { id } : {}) })),
      fc.array(tie("doc"), { minLength: 1, maxLength: 3 }).map((states) => conditionalGroup(states)),
      tie("doc").map((contents) => indent(contents)),
      tie("doc").map((contents) => align(2, contents)),
      tie("doc").map((contents) => label("x", contents)),
      fc
        .record({ breakContents: tie("doc"), flatContents: tie("doc"), id: fc.option(fc.constantFrom(...ids), { nil: undefined }) })
        .map(({ breakContents, flatContents, id }) => ifBreak(breakContents, flatContents, id ? { groupId: id } : {})),
      fc.record({ contents: tie("doc"), id: fc.constantFrom(...ids) }).map(({ contents, id }) => indentIfBreak(contents, { groupId: id })),
    ),
  })).doc;
}

/** A copy made before printing: both printers mark broken groups on the doc they are given. */
const twice = (make: () => Doc) => [make(), make()] as const;

describe("printDoc", () => {
  it("prints random docs as prettier's printDocToString does", () => {
    const ids = [Symbol("a"), Symbol("b"), Symbol("c")];
    fc.assert(
      fc.property(docs(ids), fc.integer({ min: 0, max: 100 }), (doc, width) => {
        const copy = structuredCloneDoc(doc);
        const ascii = structuredCloneDoc(doc);
        const mine = printDoc(doc, width);
        // The docs of a text known to be printable ASCII are measured without looking at each character, alike.
        expect(printDoc(ascii, width, true)).toBe(mine);
        if (mine === undefined) return;
        expect(mine).toBe(byPrettier(copy, width).replace(/[ \t]+$/, ""));
      }),
      RUNS,
    );
  });

  it.each([
    ["a group that fits", () => group(["a", line, "b"]), 80, "a b"],
    ["a group that does not", () => group(["aaaa", line, "bbbb"]), 6, "aaaa\nbbbb"],
    ["a hard line breaking the groups around it", () => group(["a", group(["b", hardline, "c"]), line, "d"]), 80, "ab\nc\nd"],
    [
      "a conditional group's middle state where it fits flat",
      () =>
        conditionalGroup([
          ["aaaaaaa", line, "b"],
          ["a", group(["b", line, "c"])],
          ["x", indent([hardline, "y"])],
        ]),
      4,
      "ab c",
    ],
    [
      "a conditional group's last state, printed broken, its own groups laid out again",
      () => conditionalGroup([["aaaaaaa", line, "b"], group(["a", indent([softline, "b"])])]),
      4,
      "ab",
    ],
    [
      "an if-break following its group",
      () => {
        const id = Symbol("g");
        return [group(["aaaa", line, "b"], { id }), ifBreak("!", "?", { groupId: id })];
      },
      4,
      "aaaa\nb!",
    ],
    ["trailing spaces dropped before a line break", () => ["a ", hardline, "b"], 80, "a\nb"],
    ["accented text, a column a character", () => group(["ééééé", line, "b"]), 6, "ééééé\nb"],
    ["combining marks, no column", () => group(["e\u0301e\u0301e\u0301", line, "b"]), 5, "e\u0301e\u0301e\u0301 b"],
    ["a Hebrew point, no column", () => group(["\u05d0\u05b0\u05d1\u05b0", line, "b"]), 4, "\u05d0\u05b0\u05d1\u05b0 b"],
  ])("%s", (_name, make, width, expected) => {
    const [doc, copy] = twice(make);
    expect(printDoc(doc, width)).toBe(expected);
    expect(byPrettier(copy, width)).toBe(expected);
  });

  it("prints a doc as it would alone after one it gave up on halfway", () => {
    // The stacks are shared from doc to doc: a doc given up on must leave none of its commands behind.
    expect(printDoc(group([group(["a", line, "b"]), indent([hardline, fill(["c", line, "d"])])]), 80)).toBeUndefined();
    expect(printDoc(group(["x", line, "y"]), 2)).toBe("x\ny");
  });

  it("gives way to prettier's printer for a fill and for text it does not measure", () => {
    expect(printDoc(fill(["a", line, "b"]), 80)).toBeUndefined();
    expect(printDoc(group(["中文", line, "b"]), 80)).toBeUndefined();
    expect(printDoc(group(["a\nb", line, "c"]), 80, true)).toBeUndefined();
  });
});

/** A deep copy of a doc that keeps group ids shared, as the same symbols. */
function structuredCloneDoc(doc: Doc): Doc {
  if (typeof doc === "string") return doc;
  if (Array.isArray(doc)) return doc.map(structuredCloneDoc);
  const copy: Record<string, unknown> = { ...doc };
  for (const key of ["contents", "breakContents", "flatContents"] as const)
    if (key in copy) copy[key] = structuredCloneDoc(copy[key] as Doc);
  if ("expandedStates" in copy && copy["expandedStates"])
    copy["expandedStates"] = (copy["expandedStates"] as Doc[]).map(structuredCloneDoc);
  return copy as unknown as Doc;
}
