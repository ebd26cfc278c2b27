// Never a silent null, for every rule, across every scenario spec: each scenario's payload is
// mutated at random (values removed, set to null, or replaced by anything at all, at every depth),
// projected through its generated code, and every `null` in the result is checked against the input:
// a kept field is null only where the API sent nothing (absent or null). Anything else that cannot
// be read must be a marker.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Field, ToolModel } from "../src/model/types.js";
import { pascalCase } from "../src/naming.js";
import { importGenerated } from "./helpers/pipeline.js";
import { generatedScenario, SCENARIOS, scenarioNames } from "./helpers/scenarios.js";

const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 150) };
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const own = (object: Json, key: string) => (Object.hasOwn(object, key) ? object[key] : undefined);
const isMarker = (value: unknown) =>
  isObject(value) && Object.keys(value).length === 1 && ["unusable", "unresolved", "unknown_code"].includes(Object.keys(value)[0]!);

/** Anything an API might send in place of a value: ids under other keys, objects, lists, numbers as text. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.integer({ min: -5, max: 2e12 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    "",
    "2026-02-30",
    "1663597223",
    "12",
    "not a date",
    "__proto__",
    { gid: "1" },
    { uuid: "u" },
    { name: "only a name" },
    { data: 5 },
    { data: [] },
    [{}],
    [null],
    [1, "2"],
  ),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** What to do at one place of the payload. */
const change = fc.oneof(
  fc.constant({ kind: "delete" as const }),
  fc.constant({ kind: "null" as const }),
  junk.map((value) => ({ kind: "set" as const, value })),
);

/** A place in the payload a field reads: an object and its key, or a list and its index. */
type Place = { container: Json | unknown[]; key: string | number };

const sections = (record: Json) => ({ record, attributes: own(record, "attributes"), relationships: own(record, "relationships") });

/** Every place the tool's fields read in one record, at every depth the record has. */
function places(fields: Field[], bases: Record<string, unknown>, depth: number, found: Place[]): void {
  for (const field of fields) {
    let container = bases[field.source.base];
    const path = field.source.path.slice(depth);
    for (const [i, key] of path.entries()) {
      if (!isObject(container)) break;
      found.push({ container, key });
      const value = own(container, key);
      if (i === path.length - 1) {
        if (field.kind === "object") {
          const items = field.many ? (Array.isArray(value) ? value : []) : [value];
          items.forEach((item, index) => {
            if (field.many && Array.isArray(value)) found.push({ container: value, key: index });
            if (isObject(item)) places(field.children, { [field.source.base]: item }, field.source.path.length, found);
          });
        } else if (isObject(value) && (field.kind === "related-id" || (field.kind === "join" && field.via === "relationship"))) {
          found.push({ container: value, key: "data" });
        } else if (Array.isArray(value)) value.forEach((_, index) => found.push({ container: value, key: index }));
      }
      container = value;
    }
  }
}

function apply(place: Place, what: { kind: "delete" | "null" | "set"; value?: unknown }) {
  const { container, key } = place;
  if (Array.isArray(container)) container[key as number] = what.kind === "set" ? what.value : null;
  else if (what.kind === "delete") delete container[key as string];
  else container[key as string] = what.kind === "set" ? what.value : null;
}

/** What the API sent for a field: `undefined` or `null` when nothing; PRESENT where an object on the way was something else. */
const PRESENT = Symbol("present but not an object");
function input(field: Field, bases: Record<string, unknown>, depth: number): unknown {
  let value: unknown = bases[field.source.base];
  for (const key of field.source.path.slice(depth)) {
    if (value === undefined || value === null) return value;
    if (!isObject(value)) return PRESENT;
    value = own(value, key);
  }
  if ((field.kind === "related-id" || (field.kind === "join" && field.via === "relationship")) && isObject(value))
    return own(value, "data");
  return value;
}

