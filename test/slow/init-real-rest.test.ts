// A user's first run is `init` on their own spec, and what it drafts is what most users ship. On the
// whole of four plain-REST specs (Twilio's API v2010 and Conversations, Spotify, PokeAPI), the draft
// with every guess taken generates, compiles under the strict flags, reads each single-record tool's
// own record, sends every argument to the path parameter that takes it, and names what the API
// embeds with the name it carries. Skipped cleanly where ../shared/real-specs is absent.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseAnnotation } from "../../src/annotation/parse.js";
import type { Annotation } from "../../src/annotation/types.js";
import { initAnnotation } from "../../src/init/init.js";
import { findOperation, listOperations, operationParameters, successBody, type Operation } from "../../src/model/operations.js";
import type { Field, Model, ResourceModel } from "../../src/model/types.js";
import { loadSpec, type LoadedSpec } from "../../src/openapi/load.js";
import { SchemaReader, type SchemaAt } from "../../src/openapi/schema.js";
import { generateFrom, REAL_SPECS, tempDir, typecheckFiles } from "../helpers/pipeline.js";

const APIS = [
  { file: "twilio_api_v2010.json", minimumTools: 95 },
  { file: "twilio_conversations_v1.json", minimumTools: 45 },
  { file: "spotify_web_api.yml", minimumTools: 50 },
  { file: "pokeapi_openapi.yml", minimumTools: 95 },
] as const;

/** Names that say a record's name, as a person reviewing a resolver would look for them. */
const NAMES = ["name", "display_name", "full_name", "title", "summary", "label", "login", "handle", "email", "username", "slug"];

