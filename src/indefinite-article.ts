/**
 * Lowercase initialisms spoken letter by letter whose sound differs from their first letter's
 * spelling: "an sla", "an http", "a uuid", "a url". Other words take the article their first
 * letter's vowel or consonant gives.
 */
const SPELLED_OUT = new Set([
  "ftp",
  "hmac",
  "html",
  "http",
  "https",
  "lcd",
  "mcp",
  "mfa",
  "nfc",
  "rsa",
  "rss",
  "sdk",
  "sftp",
  "sku",
  "sla",
  "sms",
  "smtp",
  "ssh",
  "ssl",
  "ssn",
  "ui",
  "uri",
  "url",
  "usb",
  "uuid",
  "xml",
]);

/** Letters whose names start with a vowel sound: "an F", "an S3 bucket", "an X". */
const VOWEL_SOUNDING_LETTERS = /^[aefhilmnorsx]/i;

/** Words spelled with a vowel that start with a consonant sound ("a user", "a euro", "a one-time code"). */
const CONSONANT_SOUNDING = /^(?:uni(?!n)|us[aeu]|uti|ur[aeio]|uu|euro?|eu|ewe|one(?![a-z])|once)/;

/** Words spelled with an `h` that start with a vowel sound ("an hour", "an honest"). */
const SILENT_H = /^(?:hour|honest|honou?r|heir)/;

/**
 * "a" or "an" before a phrase, by how its first word sounds: "a user", "an hour", "an id", "a uuid",
 * "an SLA", "a URL", "an 8". Names come from specs and annotations in any case style, so only the
 * first word of a snake_case, kebab-case or camelCase name counts.
 */
export function indefiniteArticle(phrase: string): "a" | "an" {
  const text = phrase.replace(/^[^A-Za-z0-9]+/, "");
  if (/^\d/.test(text)) return /^(?:8|1[18](?!\d))/.test(text) ? "an" : "a";
  // Two capitals, or one standing alone, are letters read out: "an HTTP", "an S3", "a UUID".
  if (/^[A-Z](?:[A-Z]|(?![a-z]))/.test(text)) return VOWEL_SOUNDING_LETTERS.test(text) ? "an" : "a";
  const word = (/^[A-Za-z][a-z]*/.exec(text)?.[0] ?? "").toLowerCase();
  if (SPELLED_OUT.has(word)) return VOWEL_SOUNDING_LETTERS.test(word) ? "an" : "a";
  if (CONSONANT_SOUNDING.test(word)) return "a";
  if (SILENT_H.test(word)) return "an";
  return /^[aeiou]/.test(word) ? "an" : "a";
}

/** The phrase after its indefinite article: "a ticket", "an incident", "a user". */
export const withArticle = (phrase: string): string => `${indefiniteArticle(phrase)} ${phrase}`;

/** The text with its first letter upper-case, as a sentence starts. */
export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
