import { parseAnnotation } from "../annotation/parse.js";
import type { Diagnostic } from "../diagnostics.js";
import type { TextFigures } from "../evidence/text-choice.js";
import { buildModel } from "../model/build.js";
import type { Model } from "../model/types.js";
import type { LoadedSpec } from "../openapi/load.js";
import { SchemaReader } from "../openapi/schema.js";
import { listOperations } from "../model/operations.js";
import { jsonApiTypes } from "../model/rows.js";
import { draftAnnotation, type Draft, type DraftOptions } from "./draft.js";
import { adoptExisting } from "./existing.js";
import { renderDraft, type RenderOptions } from "./render.js";

export interface InitOptions extends DraftOptions, RenderOptions {
  /** The annotation file as messages name it. */
  file: string;
}

export interface InitResult {
  text: string;
  draft: Draft;
  added: string[][];
  todos: number;
  /** Guesses generate would reject, turned into drops (or todos) with the reason. */
  demoted: { path: string; message: string }[];
  /** Problems left in entries a person wrote, which init never changes. */
  remaining: Diagnostic[];
  /** How many times the generator checked the draft: once, and once more after each round of changes. */
  checks: number;
  /** The model of the draft as written, when it generates as it stands (guesses accepted, nothing left to decide). */
  model?: Model;
}

const MAX_ROUNDS = 5;

/**
 * Drafts (or extends) an annotation and checks it with the generator itself: any guess generate
 * would reject is demoted, and any tool it cannot project is left out, so `--accept-guesses`
 * always yields an annotation that generates.
 */
export function initAnnotation(spec: LoadedSpec, options: InitOptions): InitResult {
  const reader = new SchemaReader(spec.document);
  const draft = draftAnnotation(reader, options);
  if (options.existing !== undefined) adoptExisting(draft, options.existing, listOperations(reader));
  const demoted: InitResult["demoted"] = [];
  for (let round = 0; ; round++) {
    const rendered = renderDraft(draft, options);
    const annotation = parseAnnotation(rendered.text, options.file);
    const built = buildModel(annotation, spec);
    const errors = built.diagnostics.filter((d) => d.severity === "error" && d.code !== "PRJ032");
    // Lines are found only for a draft with errors: finding them parses the whole draft again.
    const entries = () =>
      [...rendered.added, ...[...draft.resources.keys()].map((name) => ["resources", name])]
        .map((path) => ({ path, line: annotation.locate(path, "key").line ?? 0 }))
        .sort((a, b) => a.line - b.line)
        .reverse();
    let lines: ReturnType<typeof entries> | undefined;
    const owner = (line: number) => {
      lines ??= entries();
      return lines.find((e) => e.line <= line)?.path;
    };
    let changed = false;
    const unreturned = new Set<string>();
    for (const error of errors) {
      const path = owner(error.location.line ?? 0);
      if (!path) continue;
      const [section, name, , field] = path;
      if (section === "tools" && draft.tools.has(name!)) {
        unreturned.add(draft.tools.get(name!)!.resource);
        draft.tools.delete(name!);
        draft.skipped.push({ operation: name!, reason: error.message });
        changed = true;
      } else if (section === "resources" && field !== undefined) {
        const entry = draft.resources.get(name!)?.fields.find(([f]) => f === field);
        if (entry && !("drop" in (typeof entry[1].rule === "object" ? entry[1].rule : {}))) {
          entry[1] = { rule: { drop: "projector cannot keep it as guessed" }, reason: error.message, sure: false };
          demoted.push({ path: path.join("."), message: error.message });
          changed = true;
        }
      } else if (section === "resources" && draft.resources.delete(name!)) {
        for (const [tool, entry] of draft.tools) {
          if (entry.resource !== name) continue;
          draft.tools.delete(tool);
          draft.skipped.push({
            operation: tool,
            reason: `the resource it returns, ${name}, cannot be generated as drafted: ${error.message}`,
          });
        }
        changed = true;
      }
    }
    for (const name of unreturned) if (!returnedOrLocated(draft, name, reader)) draft.resources.delete(name);
    if (!changed || round >= MAX_ROUNDS)
      return {
        ...rendered,
        draft,
        demoted,
        remaining: errors,
        checks: round + 1,
        ...(built.model ? { model: built.model } : {}),
      };
  }
}

/**
 * Whether a resource still generates once a tool that returned it is left out: another tool
 * returns it, or the spec has its schema. One that does not, generate refuses (PRJ013); it is
 * left out in the same round as its tool, not found in a check of its own.
 */
function returnedOrLocated(draft: Draft, name: string, reader: SchemaReader): boolean {
  const resource = draft.resources.get(name);
  if (!resource) return true;
  return (
    [...draft.tools.values()].some((tool) => tool.resource === name) || resource.schema !== undefined || jsonApiTypes(reader).has(name)
  );
}

/**
 * The draft as generate would take it with every guess accepted, for measuring what the tools
 * would send; undefined when even that does not generate.
 */
export function acceptedModel(result: InitResult, spec: LoadedSpec, options: InitOptions): Model | undefined {
  const annotation = parseAnnotation(renderDraft(result.draft, { ...options, acceptGuesses: true }).text, options.file);
  return buildModel(annotation, spec).model;
}

/** Proposes `text: table` for each drafted list tool whose spec example reads in fewer tokens as a table. */
export function proposeTables(result: InitResult, figures: ReadonlyMap<string, TextFigures>, options: InitOptions): InitResult {
  let proposed = false;
  for (const [name, counted] of figures) {
    const tool = result.draft.tools.get(name);
    if (!tool || counted.table >= counted.json) continue;
    tool.table = counted;
    proposed = true;
  }
  if (!proposed) return result;
  return { ...result, ...renderDraft(result.draft, options) };
}
