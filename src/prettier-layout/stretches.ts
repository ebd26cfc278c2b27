/**
 * How long a stretch of a large file is, at the least, when it is laid out a stretch at a time.
 * A file's tokens and syntax tree live until its last statement is printed; for a file of megabytes
 * (a large spec's definitions.ts) they outlive several young-generation collections, each of which
 * copies them, so that laying out such a file whole took a fifth longer than in stretches.
 */
export const STRETCH_CHARACTERS = 20_000;

/** A line that ends a statement: at column 0, closing one or ending in `;`, with no comment on it. */
const STATEMENT_END = /^(?:}|[A-Za-z_$}\])][^\n]*[;}])$/;
/** A line that starts a statement no earlier line can run on into, or the comment before one. */
const STATEMENT_START = /(?:export|import|const|let|function|async|type|interface|\/\*\*|\/\/)[ \n]/y;

/**
 * The text cut into stretches of at least `least` characters, each ending a
 * statement, at blank lines only: each is laid out alone, and the whole is the stretches' layouts
 * joined by a blank line. A cut is made only between two statements at the file's top level, where
 * prettier keeps one blank line and lays out each statement as if the other were not there; a cut
 * these rules put elsewhere (inside braces, a comment) leaves a stretch that does not parse, and the
 * caller then lays out the file whole.
 */
export function stretchesOf(text: string, least = STRETCH_CHARACTERS): string[] {
  const stretches: string[] = [];
  let from = 0;
  let blank = text.indexOf("\n\n", least);
  while (blank !== -1) {
    if (betweenStatements(text, blank)) {
      stretches.push(text.slice(from, blank + 1));
      from = blank + 2;
      blank = text.indexOf("\n\n", from + least);
    } else blank = text.indexOf("\n\n", blank + 1);
  }
  stretches.push(text.slice(from));
  return stretches;
}

/** Whether the blank line at `blank` follows a line ending a statement and comes before one starting another. */
function betweenStatements(text: string, blank: number): boolean {
  const line = text.slice(text.lastIndexOf("\n", blank - 1) + 1, blank);
  if (!STATEMENT_END.test(line) || line.includes("//") || line.includes("/*")) return false;
  STATEMENT_START.lastIndex = blank + 2;
  return STATEMENT_START.test(text);
}
