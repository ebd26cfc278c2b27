import { Unsure } from "./source.js";

/**
 * A string literal as prettier prints it: in double quotes unless the content holds more double
 * quotes than single ones, with escapes prettier would drop dropped.
 */
export function printStringLiteral(raw: string): string {
  const quote = raw[0];
  if (quote !== '"' && quote !== "'") throw new Unsure(`string ${raw.slice(0, 20)}`);
  const content = raw.slice(1, -1);
  let doubles = 0;
  let singles = 0;
  for (let i = 0; i < content.length; i++) {
    const code = content.charCodeAt(i);
    if (code === 34) doubles++;
    else if (code === 39) singles++;
  }
  const enclosing = doubles > singles ? "'" : '"';
  if (raw[0] === enclosing) return raw;
  const other = enclosing === '"' ? "'" : '"';
  const body = content.replace(/\\(.)|(["'])/gs, (match, escaped: string | undefined, bare: string | undefined) => {
    if (escaped !== undefined) return escaped === other ? escaped : match;
    return bare === enclosing ? `\\${bare}` : bare!;
  });
  return enclosing + body + enclosing;
}

/** Prettier's number normalization: lower case, no `+` or leading zeros in the exponent, no trailing zeros or dot. */
export const printNumberLiteral = (text: string): string =>
  text
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");

/**
 * Columns prettier counts for text (its getStringWidth): one per character for ASCII, the scripts
 * below U+1100 and the punctuation below, none for control characters and combining marks. Wider
 * scripts and emoji are not counted here.
 */
export function textWidth(text: string): number {
  // Prettier's own shortcut: text of U+0020 to U+007F alone counts a column a character, DEL included,
  // though DEL among other text counts none.
  if (/^[\x20-\x7f]*$/.test(text)) return text.length;
  let width = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    // Judged first: a mark past these ranges may belong to an emoji sequence, which prettier counts as two.
    if (code >= 0x1100 && !(code >= NARROW_PUNCTUATION.from && code < NARROW_PUNCTUATION.to)) throw new Unsure("wide characters");
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f) || ZERO_WIDTH_MARK.test(character)) continue;
    width += 1;
  }
  return width;
}

/**
 * Latin and Greek extended letters, general punctuation (dashes, curly quotes, ‰), super- and
 * subscripts and currency signs (€): a column each, as in prettier, and common in descriptions.
 * The combining marks for symbols after them are not, since a keycap sequence (`1⃣`) is an emoji.
 */
const NARROW_PUNCTUATION = { from: 0x1e00, to: 0x20d0 };

/** The marks prettier counts as no column: every nonspacing and enclosing mark, not only the combining diacritics. */
const ZERO_WIDTH_MARK = /[\p{Mn}\p{Me}]/u;
