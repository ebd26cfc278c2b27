/**
 * Read-only helpers over a bundled OpenAPI document. Every schema is carried with the JSON pointer
 * where it is declared (after following $refs), so diagnostics can point into the spec.
 */
export type JsonObject = { [key: string]: unknown };

export interface SchemaAt {
  schema: JsonObject;
  pointer: string;
}

export interface Property {
  name: string;
  at: SchemaAt;
  required: boolean;
}

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

export const escapePointer = (segment: string): string =>
  segment.includes("~") || segment.includes("/") ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : segment;
export const unescapePointer = (segment: string): string =>
  segment.includes("~") ? segment.replace(/~1/g, "/").replace(/~0/g, "~") : segment;
/** A JSON pointer's tokens, unescaped: `/paths/~1users` to `paths`, `/users`. */
export const decodePointer = (pointer: string) => pointer.split("/").slice(1).map(unescapePointer);

/**
 * The JSON pointer a `#...` reference names. A fragment is percent-encoded (RFC 6901, section 6):
 * the bundler writes `#/paths/~1v2~1droplets~1%7Bdroplet_id%7D/...` for a schema first met under a
 * templated path, and read undecoded it names nothing, so the record would have no fields at all.
 */
export function fragmentPointer(ref: string): string {
  const fragment = ref.slice(1);
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

export function child(at: SchemaAt, ...segments: (string | number)[]): SchemaAt | undefined {
  let node: unknown = at.schema;
  for (const segment of segments) {
    node = Array.isArray(node) ? node[Number(segment)] : isJsonObject(node) ? node[String(segment)] : undefined;
  }
  if (!isJsonObject(node)) return undefined;
  return { schema: node, pointer: at.pointer + segments.map((s) => `/${escapePointer(String(s))}`).join("") };
}

/** The object members of an array keyword (`allOf`, `oneOf`, ...), skipping anything that is not a schema. */
export function members(at: SchemaAt, key: string): SchemaAt[] {
  const list = at.schema[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap((_, i) => child(at, key, i) ?? []);
}

/** Keywords that describe a schema without shaping its values or naming its codes. */
const WORDS_ONLY = new Set([
  "description",
  "title",
  "example",
  "examples",
  "default",
  "nullable",
  "readOnly",
  "writeOnly",
  "deprecated",
  "externalDocs",
  "$comment",
]);
/** Extensions that say something of an enum's codes: a schema carrying them is not a mere wrapper. */
const CODE_WORDS = /^x-enum/i;
const wordsOnly = (schema: JsonObject) =>
  Object.keys(schema).every((key) => WORDS_ONLY.has(key) || (key.startsWith("x-") && !CODE_WORDS.test(key)));

type Kind = "string" | "integer" | "number" | "boolean" | "array" | "object";
const KINDS: ReadonlySet<unknown> = new Set<Kind>(["string", "integer", "number", "boolean", "array", "object"]);

export class SchemaReader {
  /** What each pointer names, found once: a spec's `$ref`s name the same few schemas over and over. */
  private readonly found = new Map<string, SchemaAt | undefined>();

  constructor(readonly document: JsonObject) {}

  /** Follows `$ref` chains inside the document. Unresolvable refs yield an empty schema. */
  deref(at: SchemaAt): SchemaAt {
    let current = at;
    const seen = new Set<string>();
    while (typeof current.schema["$ref"] === "string") {
      const ref = current.schema["$ref"];
      if (!ref.startsWith("#") || seen.has(ref)) return { schema: {}, pointer: current.pointer };
      seen.add(ref);
      const target = this.pointer(fragmentPointer(ref));
      if (!target) return { schema: {}, pointer: current.pointer };
      current = target;
    }
    return current;
  }

  pointer(pointer: string): SchemaAt | undefined {
    if (this.found.has(pointer)) return this.found.get(pointer);
    const target = child({ schema: this.document, pointer: "" }, ...decodePointer(pointer));
    this.found.set(pointer, target);
    return target;
  }

  /** The component name a schema (possibly a $ref) points at, e.g. `Ticket`. */
  refName(at: SchemaAt): string | undefined {
    const ref = at.schema["$ref"];
    const match =
      (typeof ref === "string" && /^#\/components\/schemas\/([^/]+)$/.exec(ref)) || /^\/components\/schemas\/([^/]+)$/.exec(at.pointer);
    return match ? unescapePointer(match[1]!) : undefined;
  }

  /**
   * The non-null branch of `oneOf/anyOf: [X, {type: null}]`, the one member of an `allOf` that only
   * has words beside it (`allOf: [{ $ref: Status }], description`, Box's `allOf: [{ type: string }]`),
   * or the schema itself.
   */
  unwrapNullable(at: SchemaAt): SchemaAt {
    let resolved = this.deref(at);
    let inner = this.wrappedBy(resolved);
    if (inner === undefined) return resolved;
    // A wrapper that comes back to itself (`A: { allOf: [{ $ref: A }] }`) wraps nothing more: it is read where it is.
    const seen = new Set<string>();
    while (inner !== undefined && !seen.has(resolved.pointer)) {
      seen.add(resolved.pointer);
      resolved = this.deref(inner);
      inner = this.wrappedBy(resolved);
    }
    return resolved;
  }

  /** The one schema a wrapper stands for: the one shaping member of an `allOf` with only words beside it, or the branch beside `null`. */
  private wrappedBy(resolved: SchemaAt): SchemaAt | undefined {
    const { allOf: _wrapped, ...beside } = resolved.schema;
    const shaping = members(resolved, "allOf").filter((member) => !wordsOnly(this.deref(member).schema));
    if (_wrapped !== undefined && shaping.length === 1 && wordsOnly(beside)) return shaping[0]!;
    for (const key of ["oneOf", "anyOf"]) {
      const branches = members(resolved, key);
      const real = branches.filter((branch) => !this.isNullSchema(branch));
      if (real.length === 1 && real.length < branches.length) return real[0]!;
    }
    return undefined;
  }

  isNullSchema(at: SchemaAt): boolean {
    const schema = this.deref(at).schema;
    return schema["type"] === "null" || (Array.isArray(schema["enum"]) && schema["enum"].length === 1 && schema["enum"][0] === null);
  }

  /** Whether a schema allows null, itself or through a branch; a branch that comes back to a schema asked about (`A: { oneOf: [A] }`) adds nothing. */
  nullable(at: SchemaAt, asked = new Set<string>()): boolean {
    const resolved = this.deref(at);
    const { schema } = resolved;
    if (schema["nullable"] === true) return true;
    if (Array.isArray(schema["type"]) && schema["type"].includes("null")) return true;
    if ("const" in schema && schema["const"] === null) return true;
    if (asked.has(resolved.pointer)) return false;
    asked.add(resolved.pointer);
    return ["oneOf", "anyOf"].some((key) =>
      members(resolved, key).some((branch) => this.nullable(branch, asked) || this.isNullSchema(branch)),
    );
  }

  /** The JSON type of a schema, ignoring null; `undefined` when it is not one type. */
  kind(at: SchemaAt): Kind | undefined {
    const resolved = this.unwrapNullable(at);
    const schema = resolved.schema;
    const type = Array.isArray(schema["type"]) ? schema["type"].filter((t) => t !== "null") : schema["type"];
    const single = Array.isArray(type) ? (type.length === 1 ? type[0] : undefined) : type;
    if (KINDS.has(single)) return single as Kind;
    const values = this.enumValues(resolved);
    if (values && values.length > 0) {
      if (values.every((v) => Number.isInteger(v))) return "integer";
      if (values.every((v) => typeof v === "number")) return "number";
      if (values.every((v) => typeof v === "string")) return "string";
      if (values.every((v) => typeof v === "boolean")) return "boolean";
    }
    if (schema["properties"] || schema["allOf"]) return "object";
    if (schema["items"]) return "array";
    return undefined;
  }

  /** An object, or a `oneOf`/`anyOf` of objects with no single type (PagerDuty's reference-or-full-record), whose branches' properties merge. */
  objectLike(at: SchemaAt): boolean {
    const kind = this.kind(at);
    return kind === "object" || (kind === undefined && this.properties(at).length > 0);
  }

  /** Enum values without null, from `enum`, `const`, or a `oneOf` of consts. */
  enumValues(at: SchemaAt): (string | number | boolean)[] | undefined {
    const resolved = this.unwrapNullable(at);
    const { schema } = resolved;
    const keep = (values: unknown[]) => values.filter((v): v is string | number | boolean => v !== null && typeof v !== "object");
    if (Array.isArray(schema["enum"])) return keep(schema["enum"]);
    if ("const" in schema && schema["const"] !== null) return keep([schema["const"]]);
    const branches = this.constBranches(resolved);
    return branches ? keep(branches.map((b) => b.value)) : undefined;
  }

  /** `oneOf: [{const, title}, ...]` as value/title pairs, when every non-null branch is a const. */
  constBranches(at: SchemaAt): { value: unknown; title: unknown }[] | undefined {
    for (const key of ["oneOf", "anyOf"]) {
      if (!Array.isArray(at.schema[key])) continue;
      const resolved = members(at, key)
        .map((branch) => this.deref(branch).schema)
        .filter((s) => s["type"] !== "null" && s["const"] !== null);
      if (resolved.length > 0 && resolved.every((s) => "const" in s || (Array.isArray(s["enum"]) && s["enum"].length === 1))) {
        return resolved.map((s) => ({ value: "const" in s ? s["const"] : (s["enum"] as unknown[])[0], title: s["title"] }));
      }
    }
    return undefined;
  }

  /** Properties in declaration order, merged through allOf; oneOf/anyOf branches add optional ones. */
  properties(at: SchemaAt, seen = new Set<string>()): Property[] {
    const resolved = this.unwrapNullable(at);
    if (seen.has(resolved.pointer)) return [];
    seen.add(resolved.pointer);
    const result = new Map<string, Property>();
    const add = (property: Property) => {
      const existing = result.get(property.name);
      if (!existing) result.set(property.name, property);
      else if (property.required) existing.required = true;
    };
    // Branches of a mixed list (Box's files, folders and web links) each fix `type` to their own value:
    // the merged property takes every branch's values, or the other kinds would read as unknown codes.
    const addBranch = (property: Property) => {
      const existing = result.get(property.name);
      const theirs = existing && !ownNames.has(property.name) ? this.enumValues(existing.at) : undefined;
      const ours = theirs ? this.enumValues(property.at) : undefined;
      if (existing && theirs && ours?.some((v) => !theirs.includes(v))) {
        const declared = this.unwrapNullable(existing.at);
        const { const: _single, ...schema } = declared.schema;
        result.set(property.name, {
          ...existing,
          at: { schema: { ...schema, enum: [...theirs, ...ours.filter((v) => !theirs.includes(v))] }, pointer: declared.pointer },
        });
      } else add(property);
    };
    const schema = resolved.schema;
    const required = new Set(Array.isArray(schema["required"]) ? schema["required"].map(String) : []);
    // A bundler may share a whole `properties` map through one `$ref`.
    const declared = child(resolved, "properties");
    const shared = declared?.schema["$ref"];
    const props =
      typeof shared === "string" && Object.keys(declared!.schema).length === 1 ? this.pointer(fragmentPointer(shared)) : declared;
    if (props) {
      for (const name of Object.keys(props.schema)) {
        const propertyAt = child(props, name);
        if (propertyAt) add({ name, at: propertyAt, required: required.has(name) });
      }
    }
    for (const branch of members(resolved, "allOf")) this.properties(branch, seen).forEach(add);
    const ownNames = new Set(result.keys());
    for (const key of ["oneOf", "anyOf"]) {
      for (const branch of members(resolved, key)) for (const p of this.properties(branch, seen)) addBranch({ ...p, required: false });
    }
    for (const property of result.values()) if (required.has(property.name)) property.required = true;
    return [...result.values()];
  }

  property(at: SchemaAt, name: string): Property | undefined {
    return this.properties(at).find((p) => p.name === name);
  }

  items(at: SchemaAt): SchemaAt | undefined {
    return child(this.unwrapNullable(at), "items");
  }
}
