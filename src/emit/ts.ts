import { escapeHiddenCharacters } from "../control-characters.js";
import { isIdentifier } from "../naming.js";
import type { Shape } from "../model/types.js";
import type { ModuleWriter } from "./module.js";

/**
 * Every string from the spec or the annotation enters generated code through JSON.stringify, which
 * escapes C0 controls; DEL and C1 ones, legal raw in a string, are escaped too, so the file stays
 * text, and so are the bidirectional and zero-width characters, so a reviewer reads it as it runs.
 */
export const literal = (value: unknown): string => escapeHiddenCharacters(JSON.stringify(value));

/** An object key: bare when it is an identifier, quoted otherwise. */
export const key = (name: string): string => (isIdentifier(name) ? name : literal(name));

const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Reads `name` from an object that may be undefined. Bracket access keeps consumers on
 * `noPropertyAccessFromIndexSignature` compiling; names an object inherits (`constructor`,
 * `toString`) go through an own-property check so they read as absent.
 */
export function access(module: ModuleWriter, object: string, name: string): string {
  if (PROTOTYPE_NAMES.has(name)) return `${module.runtime("read")}(${object}, ${literal(name)})`;
  return `${object}?.[${literal(name)}]`;
}

/**
 * Text safe inside any comment: nothing that closes a block comment, no line terminator that ends a
 * line comment, and control characters written as escapes.
 */
export const commentText = (text: string): string =>
  escapeHiddenCharacters(text.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]+/g, " "));

export function typeOfShape(shape: Shape): string {
  switch (shape.type) {
    case "string":
    case "boolean":
    case "unknown":
      return shape.type;
    case "number":
    case "integer":
      return "number";
    case "literal":
      return shape.values.map(literal).join(" | ");
    case "array":
      return `Array<${typeOfShape(shape.items)}>`;
    case "object":
      if (shape.values) return `{ [key: string]: ${typeOfShape(shape.values.shape)}${shape.values.nullable ? " | null" : ""} }`;
      // `{}` would be any value but null: an object the spec declares always empty holds no key.
      if (shape.properties.length === 0) return "{ [key: string]: never }";
      return `{ ${shape.properties.map((p) => `${key(p.name)}?: ${typeOfShape(p.shape)}${p.nullable ? " | null" : ""};`).join(" ")} }`;
  }
}
