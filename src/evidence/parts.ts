/**
 * The article's breakdown of a raw payload: what each character of its JSON text is for.
 * - links: every member named `links` (key and value), and any string that is an http(s) URL
 * - ids: values of `id` members, of fields that hold ids (join keys, arguments, `*_id`), and strings holding a UUID
 * - enums: values of coded fields (a kept legend, or an integer enum)
 * - facts: every other scalar value, quotes included
 * - structure: keys, punctuation, and the `type` discriminator of records
 */
export const PARTS = ["structure", "links", "ids", "enums", "facts"] as const;
export type Part = (typeof PARTS)[number];

export interface PartRules {
  /** Source field names whose values are ids. */
  idFields: ReadonlySet<string>;
  /** Source field names whose values are codes. */
  enumFields: ReadonlySet<string>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const URL_TEXT = /^https?:\/\//i;
const ID_NAME = /^(id|ids)$|(_id|_ids|Id|Ids)$/;

export interface ClassifiedText {
  text: string;
  /** One part per UTF-16 code unit of `text`. */
  parts: Part[];
}

/** `JSON.stringify(value)`, with the part each character belongs to. */
export function classifyJson(value: unknown, rules: PartRules): ClassifiedText {
  let text = "";
  const parts: Part[] = [];
  const emit = (chunk: string, part: Part) => {
    text += chunk;
    for (let i = 0; i < chunk.length; i++) parts.push(part);
  };
  const scalarPart = (scalar: unknown, key: string | undefined, siblings: Record<string, unknown> | undefined): Part => {
    if (typeof scalar === "string" && URL_TEXT.test(scalar)) return "links";
    if (key === "type" && siblings && "id" in siblings) return "structure";
    if (key !== undefined && (ID_NAME.test(key) || rules.idFields.has(key))) return scalar === null ? "facts" : "ids";
    if (typeof scalar === "string" && UUID.test(scalar)) return "ids";
    if (key !== undefined && rules.enumFields.has(key)) return "enums";
    return "facts";
  };
  const walk = (node: unknown, key: string | undefined, siblings: Record<string, unknown> | undefined, forced: Part | undefined) => {
    if (Array.isArray(node)) {
      emit("[", forced ?? "structure");
      node.forEach((item, i) => {
        if (i > 0) emit(",", forced ?? "structure");
        walk(item === undefined || typeof item === "function" ? null : item, key, undefined, forced);
      });
      emit("]", forced ?? "structure");
    } else if (typeof node === "object" && node !== null) {
      const object = node as Record<string, unknown>;
      emit("{", forced ?? "structure");
      let first = true;
      for (const [member, inner] of Object.entries(object)) {
        if (inner === undefined || typeof inner === "function") continue;
        const part = forced ?? (member === "links" ? "links" : undefined);
        if (!first) emit(",", forced ?? "structure");
        first = false;
        emit(`${JSON.stringify(member)}:`, part ?? "structure");
        walk(inner, member, object, part);
      }
      emit("}", forced ?? "structure");
    } else {
      emit(JSON.stringify(node), forced ?? scalarPart(node, key, siblings));
    }
  };
  walk(value, undefined, undefined, undefined);
  return { text, parts };
}
