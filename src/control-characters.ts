/**
 * Control characters other than tab, line feed and carriage return: C0, DEL and C1. A NUL makes git
 * treat a file as binary, and ESC or CSI sequences restyle or rewrite the terminal showing them.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Each control character as the six characters of its JavaScript escape, `\u0000`. */
export const escapeControlCharacters = (text: string): string =>
  text.replace(CONTROL_CHARACTERS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
