// The same inputs with keys in another order give identical bytes, whichever maps move. Maps are permuted in the YAML text itself (the `yaml` document
// model), so integer keys such as `"200"` and inline legend codes move too.
//
// What the output order is based on (src/):
// - file list: sorted by path (generate.ts, emit/emit.ts);
// - result fields and a tool's page keys: the annotation's order, the record's own `id` first
//   (model/order.ts); reordering those on purpose changes the output, which is checked below;
// - the properties of values kept whole: by name (model/shape.ts);
// - openapi.ts: openapi-typescript with `alphabetize` (emit/emit.ts);
// - resolvers.ts, each tool's INCLUDED list and `wanted` object, index.ts: sorted by name.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isMap, isPair, isScalar, isSeq, parseDocument, type Document, type YAMLMap } from "yaml";
import { createGenerateCache, type GenerateCache } from "../src/generate-cache.js";
import { generateFrom, ROOT, tempDir } from "./helpers/pipeline.js";

interface Input {
  name: string;
  dir: string;
  spec: string;
}

const SCENARIOS = join(ROOT, "specs/scenarios");
const INPUTS: Input[] = [
  { name: "the bundled support desk", dir: ROOT, spec: "specs/support-tickets.openapi.yaml" },
  { name: "rest-foreign-keys", dir: join(SCENARIOS, "rest-foreign-keys"), spec: "openapi.yaml" },
  { name: "to-many-joins", dir: join(SCENARIOS, "to-many-joins"), spec: "openapi.yaml" },
];

type Path = readonly string[];
/** Which maps to permute, by their path of keys from the document root. */
type Select = (path: Path) => boolean;

/** A small seeded PRNG, so a failure names a permutation that can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles the entries of every selected map; never leaves a map of two or more in its old order. Returns how many maps moved. */
function permute(text: string, select: Select, seed: number): { text: string; moved: number } {
  const doc: Document = parseDocument(text);
  const next = random(seed);
  let moved = 0;
  const walk = (node: unknown, path: Path) => {
    if (isMap(node)) {
      const map = node as YAMLMap;
      for (const pair of map.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.value, [...path, key]);
      }
      if (select(path) && map.items.length > 1) {
        const before = [...map.items];
        for (let i = map.items.length - 1; i > 0; i--) {
          const j = Math.floor(next() * (i + 1));
          [map.items[i], map.items[j]] = [map.items[j]!, map.items[i]!];
        }
        if (map.items.every((item, i) => item === before[i])) map.items.push(map.items.shift()!);
        moved++;
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, String(i)]));
  };
  walk(doc.contents, []);
  return { text: doc.toString(), moved };
}

const none: Select = () => false;
const at =
  (...prefix: string[]): Select =>
  (path) =>
    path.length === prefix.length && prefix.every((p, i) => p === "*" || p === path[i]);
const last =
  (...keys: string[]): Select =>
  (path) =>
    keys.includes(path[path.length - 1] ?? "");
const inside =
  (key: string): Select =>
  (path) =>
    path.includes(key);
const any =
  (...selects: Select[]): Select =>
  (path) =>
    selects.some((s) => s(path));
const not =
  (select: Select): Select =>
  (path) =>
    !select(path);
const all =
  (...selects: Select[]): Select =>
  (path) =>
    selects.every((s) => s(path));

/** Examples are data, not structure: the key order of an example is part of its value. */
const example = any(inside("example"), inside("examples"));

interface Variant {
  spec?: Select;
  annotation?: Select;
}

/**
 * Prettier is a pure function of a file's text, so each input's variants share one format cache (as
 * `generate --watch` runs do): a file is formatted again only when its emitted text differs, and the
 * comparison of the results is the same as when every run formats every file.
 */
const formatCaches = new Map<string, GenerateCache>();
const formatted = (input: Input) => {
  if (!formatCaches.has(input.name)) formatCaches.set(input.name, createGenerateCache());
  return formatCaches.get(input.name)!;
};

/** Writes the input, permuted, to a fresh folder (same relative names, so the banners match) and generates it. */
async function generateVariant(input: Input, variant: Variant, seed: number) {
  const dir = tempDir("projector-order-");
  const annotationText = readFileSync(join(input.dir, "projector.yaml"), "utf8");
  const specText = readFileSync(join(input.dir, input.spec), "utf8");
  const annotation = permute(annotationText, variant.annotation ?? none, seed);
  const spec = permute(specText, variant.spec ?? none, seed + 1);
  writeFileSync(join(dir, "projector.yaml"), annotation.text);
  const specPath = join(dir, input.spec);
  mkdirSync(join(specPath, ".."), { recursive: true });
  writeFileSync(specPath, spec.text);
  const generated = await generateFrom(join(dir, "projector.yaml"), { cache: formatted(input) });
  expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  return { ...generated, moved: annotation.moved + spec.moved, annotationText: annotation.text };
}

/** Files whose bytes differ, each with its first differing line, for a readable failure. */
function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].sort().flatMap((path) => {
    const x = a.get(path);
    const y = b.get(path);
    if (x === y) return [];
    if (x === undefined || y === undefined) return [`${path}: only in one output`];
    const xs = x.split("\n");
    const ys = y.split("\n");
    const line = xs.findIndex((l, i) => l !== ys[i]);
    return [`${path}:${line + 1}: ${JSON.stringify(xs[line])} vs ${JSON.stringify(ys[line])}`];
  });
}

