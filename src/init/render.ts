import { Document, parse, isMap, isNode, isScalar, parseDocument, type Node } from "yaml";
import { escapeControlCharacters, escapeUnseenCharacters } from "../control-characters.js";
import type { Draft } from "./draft.js";
import type { DraftInput } from "./inputs.js";
import type { Guess } from "./guess.js";
import type { DraftNext } from "./next-page.js";

export interface RenderOptions {
  spec: string;
  output: string;
  /** The annotation schema, relative to the annotation: a new file's first line points the YAML language server at it. */
  schema?: string;
  acceptGuesses: boolean;
  /** The annotation file as it is: every entry in it is a decision and is kept as written. */
  existing?: string;
}

export interface Rendered {
  text: string;
  /** Paths this run added, e.g. ["resources", "ticket", "fields", "subject"]; the rest was already there. */
  added: string[][];
  /** How many of the added fields are written as `todo`. */
  todos: number;
}

const HEADER = [
  " Drafted by `projector init`. Every field the spec declares is listed with a guessed role and why.",
  " A `todo` is a guess generate refuses until someone decides: delete the `todo:` key to accept the",
  " guess beside it, or write another rule. Re-running init keeps every decision and adds what the spec gained.",
].join("\n");

const REASON_KEYS = new Set(["drop", "todo"]);

/** One line of YAML for a value, in flow style: `{format: datetime}`. */
function inline(doc: Document, value: unknown): string {
  const node = doc.createNode(value) as Node & { flow?: boolean };
  if (isMap(node)) node.flow = true;
  for (const item of isMap(node) ? node.items : []) {
    const inner = item.value as { flow?: boolean } | null;
    if (inner && typeof inner === "object") inner.flow = true;
    // Reasons are prose: quoted, a comma or colon a person adds later cannot end them.
    if (isScalar(item.key) && REASON_KEYS.has(String(item.key.value)) && isScalar(item.value) && typeof item.value.value === "string")
      item.value.type = "QUOTE_DOUBLE";
  }
  return new Document(node).toString({ lineWidth: 0 }).trim();
}

/**
 * Text as a YAML scalar on one line, read back as itself and seen as it is: plain where it can be,
 * else double-quoted with each unseen character (a line break, a bidi mark) and each space but the
 * plain one as its escape, as where YAML would read it otherwise (a space at either end, trimmed).
 */
