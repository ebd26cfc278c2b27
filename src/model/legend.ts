import type { Legend } from "../annotation/types.js";
import type { SchemaAt, SchemaReader } from "../openapi/schema.js";
import type { LegendModel } from "./types.js";

type Entries = [code: string | number, word: string][];

/** The extensions code generators use to name enum members, in the order they are consulted. */
const NAME_EXTENSIONS = ["x-enum-varnames", "x-enumNames", "x-enum-descriptions"];

/** `IN_PROGRESS` to `in progress`: constant names read as words; anything else is kept as written. */
const asWords = (name: string) => (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(name) ? name.toLowerCase().replace(/_/g, " ") : name);

/** An extension that names fewer codes than the enum has: worth saying exactly, not "no legend". */
export function shortSpecLegend(reader: SchemaReader, at: SchemaAt): string | undefined {
  const resolved = reader.unwrapNullable(at);
  const values = Array.isArray(resolved.schema["enum"]) ? resolved.schema["enum"].filter((v) => v !== null) : [];
  for (const extension of NAME_EXTENSIONS) {
    const names = resolved.schema[extension];
    if (Array.isArray(names) && names.length < values.length)
      return `${extension} names ${names.length} of the enum's ${values.length} codes`;
  }
  return undefined;
}

/** Words the spec itself gives an enum's codes, or undefined when it gives none. */
export function specLegend(reader: SchemaReader, at: SchemaAt): Entries | undefined {
  const resolved = reader.unwrapNullable(at);
  const values = Array.isArray(resolved.schema["enum"]) ? resolved.schema["enum"].filter((v) => v !== null) : undefined;
  if (values) {
    for (const extension of NAME_EXTENSIONS) {
      const names = resolved.schema[extension];
      if (Array.isArray(names) && names.length >= values.length && names.every((n) => typeof n === "string")) {
        const word = extension === "x-enum-varnames" ? asWords : (name: string) => name;
        return values.map((value, i) => [value as string | number, word(names[i] as string)]);
      }
    }
  }
  const branches = reader.constBranches(resolved);
  if (branches?.every((b) => typeof b.title === "string" && (typeof b.value === "number" || typeof b.value === "string"))) {
    return branches.map((b) => [b.value as string | number, b.title as string]);
  }
  return undefined;
}

export type LegendProblem =
  { kind: "no-spec-legend"; detail?: string } | { kind: "missing-codes"; codes: (string | number)[] } | { kind: "bad-code"; code: string };

export interface LegendResult {
  legend?: LegendModel;
  problems: LegendProblem[];
  /** Codes the inline legend names that the spec's enum does not list: kept, but worth a warning. */
  extraCodes: string[];
}

/** Turns an annotation legend into a checked model against the field's enum. */
export function buildLegend(reader: SchemaReader, at: SchemaAt, legend: Legend, numeric: boolean): LegendResult {
  const enumValues = reader.enumValues(at) ?? [];
  if (legend.source === "resolver") return { legend: { kind: "resolver", resolver: legend.resolver }, problems: [], extraCodes: [] };
  let entries: Entries;
  const problems: LegendProblem[] = [];
  if (legend.source === "spec") {
    const found = specLegend(reader, at);
    if (!found) {
      const detail = shortSpecLegend(reader, at);
      return { problems: [{ kind: "no-spec-legend", ...(detail ? { detail } : {}) }], extraCodes: [] };
    }
    entries = found;
  } else {
    entries = [];
    for (const [code, word] of legend.words) {
      if (numeric) {
        const value = Number(code);
        if (code.trim() === "" || !Number.isFinite(value)) problems.push({ kind: "bad-code", code });
        else entries.push([value, word]);
      } else entries.push([code, word]);
    }
  }
  const known = new Set(entries.map(([code]) => code));
  const missing = enumValues.filter((value) => typeof value !== "boolean" && !known.has(value)) as (string | number)[];
  if (missing.length > 0) problems.push({ kind: "missing-codes", codes: missing });
  const declared = new Set<unknown>(enumValues);
  const extraCodes = enumValues.length === 0 ? [] : entries.filter(([code]) => !declared.has(code)).map(([code]) => String(code));
  return { legend: { kind: "static", entries }, problems, extraCodes };
}
