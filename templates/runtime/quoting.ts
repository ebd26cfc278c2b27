// How markers and messages quote the values they name: bounded, and never an object's contents.

/** The most characters of a string an issue's `value` keeps, and of a resolver's error message a message quotes. */
export const ISSUE_VALUE_CHARACTERS = 200;

/**
 * The most characters of one string of a result; a longer one is cut, and says how long it was,
 * and a longer id, which a cut would make another, is unusable.
 */
export const MAX_VALUE_TEXT = 10_000;

/** The most characters of a string a marker or an issue's message quotes. */
const QUOTED_CHARACTERS = 40;

/**
 * The text's first `most` characters and its length, when it is longer; a character written as two
 * UTF-16 units is kept whole or left out, never halved.
 */
export function clipped(text: string, most: number): string {
  if (text.length <= most) return text;
  const last = text.charCodeAt(most - 1);
  const cut = last >= 0xd800 && last <= 0xdbff ? most - 1 : most;
  return `${text.slice(0, cut)}… (${text.length} characters)`;
}

/**
 * The characters a reader of the text may not see as written, which the model sees all the same:
 * every control (C0 with the line breaks, so text from outside cannot start a line of its own; DEL;
 * C1, whose ESC and CSI sequences restyle or rewrite a terminal), every format character (the
 * bidirectional marks, embeddings, overrides and isolates that reorder the text around them, the
 * soft hyphen, zero-width spaces and joiners, the tag characters), the line and paragraph
 * separators (a line break to a Unicode reader), the variation selectors, and whatever else Unicode
 * names default-ignorable (Hangul fillers, the combining grapheme joiner, the deprecated format
 * characters). Tag characters and variation selectors can each spell out hidden bytes. Named by
 * Unicode property, so the set follows Unicode rather than a list. An emoji's zero-width joiners and
 * variation selectors are escaped too: the text reads back the same, only the reader sees the
 * escapes rather than one glyph. Also escaped: a lone surrogate (half of a character, which no
 * reader shows as written and JSON text cannot hold), the private-use characters (no reader knows
 * what they show; the planes 15 and 16 ones can spell out hidden bytes as the tag characters do)
 * and the noncharacters (U+FDD0 to U+FDEF and each plane's last two, U+FFFE, U+FFFF). Unassigned
 * code points are not: a newer Unicode may assign them.
 */
const UNPRINTABLE =
  /\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}|\p{Variation_Selector}|\p{Default_Ignorable_Code_Point}|\p{Cs}|\p{Co}|\p{Noncharacter_Code_Point}/gu;

/** Whether the text holds a character of {@link UNPRINTABLE}. */
export function holdsUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text);
}

/** The text with each character of {@link UNPRINTABLE} written as its escape, `\u001b` (one past U+FFFF as its two halves). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (character) => {
    let escaped = "";
    for (let i = 0; i < character.length; i++)
      escaped += `\\u${character.charCodeAt(i).toString(16).padStart(4, "0")}`;
    return escaped;
  });
}

/**
 * What was thrown, as text, whatever it is: an object without a prototype, or an Error whose
 * `message` getter throws, must not turn a resolver's failure into a TypeError. Bounded and
 * {@link printable}, since it is written into messages the model and logs read.
 */
export function messageOf(thrown: unknown): string {
  try {
    const message: unknown = thrown instanceof Error ? thrown.message : thrown;
    if (typeof message === "string")
      return printable(clipped(message, ISSUE_VALUE_CHARACTERS));
    if (typeof message === "object" && message !== null)
      return `a thrown ${typeName(message)}`;
    return printable(clipped(String(message), ISSUE_VALUE_CHARACTERS));
  } catch {
    return "an error that cannot be read";
  }
}

/** The JSON type of a value, or for a number JSON cannot write, that number (`Infinity`, `NaN`). */
export function typeName(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value))
    return String(value);
  return value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value;
}

/**
 * A value as a marker or message may name it: a primitive as JSON writes it, a string cut to
 * {@link QUOTED_CHARACTERS} characters and {@link printable}; an object or array by its type alone,
 * never its content.
 */
export function described(value: unknown): string {
  if (typeof value === "string")
    return (
      printable(JSON.stringify(value.slice(0, QUOTED_CHARACTERS))) +
      (value.length > QUOTED_CHARACTERS ? `… (${value.length} characters)` : "")
    );
  if (typeof value === "number" || typeof value === "boolean")
    return String(value);
  return typeName(value);
}

/** The most characters of the API's own words for an error that a message quotes. */
const API_MESSAGE_CHARACTERS = 200;

/**
 * Where APIs put their words for an error, the most telling first: `detail` and `title` (JSON:API,
 * RFC 9457), `message` (Stripe's `{ error: { message } }` and most others), OAuth's
 * `error_description`, FastAPI's `msg`, `errorMessage`, `error_message` and `reason`; then `error`
 * and `errors`, which may hold the words or an object or list holding them.
 */
const MESSAGE_KEYS = [
  "detail",
  "title",
  "message",
  "error_description",
  "msg",
  "errorMessage",
  "error_message",
  "reason",
  "error",
  "errors",
];

/**
 * The API's own words for an error, when it gives them: a body that is short text, or text under
 * one of {@link MESSAGE_KEYS} at most three levels down (a list's first item standing for the
 * list); cut to {@link API_MESSAGE_CHARACTERS} characters and {@link printable}.
 */
export function apiMessage(body: unknown): string | undefined {
  const words =
    typeof body === "string"
      ? body.length <= API_MESSAGE_CHARACTERS
        ? body.trim()
        : undefined
      : wordsIn(body, 3);
  return words === undefined || words === ""
    ? undefined
    : printable(clipped(words, API_MESSAGE_CHARACTERS));
}

function wordsIn(value: unknown, depth: number): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (depth === 0 || typeof value !== "object" || value === null)
    return undefined;
  if (Array.isArray(value)) return wordsIn(value[0], depth - 1);
  for (const key of MESSAGE_KEYS) {
    const words = Object.hasOwn(value, key)
      ? wordsIn((value as Record<string, unknown>)[key], depth - 1)
      : undefined;
    if (words !== undefined) return words;
  }
  return undefined;
}
