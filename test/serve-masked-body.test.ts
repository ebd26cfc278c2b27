// serve passes an API's answer on unparsed when no secret shows in it, read as text and with its
// JSON escapes decoded; what it passes on reads as what masking each string of it would give.
import { decode } from "@toon-format/toon";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskedBody, maskedDeep, maskingServer, secretMasker } from "../src/serve/secrets.js";

const TOKEN = 'sk"live\\ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const mask = secretMasker([TOKEN]);

/** Masking each string of a JSON body, as serve did before it looked at the text first. */
function maskedStringByString(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return mask(text);
  }
  const masked = maskedDeep(parsed, mask);
  return masked === parsed ? text : JSON.stringify(masked);
}

/** JSON text of a value with each character of its strings written as a `\u` escape where `escapes` says. */
function written(value: unknown, escapes: (i: number) => boolean): string {
  let n = 0;
  const quoted = (text: string) =>
    `"${[
      ...JSON.stringify(text)
        .slice(1, -1)
        .matchAll(/\\u[0-9a-f]{4}|\\.|./gs),
    ]
      .map(([part]) => (part.length === 1 && escapes(n++) ? `\\u${part.charCodeAt(0).toString(16).padStart(4, "0")}` : part))
      .join("")}"`;
  const write = (v: unknown): string =>
    typeof v === "string"
      ? quoted(v)
      : Array.isArray(v)
        ? `[${v.map(write).join(",")}]`
        : v !== null && typeof v === "object"
          ? `{${Object.entries(v)
              .map(([k, item]) => `${quoted(k)}:${write(item)}`)
              .join(",")}}`
          : JSON.stringify(v);
  return write(value);
}

const fragment = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(TOKEN, `${TOKEN.slice(0, 24)}… (41 characters)`, JSON.stringify(TOKEN).slice(1, -1), "\n", "\\", '"', "…", "sk"),
);
const text = fc.array(fragment, { maxLength: 4 }).map((parts) => parts.join(""));
const body = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(text, tie("value"), { maxKeys: 3 }),
  ),
})).value;

describe("an API's answer passed through serve", () => {
  it("reads as what masking each of its strings gives, whatever escapes write them", () => {
    fc.assert(
      fc.property(body, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (value, pattern) => {
        const text = written(value, (i) => pattern[i % pattern.length]!);
        expect(JSON.parse(maskedBody(text, mask))).toEqual(JSON.parse(maskedStringByString(text)));
      }),
      { numRuns: 400 },
    );
  });

  it("is passed on as it came, escapes and spacing kept, when no secret shows in it", () => {
    const text = '{ "path" : "a\\/b",\n "note": "caf\\u00e9 \\"ok\\"" }';
    expect(maskedBody(text, mask)).toBe(text);
  });

  it("has a secret written wholly in escapes masked, and one cut before its … too", () => {
    const escaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    expect(JSON.parse(maskedBody(`{"detail":"bad key: ${escaped}"}`, mask))).toEqual({ detail: "bad key: [secret]" });
    expect(JSON.parse(maskedBody(JSON.stringify({ cut: `${TOKEN.slice(0, 20)}\u2026 (41 characters)` }), mask))).toEqual({
      cut: "[secret]… (41 characters)",
    });
  });
});

