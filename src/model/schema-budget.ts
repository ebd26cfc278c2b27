import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import type { JsonSchema } from "./types.js";

/**
 * How large a schema generate spells out, in characters of JSON, about: a tool's input schema (each
 * parameter's, the body's) and a kept value's type. `$ref`s are inlined, so a spec of a few lines
 * that refers to itself through several properties would otherwise spell out millions of nodes.
 * The model reads every input schema on every request; the largest of the real specs' is half this.
 */
export const SCHEMA_BUDGET = 200_000;

/** What a node costs besides its keywords and names: its braces, `"properties":` and the commas around it. */
const NODE_COST = 16;

/** Thrown by {@link SchemaBudget.charge} when a schema would outgrow the budget: the attempt is abandoned. */
const SPENT: unique symbol = Symbol("schema budget spent");

/** Where a schema past the budget is cut: any value, and a word on why for the model. */
export const CUT_SCHEMA: JsonSchema = {
  description: "Any value: this part of the schema is too large to spell out here; the API checks it.",
};

/**
 * The characters one attempt at spelling out a schema may still take, and the depth below which it
 * spells out nothing. An attempt that runs out stops at once: a schema is never built past the budget.
 */
export class SchemaBudget {
  private left = SCHEMA_BUDGET;

  constructor(
    /** Nodes deeper than this are {@link CUT_SCHEMA}; undefined for the emitter's own depth limit alone. */
    readonly depth: number | undefined,
  ) {}

  /** Charges a node: its own keywords, and the names and places of the children it will hold. */
  charge(keywords: unknown, names: readonly string[] = [], children = 0): void {
    let cost = NODE_COST + JSON.stringify(keywords).length + 4 * children;
    for (const name of names) cost += name.length + 4;
    this.left -= cost;
    if (this.left < 0) throw SPENT;
  }

  /** Charges a schema node: the keywords kept of it, its property names, and its subschemas' places. */
  chargeSchema(keywords: JsonSchema, schema: JsonSchema): void {
    const properties = schema["properties"];
    const names = typeof properties === "object" && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : [];
    const branches = ["anyOf", "oneOf", "allOf"].reduce((count, key) => count + (Array.isArray(schema[key]) ? schema[key].length : 0), 0);
    this.charge(keywords, names, branches + ("items" in schema ? 1 : 0));
  }

  /** Whether a node at `depth` is past this attempt's depth, so cut; the cut is charged. */
  cuts(depth: number): boolean {
    if (this.depth === undefined || depth <= this.depth) return false;
    this.charge(CUT_SCHEMA);
    return true;
  }
}

/** A schema spelled out within the budget; `levels` when it was cut: how many levels of it are spelled out (0: none). */
export interface Budgeted<T> {
  value: T;
  levels?: number;
}

/**
 * `build` spelled out within {@link SCHEMA_BUDGET}: as deep as the emitter goes (`maxDepth`, the root
 * at 0) if it fits, otherwise to the greatest depth that fits, the rest cut; at worst `cut` alone.
 * Each attempt stops as soon as it runs out, so the work is bounded by the budget times the depth.
 */
export function withinBudget<T>(maxDepth: number, build: (budget: SchemaBudget) => T, cut: T): Budgeted<T> {
  for (let depth: number | undefined = undefined; ; depth = (depth ?? maxDepth) - 1) {
    if (depth !== undefined && depth < 0) return { value: cut, levels: 0 };
    try {
      const value = build(new SchemaBudget(depth));
      return depth === undefined ? { value } : { value, levels: depth + 1 };
    } catch (error) {
      if (error !== SPENT) throw error;
    }
  }
}

/**
 * The warning for a schema cut to fit the budget, at the schema in the spec. `what` names it (`tool
 * x: "body" (schema "Node")`), `written` says what of it generate writes, `below` what the rest becomes.
 */
export function cutWarning(
  { what, written, below, levels }: { what: string; written: string; below: string; levels: number },
  location: SourceLocation,
  related: SourceLocation,
): Diagnostic {
  const kept = levels === 0 ? below : `spells out ${levels} level${levels === 1 ? "" : "s"} and ${below} further down`;
  return {
    code: "PRJ087",
    severity: "warning",
    message: `${what} is larger than ${SCHEMA_BUDGET.toLocaleString("en-US")} characters written out, so its ${written} ${kept}`,
    help: "`$ref`s are written out, so a schema that refers to itself, or to the next, through several properties multiplies at every level; give it fewer levels or properties in the spec if the model needs more of it",
    location,
    related,
  };
}