function scalarText(text: string): string {
  const plain = new Document(text).toString({ lineWidth: 0 }).trim();
  if (!plain.includes("\n") && escapeUnseenCharacters(text) === text && !OTHER_SPACE.test(text) && parse(plain) === text) return plain;
  return escapeUnseenCharacters(JSON.stringify(text)).replace(
    OTHER_SPACES,
    (space) => `\\u${space.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Spaces other than the plain one (a no-break space, an ideographic space): a reader cannot tell them from it. */
const OTHER_SPACE = /(?! )\p{Zs}/u;
const OTHER_SPACES = new RegExp(OTHER_SPACE.source, "gu");

/** YAML reads a key written before its `:` up to this many characters long. */
const MAX_IMPLICIT_KEY = 1024;

/** A key to write `: value` after: a longer one as an explicit key, `? key` on a line of its own. */
function keyText(key: string): string {
  const text = scalarText(key);
  return text.length > MAX_IMPLICIT_KEY ? `? ${text}\n` : text;
}

/** A text's lines, each after a prefix: an explicit key's `: value` stays beside its `? key`. */
const under = (prefix: string, text: string) => text.split("\n").map((line) => `${prefix}${line}`);

/** Values (flow style) and keys as YAML, each distinct one written once: most fields share a handful of rules. */
function yamlWriter() {
  const doc = new Document();
  const once = <K, V>(write: (key: K) => V) => {
    const written = new Map<K, V>();
    return (key: K): V => {
      if (!written.has(key)) written.set(key, write(key));
      return written.get(key)!;
    };
  };
  const value = once((json: string) => inline(doc, JSON.parse(json)));
  return { value: (of: unknown) => value(JSON.stringify(of)), key: once(keyText), text: once(scalarText) };
}
type YamlWriter = ReturnType<typeof yamlWriter>;

const LEGEND_WORDS_SHOWN = 6;

/** `filter[status]: { as: status } # legend: ...`: the entry, and for a parameter of codes the words the model passes instead. */
function inputLine(yaml: YamlWriter, input: DraftInput): string {
  if (input.drop !== undefined) return `${yaml.key(input.name)}: ${yaml.value({ drop: input.drop })}`;
  const entry = `${yaml.key(input.name)}: ${yaml.value(input.as === undefined ? {} : { as: input.as })}`;
  if (!input.words) return entry;
  const shown = input.words.slice(0, LEGEND_WORDS_SHOWN).join(", ") + (input.words.length > LEGEND_WORDS_SHOWN ? ", ..." : "");
  const comment = escapeControlCharacters(`the model passes the spec's words (${shown}); the API gets their codes`).replace(/\s+/g, " ");
  return `${entry} # ${comment}`;
}

/** A drafted `page.next` as written: the rule, or a `todo` beside the guess; nothing when accepting guesses and there is none. */
function nextValue(next: DraftNext, acceptGuesses: boolean): unknown {
  if (next.sure || (acceptGuesses && next.rule !== undefined)) return next.rule;
  if (acceptGuesses) return undefined;
  return { todo: next.reason, ...(typeof next.rule === "object" ? next.rule : next.rule !== undefined ? { path: next.rule } : {}) };
}

interface Entry {
  path: string[];
  /** Every path the entry adds: itself, and the fields of a new resource. */
  paths: string[][];
  /** Lines relative to the map's indentation, none holding a line break. */
  lines: string[];
}

/** The draft's entries the annotation does not hold yet, as YAML lines, section by section. */
function missingEntries(draft: Draft, holds: (path: string[]) => boolean, acceptGuesses: boolean): { entries: Entry[]; todos: number } {
  const yaml = yamlWriter();
  const entries: Entry[] = [];
  let todos = 0;
  const field = (name: string, guess: Guess) => {
    if (!guess.sure && !acceptGuesses) {
      todos++;
      return `${yaml.key(name)}: ${yaml.value({ todo: guess.reason, ...(guess.rule === "keep" ? {} : guess.rule) })}`;
    }
    return `${yaml.key(name)}: ${yaml.value(guess.rule)} # ${guess.reason.replace(/\s+/g, " ")}`;
  };
  for (const [name, { reason, ...resolver }] of draft.resolvers) {
    if (holds(["resolvers", name])) continue;
    const comment = reason ?? (resolver.type ? undefined : "plain lookup: no `included` records carry its names");
    entries.push({
      path: ["resolvers", name],
      paths: [["resolvers", name]],
      lines: under(
        "",
        `${yaml.key(name)}: ${yaml.value(resolver)}${comment === undefined ? "" : ` # ${escapeControlCharacters(comment).replace(/\s+/g, " ")}`}`,
      ),
    });
  }
  for (const [name, resource] of draft.resources) {
    if (!holds(["resources", name])) {
      entries.push({
        path: ["resources", name],
        paths: [["resources", name], ...resource.fields.map(([f]) => ["resources", name, "fields", f])],
        lines: [
          ...under("", `${yaml.key(name)}:`),
          ...(resource.schema !== undefined ? [`  schema: ${yaml.text(resource.schema)}`] : []),
          "  fields:",
          ...resource.fields.flatMap(([f, guess]) => under("    ", field(f, guess))),
        ],
      });
      continue;
    }
    // A resource's default (`*: { drop: reason }`) already decides every field not named.
    const defaulted = holds(["resources", name, "fields", "*"]);
    for (const [f, guess] of resource.fields) {
      const path = ["resources", name, "fields", f];
      if (!holds(path) && !defaulted) entries.push({ path, paths: [path], lines: under("", field(f, guess)) });
    }
  }
  for (const [name, tool] of draft.tools) {
    if (holds(["tools", name])) continue;
    const lines = [...under("", `${yaml.key(name)}:`), `  operation: ${yaml.text(tool.operation)}`];
    if (tool.rows) lines.push(`  rows: ${yaml.text(tool.rows.path)} # beside it, not in the result: ${tool.rows.unread.join(", ")}`);
    if (tool.explicitResource) lines.push(`  resource: ${yaml.text(tool.resource)}`);
    const next = tool.next && nextValue(tool.next, acceptGuesses);
    if (next && !tool.next!.sure && !acceptGuesses) todos++;
    const page = [...tool.page, ...(next ? [["next", next] as const] : [])];
    if (page.length) lines.push(`  page: ${yaml.value(Object.fromEntries(page))}`);
    if (tool.table) lines.push(`  text: table # the spec's example: ${tool.table.table} tokens as a table, ${tool.table.json} as JSON`);
    if (tool.inputs?.length) lines.push("  inputs:", ...tool.inputs.flatMap((input) => under("    ", inputLine(yaml, input))));
    entries.push({ path: ["tools", name], paths: [["tools", name]], lines });
  }
  return { entries, todos };
}

/**
 * Writes the draft into the annotation file. A new file is written whole; an existing one only
 * gains lines, inserted at the end of the map each belongs to, so every decision and comment a
 * person wrote stays byte for byte.
 */
export function renderDraft(draft: Draft, options: RenderOptions): Rendered {
  if (options.existing === undefined) {
    const doc = new Document({ spec: options.spec, output: options.output, resolvers: {}, resources: {}, tools: {} });
    doc.commentBefore = options.schema === undefined ? HEADER : ` yaml-language-server: $schema=${options.schema}\n${HEADER}`;
    const { entries, todos } = missingEntries(draft, () => false, options.acceptGuesses);
    return { text: fillSections(String(doc), entries), added: entries.flatMap((e) => e.paths), todos };
  }
  const existing = parseDocument(options.existing);
  const { entries, todos } = missingEntries(draft, (path) => existing.hasIn(path), options.acceptGuesses);
  return { text: insert(options.existing, entries), added: entries.flatMap((e) => e.paths), todos };
}

/**
 * A new file's sections, each `name: {}` on a line of its own at the end, filled with their
 * entries: what {@link insert} makes of them, without parsing the text once a section. A section's
 * line is the last of its text at the start of a line: the spec's path and the output folder come
 * before it, and what is filled in is indented.
 */
function fillSections(text: string, entries: Entry[]): string {
  const sections = new Map<string, string[]>();
  for (const { path, lines } of entries) sections.set(path[0]!, [...(sections.get(path[0]!) ?? []), ...lines]);
  let result = text;
  for (const [section, lines] of sections) {
    const empty = `\n${section}: {}\n`;
    const at = result.lastIndexOf(empty);
    if (at === -1) throw new Error(`cannot add to ${section}: the new file has no empty ${section} section`);
    const filled = `\n${section}:\n${lines.map((line) => `  ${line}`).join("\n")}\n`;
    result = result.slice(0, at) + filled + result.slice(at + empty.length);
  }
  return result;
}

/** The offset just past the line holding `offset`. */
const afterLine = (text: string, offset: number) => {
  const newline = text.indexOf("\n", offset);
  return newline === -1 ? text.length : newline + 1;
};
const columnOf = (text: string, offset: number) => offset - text.lastIndexOf("\n", offset - 1) - 1;

/**
 * Inserts each entry's lines after the last line of the block map it belongs to, creating sections
 * when missing. The text is parsed once for every map that already holds entries, however many
 * there are (re-running init on a large annotation adds fields to hundreds of resources); only a
 * section that is missing or empty is made one at a time, and there are at most a few.
 */
function insert(text: string, entries: Entry[]): string {
  const byParent = new Map<string, Group>();
  for (const entry of entries) {
    const parent = JSON.stringify(entry.path.slice(0, -1));
    const group = byParent.get(parent);
    if (group) group.lines.push(...entry.lines);
    else byParent.set(parent, { path: entry.path, parentPath: entry.path.slice(0, -1), lines: [...entry.lines] });
  }
  const original = text.endsWith("\n") ? text : `${text}\n`;
  const doc = parseDocument(original);
  const inserts: { at: number; depth: number; text: string }[] = [];
  const rest: Group[] = [];
  for (const group of byParent.values()) {
    const parent = doc.getIn(group.parentPath, true);
    if (!(isMap(parent) && !parent.flow && parent.range && parent.items.length > 0)) {
      rest.push(group);
      continue;
    }
    const first = parent.items[0]!;
    const indent = isNode(first.key) && first.key.range ? columnOf(original, first.key.range[0]) : group.parentPath.length * 2;
    inserts.push({
      at: afterLine(original, Math.max(parent.range[1] - 1, 0)),
      depth: group.parentPath.length,
      text: `${group.lines.map((l) => `${" ".repeat(indent)}${l}`).join("\n")}\n`,
    });
  }
  // Where an inner map ends on the same line as the one holding it, its lines go first: they belong inside.
  inserts.sort((a, b) => a.at - b.at || b.depth - a.depth);
  let result = "";
  let from = 0;
  for (const { at, text: lines } of inserts) {
    result += original.slice(from, at) + lines;
    from = at;
  }
  result += original.slice(from);
  for (const group of rest) result = insertIntoEmpty(result, group);
  return result;
}

/** The entries of one map: the first one's path, the map's, and their lines. */
interface Group {
  path: string[];
  parentPath: string[];
  lines: string[];
}

/** Adds lines to a section or map that is missing or empty (`tools: {}`), parsing the text as it now is. */
function insertIntoEmpty(text: string, { path, parentPath, lines }: Group): string {
  let result = text;
  const doc = parseDocument(result);
  const holder = parentPath.length === 1 ? doc.contents : doc.getIn(parentPath.slice(0, -1), true);
  const pair = isMap(holder)
    ? holder.items.find((item) => isNode(item.key) && String((item.key as { value?: unknown }).value) === parentPath[parentPath.length - 1])
    : undefined;
  let at: number;
  let indent: number;
  if (pair && isNode(pair.key) && pair.key.range && (pair.value === null || (isMap(pair.value) && pair.value.items.length === 0))) {
    indent = columnOf(result, pair.key.range[0]) + 2;
    const keyLineEnd = afterLine(result, pair.key.range[0]);
    result = result.slice(0, keyLineEnd).replace(/:\s*\{\}\s*(#.*)?\n$/, ":\n") + result.slice(keyLineEnd);
    at = afterLine(result, pair.key.range[0]);
  } else if (!pair && parentPath.length === 1) {
    result += `${parentPath[0]}:\n`;
    indent = 2;
    at = result.length;
  } else {
    throw new Error(`cannot add ${path.join(".")}: ${parentPath.join(".")} is not a block mapping`);
  }
  return `${result.slice(0, at) + lines.map((l) => `${" ".repeat(indent)}${l}`).join("\n")}\n${result.slice(at)}`;
}