const baselines = new Map<string, Promise<Awaited<ReturnType<typeof generateVariant>>>>();
const baseline = (input: Input) => {
  if (!baselines.has(input.name)) baselines.set(input.name, generateVariant(input, {}, 0));
  return baselines.get(input.name)!;
};

describe.each(INPUTS)("$name", (input) => {
  it("generates identical bytes twice from the same inputs", async () => {
    const again = await generateVariant(input, {}, 0);
    expect(differences((await baseline(input)).files, again.files)).toEqual([]);
  });

  // Orders that must not matter: every byte of every file stays the same.
  const identical: [string, Variant, boolean][] = [
    [
      "every other map of projector.yaml: top-level keys, the keys of each resolver, resource, tool and field rule, inline legends",
      { annotation: not(any(at("resolvers"), at("resources"), at("resources", "*", "fields"), at("tools"), at("tools", "*", "page"))) },
      true,
    ],
    // The scenarios declare one response with one media type: only the bundled spec has maps to move here.
    ["the spec's response maps (status codes, media types)", { spec: last("responses", "content") }, false],
    [
      "every other map of the spec: top-level keys, info, components sections, parameters, schema keywords, responses",
      { spec: all(not(example), not(any(at("paths"), at("components", "schemas"), last("properties")))) },
      true,
    ],
  ];
  it.each(identical)("%s: identical bytes", async (_what, variant, everywhere) => {
    const base = await baseline(input);
    for (const seed of [1, 2]) {
      const permuted = await generateVariant(input, variant, seed * 100);
      if (everywhere || input.dir === ROOT) expect(permuted.moved, "no map was permuted").toBeGreaterThan(0);
      expect(differences(base.files, permuted.files), `seed ${seed * 100}`).toEqual([]);
    }
  });

  // The spec's `paths` and `components.schemas`, and the order of `resolvers`, `resources` and
  // `tools` in projector.yaml: generated lists are sorted by name and the source types alphabetized.
  it.each([
    ["the spec's paths", { spec: at("paths") }],
    ["the spec's components.schemas", { spec: at("components", "schemas") }],
    ["the resolvers of projector.yaml", { annotation: at("resolvers") }],
    ["the resources and tools of projector.yaml", { annotation: any(at("resources"), at("tools")) }],
    ["the spec's properties", { spec: all(last("properties"), not(example)) }],
  ] as const)("%s: identical bytes", async (_what, variant) => {
    const base = await baseline(input);
    const permuted = await generateVariant(input, variant, 300);
    if (input.dir === ROOT) expect(permuted.moved).toBeGreaterThan(0);
    expect(differences(base.files, permuted.files)).toEqual([]);
  });

  // Orders that are the annotation author's choice: the result follows them, like a SELECT list.
  it("the fields of each resource and the tools' page maps: the result's keys follow the annotation's new order", async () => {
    const permuted = await generateVariant(input, { annotation: any(at("resources", "*", "fields"), at("tools", "*", "page")) }, 400);
    expect(permuted.moved).toBeGreaterThan(0);
    const annotation = parseDocument(readFileSync(join(input.dir, "projector.yaml"), "utf8")).toJS() as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    const permutedAnnotation = parseDocument(permuted.annotationText).toJS() as typeof annotation;
    for (const [name, resource] of Object.entries(permutedAnnotation["resources"]!)) {
      const fields = resource["fields"] as Record<string, unknown>;
      const kept = Object.keys(fields).filter((field) => !isDrop(fields[field]) && !field.includes("."));
      const expected = [...kept.filter((field) => field === "id"), ...kept.filter((field) => field !== "id")].map((field) =>
        outName(field, fields[field]),
      );
      const file = permuted.files.get(`resources/${kebab(name)}.ts`)!;
      expect(resultKeys(file), name).toEqual(expected);
    }
    for (const [name, tool] of Object.entries(permutedAnnotation["tools"]!)) {
      const page = Object.keys((tool["page"] as Record<string, unknown> | undefined) ?? {});
      if (page.length < 2) continue;
      const file = permuted.files.get(`tools/${kebab(name)}.ts`)!;
      const required = JSON.parse(/required: (\[.*?\])/.exec(file)![1]!.replace(/,\s*\]/, "]")) as string[];
      expect(required.slice(-page.length), name).toEqual(page);
    }
    expect(Object.keys(annotation["resources"]!)).toEqual(Object.keys(permutedAnnotation["resources"]!));
  });
});

const isDrop = (rule: unknown) => typeof rule === "object" && rule !== null && "drop" in rule;
const outName = (field: string, rule: unknown) =>
  typeof rule === "object" && rule !== null && "as" in rule ? String((rule as { as: unknown }).as) : field;
const kebab = (name: string) => name.replace(/_/g, "-");
/** The keys of the first `XResult` interface in a generated resource file, in order. */
const resultKeys = (file: string) => {
  const body = /export interface \w+Result \{\n([\s\S]*?)\n\}/.exec(file)![1]!;
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);
};
