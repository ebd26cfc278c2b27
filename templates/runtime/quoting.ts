// How markers and messages quote the values they name: bounded, and never an object's contents.

/** The most characters of a string an issue's `value` keeps, and of a resolver's error message a message quotes. */
export const ISSUE_VALUE_CHARACTERS = 200;

/** The most characters of a string a marker or an issue's message quotes. */
const QUOTED_CHARACTERS = 40;

export function clipped(text: string, most: number): string {
  return text.length <= most
    ? text
    : `${text.slice(0, most)}… (${text.length} characters)`;
}

/**
 * What was thrown, as text, whatever it is: an object without a prototype, or an Error whose
 * `message` getter throws, must not turn a resolver's failure into a TypeError.
 */
export function messageOf(thrown: unknown): string {
  try {
    const message: unknown = thrown instanceof Error ? thrown.message : thrown;
    if (typeof message === "string")
      return clipped(message, ISSUE_VALUE_CHARACTERS);
    if (typeof message === "object" && message !== null)
      return `a thrown ${typeName(message)}`;
    return clipped(String(message), ISSUE_VALUE_CHARACTERS);
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
 * {@link QUOTED_CHARACTERS} characters; an object or array by its type alone, never its content.
 */
export function described(value: unknown): string {
  if (typeof value === "string")
    return (
      JSON.stringify(value.slice(0, QUOTED_CHARACTERS)) +
      (value.length > QUOTED_CHARACTERS ? `… (${value.length} characters)` : "")
    );
  if (typeof value === "number" || typeof value === "boolean")
    return String(value);
  return typeName(value);
}