const words = (name: string) =>
  name
    .replace(/\[\]$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
const endsWith = (name: string, end: string) => {
  const [whole, tail] = [words(name), words(end)];
  return tail.length <= whole.length && tail.every((w, i) => w === whole[whole.length - tail.length + i]);
};

/** Every field of a resource, parts of objects included, each with the path of its value in the record. */
const leaves = (fields: readonly Field[]): Field[] => fields.flatMap((f) => (f.kind === "object" ? leaves(f.children) : [f]));

/** The schema a record's value is declared by, through objects and the items of lists. */
function schemaAt(reader: SchemaReader, record: SchemaAt, path: readonly string[]): SchemaAt | undefined {
  let at: SchemaAt | undefined = record;
  for (const segment of path) {
    if (!at) return undefined;
    if (reader.kind(at) === "array") at = reader.items(at);
    at = at ? reader.property(at, segment)?.at : undefined;
  }
  return at;
}

const pathParameterOf = (reader: SchemaReader, op: Operation) => {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const last = names[names.length - 1];
  return last === undefined ? undefined : operationParameters(reader, op).find((p) => p.name === last && p.in === "path");
};
const patternOf = (reader: SchemaReader, at: SchemaAt) => reader.unwrapNullable(at).schema["pattern"];

describe.each(APIS)("init --accept-guesses on the whole of $file", ({ file, minimumTools }) => {
  const specPath = join(REAL_SPECS, file);
  const present = existsSync(specPath);
  let spec: LoadedSpec;
  let reader: SchemaReader;
  let annotation: Annotation;
  let text: string;
  let model: Model;
  let generated: Awaited<ReturnType<typeof generateFrom>>;
  beforeAll(async () => {
    if (!present) return;
    spec = await loadSpec(specPath, file);
    reader = new SchemaReader(spec.document);
    const dir = tempDir();
    ({ text } = initAnnotation(spec, { file: "projector.yaml", spec: specPath, output: "generated/api", acceptGuesses: true }));
    writeFileSync(join(dir, "projector.yaml"), text);
    annotation = parseAnnotation(text, "projector.yaml");
    generated = await generateFrom(join(dir, "projector.yaml"));
    model = generated.model!;
  }, 300_000);

  const recordOf = (resource: ResourceModel) => {
    const schema = annotation.resources.find((r) => r.name === resource.name)?.schema;
    return schema === undefined ? undefined : reader.pointer(`/components/schemas/${schema.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  const operationOf = (tool: string) => findOperation(listOperations(reader), annotation.tools.find((t) => t.name === tool)!.operation)!;

  it.skipIf(!present)("generates a tool per JSON GET operation without a problem", () => {
    expect(generated.problems.map((d) => `${d.code} ${d.message}`)).toEqual([]);
    expect(model.tools.length).toBeGreaterThanOrEqual(minimumTools);
  });

  it.skipIf(!present)(
    "generates code that compiles under the strict flags",
    () => {
      expect(typecheckFiles(generated.files)).toEqual([]);
    },
    300_000,
  );

  it.skipIf(!present)("gives every single-record tool the operation's own record, or the one object its envelope wraps", () => {
    let single = 0;
    for (const tool of model.tools.filter((t) => !t.many)) {
      const body = successBody(reader, operationOf(tool.name))!;
      const response = reader.unwrapNullable(body.schema);
      const wrapper = tool.rowsPath.length === 1 ? reader.property(response, tool.rowsPath[0]!) : undefined;
      expect(tool.rowsPath.length, tool.name).toBeLessThanOrEqual(1);
      const expected = reader.unwrapNullable(wrapper ? wrapper.at : response).pointer;
      const record = recordOf(tool.resource);
      expect(record ? reader.unwrapNullable(record).pointer : expected, tool.name).toBe(expected);
      single++;
    }
    expect(single).toBeGreaterThan(0);
  });

  it.skipIf(!present)("sends every argument to the path parameter that takes it: by its name, or written the same way", () => {
    let arguments_ = 0;
    for (const resource of model.resources) {
      const record = recordOf(resource);
      if (!record) continue;
      for (const field of leaves(resource.fields)) {
        const tools = field.kind === "value" || field.kind === "related-id" ? (field.argumentOf ?? []) : [];
        const at = schemaAt(reader, record, field.source.path);
        expect(at, field.name).toBeDefined();
        for (const tool of tools) {
          const parameter = pathParameterOf(reader, operationOf(tool));
          expect(parameter, `${resource.name}.${field.name} -> ${tool}`).toBeDefined();
          const leaf = field.source.path[field.source.path.length - 1]!;
          const ours = patternOf(reader, at!);
          const theirs = patternOf(reader, parameter!.at);
          if (ours !== undefined && theirs !== undefined) expect(ours, `${resource.name}.${field.name} -> ${tool}`).toBe(theirs);
          const named = endsWith(parameter!.name, leaf) || endsWith(leaf, parameter!.name);
          expect(named || (ours !== undefined && ours === theirs), `${resource.name}.${field.name} -> ${tool} {${parameter!.name}}`).toBe(
            true,
          );
          // A tool that reads one record of this very schema takes this record's own id, never another field's.
          const body = successBody(reader, operationOf(tool));
          const fetched = body && reader.unwrapNullable(body.schema).pointer === reader.unwrapNullable(record).pointer;
          if (fetched) expect(field.source.path, `${tool} reads ${resource.name}`).toHaveLength(1);
          arguments_++;
        }
      }
    }
    expect(arguments_).toBeGreaterThan(0);
  });

  it.skipIf(!present)("names what the API embeds with the name it carries: a join's resolver reads the embedded records' label", () => {
    let joins = 0;
    const resolvers = new Map(model.resolvers.map((r) => [r.name, r]));
    for (const resource of model.resources) {
      const record = recordOf(resource);
      if (!record) continue;
      for (const field of leaves(resource.fields)) {
        if (field.kind !== "join") continue;
        const at = schemaAt(reader, record, field.source.path)!;
        const embedded = reader.kind(at) === "array" ? reader.items(at) : at;
        if (!embedded || !reader.objectLike(embedded)) continue;
        const carried = reader
          .properties(embedded)
          .filter((p) => NAMES.includes(p.name) && reader.kind(p.at) === "string")
          .map((p) => p.name);
        if (carried.length === 0) continue;
        const label = resolvers.get(field.resolver)?.label;
        expect(label !== undefined && carried.includes(label), `${resource.name}.${field.name} (${field.resolver}): ${carried}`).toBe(true);
        joins++;
      }
    }
    if (file === "spotify_web_api.yml") expect(joins).toBeGreaterThan(0);
  });

  it.skipIf(!present)("drafts what a person reviewing this API would", () => {
    const fields = (resource: string) => (parse(text).resources[resource] as { fields: Record<string, unknown> }).fields;
    const expectations: Record<string, () => void> = {
      "twilio_api_v2010.json": () => {
        // The record's own sid goes to the tool that fetches it as `{Sid}`; the account's sid to fetch_account.
        expect(fields("api_v2010_account_address").sid).toEqual({ argument: ["fetch_address", "list_dependent_phone_number"] });
        expect(fields("api_v2010_account_address").account_sid).toEqual({ argument: ["fetch_account"] });
        expect(fields("api_v2010_account_call").parent_call_sid).toEqual({ argument: ["fetch_call"] });
        // RFC 2822 text the runtime cannot read as a date stays text; a map of URLs is dropped.
        expect(fields("api_v2010_account_address").date_created).toBe("keep");
        expect(fields("api_v2010_account").subresource_uris).toEqual({ drop: "a link the model cannot open" });
        // The account's auth token never reaches the model; a `^PN…` sid is an incoming phone number's or an outgoing caller id's.
        expect(fields("api_v2010_account").auth_token).toEqual({ drop: "a credential, never shown to the model" });
        expect(fields("api_v2010_account_call").phone_number_sid).toEqual({
          argument: ["fetch_incoming_phone_number", "fetch_outgoing_caller_id"],
        });
      },
      "twilio_conversations_v1.json": () => {
        const message = fields("conversations_v1_conversation_conversation_message");
        expect((message.sid as { argument: string[] }).argument[0]).toBe("fetch_conversation_message");
        expect((message.conversation_sid as { argument: string[] }).argument[0]).toBe("fetch_conversation");
        expect(message.account_sid).toEqual({ drop: "no tool takes this id" });
      },
      "spotify_web_api.yml": () => {
        expect(fields("album").artists).toEqual({ join: "artists" });
        expect(fields("track").album).toEqual({ join: "albums" });
        expect(parse(text).resolvers.artists).toEqual({ label: "name" });
        // The queue's tracks and episodes go to the tools that fetch each; `/me`'s id to the tool that takes a user's.
        expect(fields("queue").id).toEqual({ argument: ["get_track", "get_an_episode"] });
        expect(fields("private_user").id).toEqual({ argument: ["get_users_profile", "get_list_users_playlists"] });
        // A paged list is a list wherever it sits: at the top, or wrapped as `albums` beside nothing else.
        const tools = parse(text).tools as Record<string, unknown>;
        expect(tools["get_a_list_of_current_users_playlists"]).toMatchObject({ rows: "items", page: { total: "total", next: "next" } });
        expect(tools["get_new_releases"]).toMatchObject({ rows: "albums.items", page: { total: "albums.total", next: "albums.next" } });
        expect(annotation.resources.filter((r) => r.schema?.startsWith("Paging")).map((r) => r.name)).toEqual([]);
        // Several pages side by side, and lists of booleans, are left out rather than drafted to fail.
        expect(tools["search"]).toBeUndefined();
        expect(tools["check_users_saved_tracks"]).toBeUndefined();
        expect(model.tools.find((t) => t.name === "get_queue")?.unread).toEqual(["currently_playing"]);
      },
      "pokeapi_openapi.yml": () => {
        expect(fields("ability_detail")["generation.name"]).toEqual({ as: "generation" });
        expect(fields("ability_detail")["generation.url"]).toEqual({ drop: "a link the model cannot open" });
        expect(fields("berry_detail")["item.name"]).toEqual({ as: "item" });
        expect(fields("berry_detail").growth_time).toBe("keep");
      },
    };
    expectations[file]!();
  });
});