/** Every null in the projected record stands for an input that was absent or null. */
function checkRecord(fields: Field[], output: Json, bases: Record<string, unknown>, depth: number, where: string): void {
  for (const field of fields) {
    const got = output[field.out];
    const sent = input(field, bases, depth);
    const at = `${where}${field.name}`;
    expect(got, `${at} is missing from the result`).not.toBeUndefined();
    if (got === null)
      expect(sent === undefined || sent === null, `${at} is null, but the API sent ${JSON.stringify(sent) ?? String(sent)}`).toBe(true);
    if (Array.isArray(got) && field.kind !== "object")
      for (const item of got) expect(item, `${at} holds a null the API did not send`).not.toBeNull();
    if (field.kind !== "object" || got === null || isMarker(got)) continue;
    const items = field.many ? (got as unknown[]) : [got];
    const sentItems = field.many ? (sent as unknown[]) : [sent];
    items.forEach((item, i) => {
      if (item === null) expect(sentItems[i], `${at}[${i}] is null, but the API sent something`).toBeNull();
      else if (!isMarker(item))
        checkRecord(field.children, item as Json, { [field.source.base]: sentItems[i] }, field.source.path.length, `${at}.`);
    });
  }
}

function recordsOf(tool: ToolModel, response: unknown): unknown[] {
  let value = response;
  for (const key of tool.rowsPath) value = isObject(value) ? own(value, key) : undefined;
  return tool.many ? (Array.isArray(value) ? value : []) : [value];
}

describe.each(scenarioNames)("scenario %s: a null in the result always stands for an absent or null input", (scenario) => {
  let tool: ToolModel;
  let project: (response: unknown, resolvers: unknown, options: unknown) => Promise<Json>;
  let payload: string;
  let resolvers: Record<string, (ids: readonly string[]) => Promise<Map<string, string>>>;
  beforeAll(async () => {
    const generated = await generatedScenario(scenario);
    expect(generated.problems).toEqual([]);
    tool = generated.model!.tools[0]!;
    const module = await importGenerated(generated.files);
    project = module[`project${pascalCase(tool.name)}`] as typeof project;
    payload = readFileSync(join(SCENARIOS, scenario, "payload.json"), "utf8");
    resolvers = Object.fromEntries(
      generated.model!.resolvers.map((r) => [r.name, async (ids: readonly string[]) => new Map(ids.map((id) => [id, `name of ${id}`]))]),
    );
  }, 60_000);

  it("holds for the payload changed anywhere, any number of times", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(), change), { minLength: 1, maxLength: 10 }), async (plan) => {
        const response = JSON.parse(payload) as unknown;
        for (const [pick, what] of plan) {
          // Places are found again after each change: a change can remove some and open others.
          const found: Place[] = [];
          for (const record of recordsOf(tool, response)) if (isObject(record)) places(tool.resource.fields, sections(record), 0, found);
          if (found.length > 0) apply(found[pick % found.length]!, what);
        }
        // A record left with none of the keys the spec declares for it (for a single record, none not
        // null; for a list's item, none at all) is no record: refused, not projected.
        const holdsNone = (record: Json) =>
          tool.recordKeys.length > 0 && !tool.recordKeys.some((key) => record[key] !== undefined && (tool.many || record[key] !== null));
        if (recordsOf(tool, response).some((record) => isObject(record) && holdsNone(record)))
          return void (await expect(project(response, resolvers, {})).rejects.toThrow(/none of the keys/));
        const result = await project(response, resolvers, {});
        const outputs = tool.list === undefined ? [result] : tool.many ? (result[tool.list] as Json[]) : [result[tool.list] as Json];
        expect(outputs.length).toBe(tool.many ? recordsOf(tool, response).length : 1);
        recordsOf(tool, response).forEach((record, i) => {
          if (isObject(record)) checkRecord(tool.resource.fields, outputs[i]!, sections(record), 0, "");
        });
      }),
      RUNS,
    );
  });
});
