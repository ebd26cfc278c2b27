import { escapeControlCharacters } from "./control-characters.js";
import { printNumberLiteral, printStringLiteral } from "./prettier-layout/literals.js";

/**
 * Prints a JSON value, written in generated code as a JavaScript literal, exactly as prettier (its
 * default options, the babel-ts parser) prints that literal: objects and arrays on one line where
 * they fit in 80 columns and one entry per line where not, keys bare where they are identifiers,
 * strings in the quote that needs fewer escapes, numbers normalized. The few layouts whose rules
 * are subtle (a scalar pushed past the edge by a long key, a broken array of numbers, keys outside
 * ASCII) are not guessed: the literal is then left to prettier. See test/json-literal-print.test.ts,
 * which compares the two on random values.
 */
export function printJsonLiteral(value: unknown, place: LiteralPlace, width: (text: string) => number): string | undefined {
  try {
    return new Printer(width).print(value, place.indent, place.column, place.after);
  } catch (error) {
    if (error === UNSURE) return undefined;
    throw error;
  }
}

/** Where the literal starts: the indentation of its line, its column, and the width of what follows it on its last line. */
export interface LiteralPlace {
  indent: number;
  column: number;
  after: number;
}

const PRINT_WIDTH = 80;
/** Prettier keeps a value beside a key shorter than this even past the edge: breaking there saves too little. */
const SHORT_KEY = 5;
const UNSURE = Symbol("unsure");
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ASCII = /^[\x20-\x7e]*$/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

class Printer {
  private readonly flats = new Map<object, string>();

  constructor(private readonly width: (text: string) => number) {}

  print(value: unknown, indent: number, column: number, after: number): string {
    const json = value as Json;
    const flat = this.flat(json);
    if (typeof json !== "object" || json === null) return flat;
    if (!mustBreak(json) && column + this.width(flat) + after <= PRINT_WIDTH) return flat;
    const inner = " ".repeat(indent + 2);
    if (Array.isArray(json)) {
      if (json.length > 1 && json.every((item) => typeof item === "number")) throw UNSURE;
      const items = json.map((item) => `${inner}${this.print(item, indent + 2, indent + 2, 1)},`);
      return `[\n${items.join("\n")}\n${" ".repeat(indent)}]`;
    }
    const entries = Object.entries(json).map(([name, item]) => `${inner}${this.entry(name, item, indent + 2)},`);
    return `{\n${entries.join("\n")}\n${" ".repeat(indent)}}`;
  }

  /** One `key: value` of an object that is broken over lines, starting at `indent`. */
  private entry(name: string, item: Json, indent: number): string {
    const key = printKey(name);
    const column = indent + this.width(key) + 2;
    const flat = this.flat(item);
    const empty = flat === "{}" || flat === "[]";
    if (typeof item === "object" && item !== null && !empty) {
      // The opening bracket stays beside the key; past the edge, prettier would weigh moving it down.
      if (column + 1 > PRINT_WIDTH) throw UNSURE;
      return `${key}: ${this.print(item, indent, column, 1)}`;
    }
    if (column + this.width(flat) + 1 <= PRINT_WIDTH) return `${key}: ${flat}`;
    if (typeof item !== "string") throw UNSURE;
    if (this.width(key) < SHORT_KEY) return `${key}: ${flat}`;
    return `${key}:\n${" ".repeat(indent + 2)}${flat}`;
  }

  private flat(value: Json): string {
    if (value === null) return "null";
    if (typeof value === "boolean") return String(value);
    if (typeof value === "number") return printNumberLiteral(JSON.stringify(value));
    if (typeof value === "string") return printString(value);
    const known = this.flats.get(value);
    if (known !== undefined) return known;
    const text = Array.isArray(value)
      ? `[${value.map((item) => this.flat(item)).join(", ")}]`
      : Object.keys(value).length === 0
        ? "{}"
        : `{ ${Object.entries(value)
            .map(([name, item]) => `${printKey(name)}: ${this.flat(item)}`)
            .join(", ")} }`;
    this.flats.set(value, text);
    return text;
  }
}

/** Prettier breaks an array of two or more objects (or arrays) of two or more entries each, even where it fits. */
function mustBreak(value: Json[] | { [key: string]: Json }): boolean {
  if (!Array.isArray(value) || value.length < 2) return false;
  const arrays = value.every((item) => Array.isArray(item) && item.length > 1);
  const objects = value.every((item) => typeof item === "object" && item !== null && !Array.isArray(item) && Object.keys(item).length > 1);
  return arrays || objects;
}

function printKey(name: string): string {
  if (IDENTIFIER.test(name)) return name;
  if (!ASCII.test(name)) throw UNSURE;
  return printString(name);
}

/** The string as the emitter writes it (JSON.stringify, control characters escaped), in the quote prettier prefers. */
const printString = (value: string): string => printStringLiteral(escapeControlCharacters(JSON.stringify(value)));
