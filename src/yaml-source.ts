import { isMap, isNode, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from "yaml";
import type { FilePosition, SourceLocation } from "./diagnostics.js";

export type NodePath = readonly (string | number)[];

export interface YamlSource {
  document: Document;
  /** Parse problems, each with a 1-based line and column. */
  errors: { message: string; line: number; column: number }[];
  /** Where the node at `path` is, or its deepest ancestor that exists: always a line and column. */
  locate(path: NodePath, part?: "key" | "value"): FilePosition;
  /** The node at `path`, matched as `locate` matches it, or undefined where the path leaves the document. */
  nodeAt(path: NodePath): Node | undefined;
  /** Every alias in document order, with where it stands and what is wrong with it, if anything. */
  aliases(): YamlAlias[];
}

export interface YamlAlias {
  name: string;
  location: SourceLocation;
  /** `undefined`: no anchor of that name before it; `inside`: it stands inside the node it names, an endless value. */
  problem?: "undefined" | "inside";
}

/**
 * Parses YAML or JSON keeping positions, so any node can later be reported as file:line:col.
 * Paths that do not exist resolve to their deepest existing ancestor.
 */
export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  // The library's own unique-key check compares each key with every earlier one; on a spec's
  // `paths` or `schemas` of thousands of keys that took minutes, so keys are checked here instead.
  // A warning of the library (a key that is a list, stringified) would reach stderr raw; such a key is reported as undeclared.
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: true, logLevel: "error" });
  const at = (offset: number): FilePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const errors = [
    ...document.errors.map((error) => ({ message: error.message.split("\n")[0]!, offset: error.pos[0] })),
    ...duplicateKeys(document),
  ]
    .sort((a, b) => a.offset - b.offset)
    .map(({ message, offset }) => ({ message, ...at(offset) }));
  return {
    document,
    errors,
    locate(path, part = "value") {
      const { node, keyNode } = walk(document, path);
      const target = part === "key" && keyNode !== undefined ? keyNode : node;
      const range = isNode(target) ? (target as Node).range : undefined;
      return range ? at(range[0]) : { file, line: 1, column: 1 };
    },
    nodeAt(path) {
      const { node, depth } = walk(document, path);
      return depth === path.length && isNode(node) ? node : undefined;
    },
    aliases() {
      const found: YamlAlias[] = [];
      // An alias is written `*name`: a text without a star has none, and is not walked for them.
      if (!text.includes("*")) return found;
      // An alias names the latest anchor of that name before it; a later anchor may reuse the name.
      const anchors = new Map<string, unknown>();
      visit(document, {
        Node(_, node) {
          if (node.anchor) anchors.set(node.anchor, node);
        },
        Alias(_, node, path) {
          const target = anchors.get(node.source);
          const problem = target === undefined ? "undefined" : path.includes(target as never) ? "inside" : undefined;
          found.push({
            name: node.source,
            location: node.range ? at(node.range[0]) : { file, line: 1, column: 1 },
            ...(problem ? { problem } : {}),
          });
        },
      });
      return found;
    },
  };
}

/** A path segment as a list's index: a number, or a JSON pointer's token written as one (`1`, not `01`). */
export const listIndex = (segment: string | number): number | undefined =>
  typeof segment === "number" ? segment : /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : undefined;

/**
 * The node at `path`, or at its deepest ancestor that exists, with the key it stands under and how
 * many segments were matched. A key is matched by its text; a list item by a number. A key without
 * a value stands for its value.
 */
function walk(document: Document, path: NodePath): { node: unknown; keyNode: unknown; depth: number } {
  let node: unknown = document.contents;
  let keyNode: unknown;
  let depth = 0;
  for (const segment of path) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair) {
        keyNode = pair.key;
        next = pair.value ?? pair.key;
      }
    } else if (isSeq(node)) {
      const index = listIndex(segment);
      if (index !== undefined) {
        next = node.items[index];
        keyNode = next;
      }
    }
    if (next === undefined) break;
    node = next;
    depth++;
  }
  return { node, keyNode, depth };
}

/** Each key a mapping repeats, at the repetition, in one pass over each mapping. */
function duplicateKeys(document: Document): { message: string; offset: number }[] {
  const found: { message: string; offset: number }[] = [];
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        // As the library compares keys: by value, so `1` and `"1"` differ.
        if (seen.has(pair.key.value)) found.push({ message: "Map keys must be unique", offset: pair.key.range?.[0] ?? 0 });
        seen.add(pair.key.value);
      }
    },
  });
  return found;
}

export interface JsonSyntaxError {
  message: string;
  line: number;
  column: number;
}

/** The text's value, or JSON.parse's complaint about it with a 1-based line and column. */
export function parseJson(text: string): { value: unknown } | { error: JsonSyntaxError } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    const before = text.slice(0, position).split("\n");
    return {
      error: {
        message: message.replace(/ in JSON at position \d+.*$/s, ""),
        line: before.length,
        column: before[before.length - 1]!.length + 1,
      },
    };
  }
}
