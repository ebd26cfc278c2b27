// Reads a table text (serializeToolResult with `text: table`) back into the JSON result, exactly:
// the round-trip tests use it to show the table drops nothing and confuses nothing.

const MARKER = /^(unresolved|unknown_code|unusable):/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A cursor over one line; each reader consumes what it reads. */
class Line {
  position = 0;
  constructor(readonly text: string) {}
  get rest() {
    return this.text.slice(this.position);
  }
  expect(literal: string) {
    if (!this.rest.startsWith(literal))
      throw new Error(`expected ${JSON.stringify(literal)} at ${this.position} of ${JSON.stringify(this.text)}`);
    this.position += literal.length;
  }
  get done() {
    return this.position >= this.text.length;
  }
}

/** A JSON string or a balanced JSON array/object starting at the cursor. */
function readJson(line: Line): unknown {
  const start = line.position;
  let depth = 0;
  let inString = false;
  for (let i = start; i < line.text.length; i++) {
    const c = line.text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return finish(i + 1);
      }
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return finish(i + 1);
    }
  }
  throw new Error(`unterminated JSON in ${JSON.stringify(line.text)}`);
  function finish(end: number) {
    line.position = end;
    return JSON.parse(line.text.slice(start, end)) as unknown;
  }
}

function readCell(line: Line, stop: RegExp): unknown {
  const first = line.text[line.position];
  if (first === '"' || first === "[" || first === "{") return readJson(line);
  const marker = MARKER.exec(line.rest);
  if (marker) {
    line.position += marker[0].length;
    return { [marker[1]!]: readCell(line, stop) };
  }
  const match = stop.exec(line.rest);
  const token = match ? line.rest.slice(0, match.index) : line.rest;
  line.position += token.length;
  if (token === "null") return null;
  if (token === "true") return true;
  if (token === "false") return false;
  if (JSON_NUMBER.test(token)) return Number(token);
  if (token === "") throw new Error(`empty bare cell in ${JSON.stringify(line.text)}`);
  return token;
}

function readKey(line: Line, stop: RegExp): string {
  if (line.text[line.position] === '"') return readJson(line) as string;
  const match = stop.exec(line.rest)!;
  const key = line.rest.slice(0, match.index);
  line.position += key.length;
  return key;
}

export function parseTable(text: string): Record<string, unknown> {
  const lines = text.split("\n");
  const header = new Line(lines[0]!);
  const list = readKey(header, /\[/);
  header.expect("[");
  const count = Number(/^\d+/.exec(header.rest)![0]);
  header.position += String(count).length;
  header.expect("]{");
  const columns: string[] = [];
  while (!header.rest.startsWith("}")) {
    if (columns.length > 0) header.expect(",");
    columns.push(readKey(header, /[,}]/));
  }
  header.expect("}:");
  if (!header.done) throw new Error(`trailing text after the header: ${header.rest}`);
  const records = lines.slice(1, 1 + count).map((text) => {
    const line = new Line(text);
    line.expect("  ");
    const record: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      if (i > 0) line.expect(",");
      record[column] = readCell(line, /,/);
    });
    if (!line.done) throw new Error(`more cells than columns: ${JSON.stringify(text)}`);
    return record;
  });
  const result: Record<string, unknown> = { [list]: records };
  const rest = lines.slice(1 + count);
  if (rest.length > 1) throw new Error(`more than one page line: ${JSON.stringify(rest)}`);
  if (rest.length === 1) {
    const line = new Line(rest[0]!);
    while (!line.done) {
      if (line.position > 0) line.expect(", ");
      const key = readKey(line, /: /);
      line.expect(": ");
      result[key] = readCell(line, /,/);
    }
  }
  return result;
}
