import type { Field, Model } from "../model/types.js";
import { closest } from "../suggest.js";

export interface Question {
  ask: string;
  tool: string;
  needs: string[];
}

export type NeedStatus =
  | { need: string; status: "kept"; as: string }
  | { need: string; status: "dropped"; reason: string }
  | { need: string; status: "missing"; suggestion?: string };

export interface QuestionResult {
  ask: string;
  tool: string;
  answerable: boolean;
  needs: NeedStatus[];
}

/** Output paths of every kept field, by the source name the annotation uses. */
function keptNames(fields: Field[], prefix = ""): Map<string, string> {
  const names = new Map<string, string>();
  for (const field of fields) {
    names.set(field.name, prefix + field.out);
    if (field.kind === "object") for (const [name, out] of keptNames(field.children, `${prefix}${field.out}.`)) names.set(name, out);
  }
  return names;
}

/**
 * Whether the projection carries what each question needs. A need is answerable when its field is
 * kept (or sits inside an object kept whole), or is a page field of the tool; otherwise the report
 * says whether it was dropped, with the annotation's reason, or never existed in the spec.
 */
export function evaluate(model: Model, questions: Question[]): QuestionResult[] {
  return questions.map((question) => {
    const tool = model.tools.find((t) => t.name === question.tool)!;
    const kept = keptNames(tool.resource.fields);
    const page = new Map(tool.page.map((p) => [p.path.join("."), p.key]));
    const dropped = new Map(tool.resource.dropped.map((d) => [d.name, d.reason]));
    const needs = question.needs.map((need): NeedStatus => {
      const direct = kept.get(need) ?? page.get(need);
      if (direct !== undefined) return { need, status: "kept", as: direct };
      const wholeParent = [...kept.keys()].find((name) => need.startsWith(`${name}.`));
      if (wholeParent !== undefined) return { need, status: "kept", as: `${kept.get(wholeParent)}${need.slice(wholeParent.length)}` };
      const reason = dropped.get(need) ?? [...dropped].find(([name]) => need.startsWith(`${name}.`))?.[1];
      if (reason !== undefined) return { need, status: "dropped", reason };
      const suggestion = closest(need, [...kept.keys(), ...dropped.keys(), ...page.keys()]);
      return { need, status: "missing", ...(suggestion !== undefined ? { suggestion } : {}) };
    });
    return { ask: question.ask, tool: question.tool, answerable: needs.every((n) => n.status === "kept"), needs };
  });
}

export function formatEvaluation(results: QuestionResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    lines.push(`${result.answerable ? "answerable    " : "NOT answerable"}  ${result.ask}  [${result.tool}]`);
    for (const need of result.needs) lines.push(`                  ${need.need}: ${verdict(need)}`);
  }
  const answerable = results.filter((r) => r.answerable).length;
  lines.push("", `${answerable} of ${results.length} question(s) answerable from the projection`);
  return `${lines.join("\n")}\n`;
}

function verdict(need: NeedStatus): string {
  if (need.status === "kept") return `kept as ${need.as}`;
  if (need.status === "dropped") return `dropped by the annotation: ${need.reason}`;
  return `never existed in the spec${need.suggestion ? ` (did you mean "${need.suggestion}"?)` : ""}`;
}
