/**
 * Control characters other than tab, line feed and carriage return: C0, DEL and C1. A NUL makes git
 * treat a file as binary, and ESC or CSI sequences restyle or rewrite the terminal showing them.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** A character as the six characters of its JavaScript escape, `\u0000`. */
const escapeOf = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Each control character as its escape. */
export const escapeControlCharacters = (text: string): string => text.replace(CONTROL_CHARACTERS, escapeOf);

/**
 * Control characters, and those that change how code reads without being seen (Trojan Source):
 * the bidirectional overrides, embeddings and isolates, the marks and the zero-width characters.
 */
const HIDDEN_CHARACTERS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** Generated code's text with each control and each hidden character as its escape: a reviewer reads the code as it runs. */
export const escapeHiddenCharacters = (text: string): string => text.replace(HIDDEN_CHARACTERS, escapeOf);

/**
 * The characters a reader may not see as written, the set the generated runtime escapes in every
 * message and result (templates/runtime/quoting.ts): controls, line breaks included, format
 * characters, the line and paragraph separators, variation selectors and the other
 * default-ignorable characters, lone surrogates, private-use characters and noncharacters.
 */
const UNSEEN_CHARACTERS =
  /\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}|\p{Variation_Selector}|\p{Default_Ignorable_Code_Point}|\p{Cs}|\p{Co}|\p{Noncharacter_Code_Point}/gu;

/** The text on one line, each character of {@link UNSEEN_CHARACTERS} as its escape (one past U+FFFF as its two halves). */
export const escapeUnseenCharacters = (text: string): string =>
  text.replace(UNSEEN_CHARACTERS, (character) => character.split("").map(escapeOf).join(""));

/** The most characters of one line of a diagnostic's own words: an annotation's or a spec's value quoted whole stays readable. */
const MAX_LINE = 1000;

/** Text on one line for a terminal: {@link escapeUnseenCharacters}, then cut to {@link MAX_LINE} characters, saying how long it was. */
export function oneLine(text: string): string {
  const line = escapeUnseenCharacters(text);
  if (line.length <= MAX_LINE) return line;
  // A pair of surrogates is one character: never cut between its halves.
  const end = /[\uD800-\uDBFF]/.test(line[MAX_LINE - 1]!) ? MAX_LINE - 1 : MAX_LINE;
  return `${line.slice(0, end)}… (${line.length.toLocaleString("en-US")} characters)`;
}
