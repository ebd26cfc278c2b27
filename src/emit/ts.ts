import { isIdentifier, pascalCase } from "../naming.js";
import type { Shape } from "../model/types.js";

/** Every string from the spec or the annotation enters generated code through JSON.stringify. */
export const literal = (value: unknown): string => JSON.stringify(value);

/** An object key: bare when it is an identifier, quoted otherwise. */
export const key = (name: string): string => (isIdentifier(name) ? name : literal(name));

const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Reads `name` from an object that may be undefined. Bracket access keeps consumers on
 * `noPropertyAccessFromIndexSignature` compiling; names an object inherits (`constructor`,
 * `toString`) go through an own-property check so they read as absent.
 */
export function access(object: string, name: string): string {
  if (PROTOTYPE_NAMES.has(name)) return `read(${object}, ${literal(name)})`;
  return `${object}?.[${literal(name)}]`;
}

/** "a ticket", "an incident". */
export const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;

/** A file name for a generated module: `search_tickets` gives `search-tickets`. */
export const fileStem = (name: string): string =>
  pascalCase(name)
    .replace(/^_/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase();

/** Text safe inside any comment: nothing that closes a block comment, no line terminator that ends a line comment. */
export const commentText = (text: string): string => text.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]+/g, " ");

export function typeOfShape(shape: Shape): string {
  switch (shape.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "unknown":
      return "unknown";
    case "literal":
      return shape.values.map(literal).join(" | ");
    case "array":
      return `Array<${typeOfShape(shape.items)}>`;
    case "object":
      return `{ ${shape.properties
        .map((p) => `${key(p.name)}?: ${typeOfShape(p.shape)}${p.nullable ? " | null" : ""};`)
        .join(" ")} }`;
  }
}
