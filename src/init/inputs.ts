import { isCredential } from "../model/credentials.js";
import { specLegend } from "../model/legend.js";
import { operationParameters, type Operation } from "../model/operations.js";
import type { SchemaReader } from "../openapi/schema.js";

/** A drafted entry of a tool's `inputs:`: the parameter by its spec name, the argument name proposed, the legend's words. */
export interface DraftInput {
  name: string;
  as?: string;
  /** The words the model passes for the parameter's codes, when the spec names its codes. */
  words?: string[];
  /** Why the parameter is no argument: a credential, which the client sends. */
  drop?: string;
}

/** The drop of a parameter that is a credential: the model never holds it; the client the consumer passes sends it. */
const CREDENTIAL_INPUT = "a credential: the client sends it";

/** Names a model reads and writes as they are; anything else (`page[number]`, `per-page`) gets an `as`. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Outer names that only say "this narrows the list": `filter[status]` is the status. */
const NARROWING = new Set(["filter", "filters", "where", "query", "search"]);
/** Inner names that say which number of the outer one: `page[number]` is the page. */
const ITSELF = new Set(["number", "value", "eq"]);

const identifier = (words: string[]) =>
  words
    .join("_")
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/^(?=[0-9])/, "_")
    .slice(0, 64);

/**
 * The argument names worth trying for a wire name, best first: `filter[status]` is `status`, then
 * `filter_status`; `page[number]` is `page`, `page[size]` is `page_size`, `ids[]` is `ids`.
 */
function candidates(name: string): string[] {
  const words = name.split(/[[\].]+/).filter((w) => w !== "");
  const [outer, ...rest] = words;
  const whole = identifier(words);
  if (outer === undefined) return [];
  const short =
    rest.length === 0
      ? identifier([outer])
      : NARROWING.has(outer.toLowerCase())
        ? identifier(rest)
        : rest.length === 1 && ITSELF.has(rest[0]!.toLowerCase())
          ? identifier([outer])
          : whole;
  return [short, whole].filter((c, i, all) => c !== "" && all.indexOf(c) === i);
}

/**
 * The path and query parameters of an operation as `inputs:` entries, in the spec's order. Names
 * the model can use stay; the others get an `as` no other argument of the tool already has
 * (`_2` and on, where even the whole name is taken). Nothing is dropped, that being a person's call,
 * but a credential (`api_key`), which the model must never be asked for.
 */
export function draftInputs(reader: SchemaReader, op: Operation): DraftInput[] {
  const parameters = operationParameters(reader, op).filter((p) => p.in === "path" || p.in === "query");
  const taken = new Set(parameters.filter((p) => PLAIN.test(p.name)).map((p) => p.name));
  if (op.at.schema["requestBody"] !== undefined) taken.add("body");
  return parameters.map((p) => {
    if (isCredential(reader, p.name, p.at)) return { name: p.name, drop: CREDENTIAL_INPUT };
    const input: DraftInput = { name: p.name };
    if (!PLAIN.test(p.name)) {
      const tries = candidates(p.name);
      const base = tries[tries.length - 1] ?? "argument";
      let as = tries.find((c) => !taken.has(c)) ?? base;
      for (let n = 2; taken.has(as); n++) as = `${base.slice(0, 60)}_${n}`;
      taken.add(as);
      input.as = as;
    }
    const words = specLegend(reader, p.at)?.map(([, word]) => word);
    // Two codes with one word cannot be sent back: generate then shows the codes, so there is nothing to say.
    if (words && new Set(words).size === words.length) input.words = words;
    return input;
  });
}
