import { Document, isMap, parseDocument, YAMLMap, type Node } from "yaml";
import type { Draft } from "./draft.js";
import type { Guess } from "./guess.js";

export interface RenderOptions {
  spec: string;
  output: string;
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

function ruleValue(guess: Guess, acceptGuesses: boolean): unknown {
  if (guess.sure || acceptGuesses) return guess.rule;
  return { todo: guess.reason, ...(guess.rule === "keep" ? {} : guess.rule) };
}

function section(doc: Document, key: string): YAMLMap {
  const found = doc.get(key, true);
  if (isMap(found)) return found;
  const created = new YAMLMap();
  doc.set(key, created);
  return created;
}

function childMap(parent: YAMLMap, key: string): YAMLMap {
  const found = parent.get(key, true);
  if (isMap(found)) return found;
  const created = new YAMLMap();
  parent.set(key, created);
  return created;
}

function flowNode(doc: Document, value: unknown, comment?: string): Node {
  const node = doc.createNode(value) as Node & { flow?: boolean; comment?: string | null };
  if (isMap(node)) node.flow = true;
  for (const item of isMap(node) ? node.items : []) {
    const inner = item.value as { flow?: boolean } | null;
    if (inner && typeof inner === "object") inner.flow = true;
  }
  if (comment) node.comment = ` ${comment.replace(/\s+/g, " ")}`;
  return node;
}

/** Writes the draft into the annotation file, adding only what it does not already hold. */
export function renderDraft(draft: Draft, options: RenderOptions): Rendered {
  const doc = options.existing !== undefined ? parseDocument(options.existing) : new Document({ spec: options.spec, output: options.output });
  if (options.existing === undefined) doc.commentBefore = HEADER;
  const added: string[][] = [];
  let todos = 0;
  const resolvers = section(doc, "resolvers");
  for (const [name, resolver] of draft.resolvers) {
    if (resolvers.has(name)) continue;
    resolvers.set(name, flowNode(doc, resolver, resolver.type ? undefined : "plain lookup: no `included` records carry its names"));
    added.push(["resolvers", name]);
  }
  const resources = section(doc, "resources");
  for (const [name, resource] of draft.resources) {
    const isNew = !resources.has(name);
    const entry = childMap(resources, name);
    if (isNew && resource.schema !== undefined) entry.set("schema", resource.schema);
    const fields = childMap(entry, "fields");
    for (const [field, guess] of resource.fields) {
      if (fields.has(field)) continue;
      const decided = guess.sure || options.acceptGuesses;
      if (!decided) todos++;
      fields.set(field, flowNode(doc, ruleValue(guess, options.acceptGuesses), decided ? guess.reason : undefined));
      added.push(["resources", name, "fields", field]);
    }
  }
  const tools = section(doc, "tools");
  for (const [name, tool] of draft.tools) {
    if (tools.has(name)) continue;
    const value: Record<string, unknown> = { operation: tool.operation };
    if (tool.explicitResource) value["resource"] = tool.resource;
    if (tool.page.length) value["page"] = Object.fromEntries(tool.page);
    const node = doc.createNode(value) as YAMLMap;
    const page = node.get("page", true) as { flow?: boolean } | undefined;
    if (page) page.flow = true;
    tools.set(name, node);
    added.push(["tools", name]);
  }
  return { text: doc.toString({ lineWidth: 0, flowCollectionPadding: false }), added, todos };
}