describe("a secret inside JSON written in a JSON string, as back ends' encoders escape it", () => {
  const phpToken = "sk-live/4f9aB7c2d1e0+9f8a==";
  const goToken = "sk-live-4f9a&b7c2<d1e0>9f8a";

  it("is masked where PHP writes `/` as `\\/`, in the error of a body that quotes the request's headers", () => {
    const body = '{"errors":[{"detail":"could not authorize request {\\"authorization\\":\\"Bearer sk-live\\\\/4f9aB7c2d1e0+9f8a==\\"}"}]}';
    expect(JSON.parse(maskedBody(body, secretMasker([phpToken])))).toEqual({
      errors: [{ detail: 'could not authorize request {"authorization":"Bearer [secret]"}' }],
    });
  });

  it("is masked where Go writes `&`, `<` and `>` as `\\u0026`, `\\u003c` and `\\u003e`", () => {
    const inner = JSON.stringify({ authorization: `Bearer ${goToken}` }).replace(/[&<>]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    const body = JSON.stringify({ detail: `could not authorize request ${inner}` });
    expect(JSON.parse(maskedBody(body, secretMasker([goToken])))).toEqual({
      detail: 'could not authorize request {"authorization":"Bearer [secret]"}',
    });
  });

  /** A character as some JSON encoder may write it: as it is where JSON lets it be, a short escape, or `\u` in either case. */
  const escapedCharacter = (character: string, way: number): string => {
    const short: Record<string, string> = {
      '"': '\\"',
      "\\": "\\\\",
      "/": "\\/",
      "\b": "\\b",
      "\f": "\\f",
      "\n": "\\n",
      "\r": "\\r",
      "\t": "\\t",
    };
    const hex = character.charCodeAt(0).toString(16).padStart(4, "0");
    const ways = [
      ...(character === '"' || character === "\\" || character < " " ? [] : [character]),
      ...(short[character] ? [short[character]] : []),
      `\\u${hex}`,
      `\\u${hex.toUpperCase()}`,
    ];
    return ways[way % ways.length]!;
  };
  const escapedBy = (text: string, ways: readonly number[]) =>
    [...text].map((c, i) => escapedCharacter(c, ways[i % ways.length]!)).join("");
  const decodedOnce = (text: string) => JSON.parse(`"${text}"`) as string;

  it("is masked JSON-escaped once or twice with any escape for any of its characters", () => {
    const character = fc.constantFrom(...'aZ09-_+=/&<>"\\ .~é\n\t');
    fc.assert(
      fc.property(
        fc.array(character, { minLength: 4, maxLength: 24 }).map((characters) => characters.join("")),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (secret, firstWays, secondWays, twice) => {
          const once = escapedBy(`key ${secret} !`, firstWays);
          const written = twice ? escapedBy(once, secondWays) : once;
          const masked = secretMasker([secret])(`said: ${written}`);
          expect(masked).toContain("[secret]");
          const read = twice ? decodedOnce(decodedOnce(masked)) : decodedOnce(masked);
          expect(read).not.toContain(secret);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("a secret of characters outside ASCII", () => {
  it("is masked percent-encoded as UTF-8, each character's bytes read as one", () => {
    const secret = "pässwörd€😀";
    expect(secretMasker([secret])(`q=${encodeURIComponent(secret)}&r=${encodeURIComponent(secret).toLowerCase()}`)).toBe(
      "q=[secret]&r=[secret]",
    );
    expect(secretMasker([secret])("q=p%C3%A4%C3sswörd")).toBe("q=p%C3%A4%C3sswörd");
  });
});

describe("a secret in an error page", () => {
  it("is masked where HTML writes its characters as character references, decimal, hex or named", () => {
    const mask = secretMasker(["sk-live-SECRETKEY/123"]);
    expect(mask("<b>sk-live-SECRETK&#69;Y&sol;123</b>")).toBe("<b>[secret]</b>");
    expect(mask("<p>key: &#x73;&#X6B;-live-SECRETKEY/123 &amp; more</p>")).toBe("<p>key: [secret] &amp; more</p>");
    expect(mask("&#115")).toBe("&#115");
  });

  it("is masked with any of HTML's named references, legacy ones without a semicolon and their capitals too", () => {
    for (const [password, written] of [
      ["Hunter*2026", "Hunter&ast;2026"],
      ["Kennwort{7}|x", "Kennwort&lcub;7&rcub;&verbar;x"],
      ["Passwört-2026", "Passw&ouml;rt-2026"],
      ["geheimeß€", "geheime&szlig;&euro;"],
      ['tok"en&key<1>', "tok&QUOT;en&ampkey&lt1&GT;"],
    ] as const)
      expect(secretMasker([password])(`<p>bad password ${written}</p>`), written).toBe("<p>bad password [secret]</p>");
  });

  it("is masked in an error page showing, HTML-escaped, the JSON text of a secret", () => {
    const token = 'sk-A"b\\c/d&e+g h<i>';
    const page = `<pre>${JSON.stringify({ token }).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</pre>`;
    expect(secretMasker([token])(page)).toBe("<pre>{&quot;token&quot;:&quot;[secret]&quot;}</pre>");
  });
});

describe("a secret ending in a backslash, in a text handed out", () => {
  const mask = secretMasker(["hunter2\\"]);

  it("takes the whole escape it would cut in two, so no value forges the next cell of table text", () => {
    const table = 'items[3]{name,note}:\n  "hunter2\\",note-x",n1\n  "hunter2\\n",n2\n  two,n3';
    expect(decode(mask(table))).toEqual({
      items: [
        { name: "[secret],note-x", note: "n1" },
        { name: "[secret]", note: "n2" },
        { name: "two", note: "n3" },
      ],
    });
  });

  it("leaves JSON text valid, each value masked whole or not at all", () => {
    const json = JSON.stringify({
      items: [
        { name: 'hunter2",note-x', note: "n1" },
        { name: "hunter2\n", note: "n2" },
      ],
    });
    expect(JSON.parse(mask(json))).toEqual({
      items: [
        { name: "[secret],note-x", note: "n1" },
        { name: "[secret]", note: "n2" },
      ],
    });
  });
});

describe("a result's text block", () => {
  /** What a handler registered on a masking server answers to the client. */
  async function answered(secret: string, answer: object) {
    let registered: ((request: unknown, extra: unknown) => Promise<unknown>) | undefined;
    const server = { setRequestHandler: (_: unknown, handler: typeof registered) => void (registered = handler) };
    maskingServer(server, secretMasker([secret])).setRequestHandler({}, async () => answer);
    return (await registered!({}, {})) as { content: { type: string; text: string }[]; structuredContent: unknown };
  }

  it("is masked in its strings' values when it is JSON, as the structured result is: a number holding a secret's digits is kept", async () => {
    const result = { id: "itm_1", name: "account 4711", count: 47110, done: true };
    const out = await answered("4711", { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result });
    expect(JSON.parse(out.content[0]!.text)).toEqual(out.structuredContent);
    expect(out.structuredContent).toEqual({ id: "itm_1", name: "account [secret]", count: 47110, done: true });
  });

  it("is masked wherever a secret shows when it is not JSON (table text)", async () => {
    const out = await answered("alice-key", { content: [{ type: "text", text: "items[1]{id,note}:\n  itm_1,alice-key" }] });
    expect(out.content[0]!.text).toBe("items[1]{id,note}:\n  itm_1,[secret]");
  });
});
