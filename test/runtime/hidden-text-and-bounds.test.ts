// Text the model and the consumer's logs read: every character a reader may not see is escaped in
// results, error messages and issues alike, and the text reads back exactly.
import { decode } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { escapeUnseenCharacters } from "../../src/control-characters.js";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import { TEXT_OR_NUMBER_IDS } from "../../templates/runtime/ids.js";
import { joinMany, joinOne } from "../../templates/runtime/joins.js";
import { unknownCode } from "../../templates/runtime/legends.js";
import { apiMessage, printable } from "../../templates/runtime/quoting.js";
import { refOne } from "../../templates/runtime/refs.js";
import { serializeToolResult, tableLayout, withTableLayout } from "../../templates/runtime/table-text.js";

/** Characters that show as nothing, or act on the text around them, each of a kind the escapes must cover. */
const HIDDEN: Readonly<Record<string, string>> = {
  "a variation selector past U+E0100": "\u{e0100}\u{e0141}",
  "an emoji variation selector": "\ufe0f",
  "a soft hyphen": "\u00ad",
  "the Mongolian vowel separator": "\u180e",
  "the combining grapheme joiner": "\u034f",
  "the deprecated format characters": "\u206a\u206f",
  "the reserved U+2065": "\u2065",
  "the interlinear annotation marks": "\ufff9\ufffb",
  "the Hangul fillers": "\u115f\u1160\u3164\uffa0",
  "a musical format character": "\u{1d173}\u{1d17a}",
  "a zero-width joiner": "\u200d",
  "a tag character": "\u{e0041}",
};

/** Any character outside printable ASCII: what the escaped text must not hold, for the hidden ones above. */
const RAW_HIDDEN = new RegExp(`[${Object.values(HIDDEN).join("")}]`, "u");

describe("hidden characters", () => {
  const layout = tableLayout("list_hidden_text", { list: "items", columns: ["title"], page: ["next"] });

  it.each(Object.entries(HIDDEN))("escapes %s in JSON text, which reads back exactly", (_, hidden) => {
    const result = { title: `A${hidden}B`, meta: { [`k${hidden}`]: `v${hidden}` }, tags: [`t${hidden}`] };
    const text = serializeToolResult(result);
    expect(text).not.toMatch(RAW_HIDDEN);
    expect(JSON.parse(text)).toEqual(result);
  });

  it.each(Object.entries(HIDDEN))("escapes %s in table text, or sends JSON where TOON takes no escape", (_, hidden) => {
    const result = { items: [{ title: `A${hidden}B` }, { title: "plain" }], next: null };
    const text = serializeToolResult(withTableLayout(result, layout));
    expect(text).not.toMatch(RAW_HIDDEN);
    expect(text.startsWith("{") ? JSON.parse(text) : decode(text)).toEqual(result);
  });

  it("keeps a table as TOON when its hidden characters are all within U+FFFF", () => {
    const result = { items: [{ title: "A\u00ad\u206a\ufe0f\u3164B" }], next: null };
    const text = serializeToolResult(withTableLayout(result, layout));
    expect(text).toMatch(/^items\[1\]\{title\}:/);
    expect(decode(text)).toEqual(result);
  });

  it("escapes them in the API's words an error message quotes", () => {
    expect(apiMessage({ detail: "bad\u{e0100}\u00adthing" })).toBe("bad\\udb40\\udd00\\u00adthing");
  });

  it("escapes the same set in the lines `projector serve` prints as in the runtime's messages", () => {
    const differing: string[] = [];
    for (let point = 0; point <= 0x10ffff; point++) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const character = String.fromCodePoint(point);
      if (escapeUnseenCharacters(character) !== printable(character)) differing.push(point.toString(16));
    }
    expect(differing).toEqual([]);
    expect(escapeUnseenCharacters("a\u001b[2J\nFAKE\u2028x\u{e0100}")).toBe("a\\u001b[2J\\u000aFAKE\\u2028x\\udb40\\udd00");
  });
});

describe("issue messages", () => {
  const HOSTILE = "u\u001b[2J\nFAKE\u2028x\u{e0100}\u00ad";
  /** What an issue message must never hold: a control, a separator or an invisible character. */
  const UNSEEN = /\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}|\p{Variation_Selector}|\p{Default_Ignorable_Code_Point}/u;

  function reading() {
    const issues: ProjectionIssue[] = [];
    return { issues, ctx: context("item", { onIssue: (issue) => issues.push(issue) }) };
  }

  const noLabels = new Map<string, string | Error>();
  const failing = new Map<string, string | Error>([[HOSTILE, new Error(`down for ${HOSTILE}`)]]);

  it.each([
    [
      "a to-one join the resolver cannot label",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        joinOne(HOSTILE, { labels: noLabels, resolver: "users", key: "owner_id", field: "owner_id", ctx }),
    ],
    [
      "a to-one join whose resolver failed",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        joinOne(HOSTILE, { labels: failing, resolver: "users", key: "owner_id", field: "owner_id", ctx }),
    ],
    [
      "a to-many join",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        joinMany([HOSTILE, HOSTILE], { labels: noLabels, resolver: "users", field: "watchers", ctx }),
    ],
    [
      "an embedded record's id",
      (ctx: ReturnType<typeof reading>["ctx"]) =>
        refOne(
          { id: HOSTILE },
          {
            ids: TEXT_OR_NUMBER_IDS,
            labels: noLabels,
            resolver: "users",
            key: "owner",
            keys: { id: "id", label: "name" },
            field: "owner",
            ctx,
          },
        ),
    ],
    ["a code without a word", (ctx: ReturnType<typeof reading>["ctx"]) => unknownCode(ctx, "status", HOSTILE)],
  ])("quote the API's id in %s escaped", (_, project) => {
    const { issues, ctx } = reading();
    project(ctx);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(issue.message).not.toMatch(UNSEEN);
      expect(issue.message).toMatch(/u\\u001b\[2J\\(?:u000a|n)FAKE\\u2028x\\udb40\\udd00\\u00ad/);
    }
  });
});
