import { oneLine } from "./control-characters.js";

/**
 * Every problem the generator can report has a stable code, a location a person can open, and one
 * line of help. Codes never change meaning; new problems get new codes.
 */
export const CODES = {
  PRJ001: "annotation file cannot be read or parsed",
  PRJ002: "annotation file has the wrong shape",
  PRJ003: "spec file cannot be read or parsed",
  PRJ004: "spec is not an OpenAPI 3.x document",
  PRJ005: "remote $ref refused",
  PRJ006: "output folder outside the project",
  PRJ007: "malformed $ref",
  PRJ008: "openapi-typescript cannot type the spec",
  PRJ009: "the spec does not follow the OpenAPI schema (a warning)",
  PRJ010: "unknown operation",
  PRJ011: "tool response has no JSON body",
  PRJ012: "cannot tell which records a tool returns, or they are no records",
  PRJ013: "unknown resource",
  PRJ014: "resource not annotated",
  PRJ020: "field declared by the spec but not classified",
  PRJ021: "field named in the annotation but not declared by the spec",
  PRJ022: "an id must be an argument, a join key, or dropped with a reason",
  PRJ023: "kept integer enum has no legend",
  PRJ024: "legend does not cover the spec's enum",
  PRJ025: "legend: spec, but the spec has no legend for this enum",
  PRJ026: "join or legend through an undeclared resolver",
  PRJ027: "two fields share one output name",
  PRJ028: "output name not allowed",
  PRJ029: "option does not apply to this field",
  PRJ030: "nested object partly classified",
  PRJ031: "page path not declared by the response",
  PRJ032: "undecided guess left in the annotation",
  PRJ033: "value kept whole would carry a URL",
  PRJ034: "a credential kept, which the model would be shown, or written into the annotation as a fixed input",
  PRJ037: "a default for the parts of an object (`x.*`) that keeps rather than drops",
  PRJ040: "a payload or data file cannot be read",
  PRJ041: "no payload and no example in the spec",
  PRJ042: "the spec's example response does not fit the tool's budget",
  PRJ043: "questions file has the wrong shape or names an unknown tool",
  PRJ044: "a tool's `record` names no schema of the spec",
  PRJ045: "a tool returns records of another schema than its resource classifies",
  PRJ050: "output folder holds files generate did not write",
  PRJ051: "output folder holds the project, its annotation, its spec or a git repository",
  PRJ052: "output folder is not a folder, or cannot be written",
  PRJ053: "another generate is writing the output folder",
  PRJ054: "init cannot write the annotation file",
  PRJ055: "$ref outside the spec's folder refused",
  PRJ056: "YAML aliases expand the document past the limit",
  PRJ057: "$ref chain longer than the limit",
  PRJ058: "the spec declares no operations to project",
  PRJ059: "the consumer's prettier config cannot format the output",
  PRJ060: "a tool's inputs name a parameter its operation does not have",
  PRJ061: "a required parameter is dropped from a tool's inputs",
  PRJ062: "a tool input's legend cannot be sent back as codes",
  PRJ063: "two parameters of a tool would be passed under one name",
  PRJ065: "a resolver names an unknown operation",
  PRJ066: "a resolver's `ids` is not an array query parameter of its operation",
  PRJ067: "a resolver's operation has path parameters it cannot fill",
  PRJ068: "a resolver's operation returns no records carrying its label",
  PRJ069: "a resolver's `max` or `concurrency` is not a whole number above 0, or does not apply",
  PRJ070: "a tool input's fixed value does not fit the parameter's schema",
  PRJ071: "a tool's inputs name a header or cookie parameter",
  PRJ080: "an operation's path names a parameter it does not declare",
  PRJ081: "a declared path parameter is not in the operation's path (a warning)",
  PRJ082: "a required header or cookie the tool does not send (a warning)",
  PRJ083: "a required request body that is not JSON",
  PRJ084: "a tool name function-calling APIs refuse (a warning)",
  PRJ085: "a pattern the validator cannot compile is left out (a warning)",
  PRJ086: "a tool takes a short id but no parameter of it takes the id (a warning)",
  PRJ087: "a schema too large to spell out is cut, and accepts any value below (a warning)",
  PRJ090: "a tool's `page.next` names what the spec does not declare, or cannot be followed",
  PRJ091: "a tool's `page.next` would set a parameter its inputs fix or drop, or its argument name is taken",
  PRJ092: "an `argument:` names no tool of the annotation but one close to it (a warning)",
  PRJ093: "a `$ref` leads round a cycle of `$ref`s or compositions with no object or list between",
} as const;

export type Code = keyof typeof CODES;

export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
  /** JSON pointer into the spec, for problems located in the spec. */
  pointer?: string;
}

/** A place in a file that always has its line and column. */
export type FilePosition = Required<Omit<SourceLocation, "pointer">>;

export interface Diagnostic {
  code: Code;
  severity: "error" | "warning";
  message: string;
  help: string;
  location: SourceLocation;
  /** A second place worth looking at, e.g. the spec declaration behind an annotation error. */
  related?: SourceLocation;
}

/** Thrown to stop a pipeline stage whose input is unusable; carries every problem found so far. */
export class DiagnosticError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join("\n"));
    this.name = "DiagnosticError";
  }
}

/**
 * A value nested thousands of levels deep: the parsers, the schema check and openapi-typescript
 * recurse into every value, and such an input ends them with a stack overflow, which is told apart
 * from any other failure so that each says what it is rather than blame a path or crash.
 */
export const overflowedStack = (failure: unknown): boolean =>
  /Maximum call stack size exceeded/.test(typeof failure === "string" ? failure : failure instanceof Error ? failure.message : "");

/** A stage stopped by one problem: its code, what is wrong, what to do, and where. */
export const refusal = (code: Code, message: string, help: string, location: SourceLocation): DiagnosticError =>
  new DiagnosticError([{ code, severity: "error", message, help, location }]);

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

export function formatLocation(location: SourceLocation): string {
  let text = location.file;
  if (location.line !== undefined) text += `:${location.line}:${location.column ?? 1}`;
  if (location.pointer !== undefined) text += ` (#${location.pointer})`;
  return text;
}

/** `file:line:col CODE message` then an indented help line, as compilers print them. */
export function formatDiagnostic(d: Diagnostic): string {
  const label = d.severity === "warning" ? `${d.code} warning` : d.code;
  // The words may quote a spec's or an annotation's text: each line says one thing, and cannot forge another.
  const lines = [`${formatLocation(d.location)} ${label} ${d.message}`, `  help: ${d.help}`];
  if (d.related) lines.push(`  see: ${formatLocation(d.related)}`);
  return lines.map(oneLine).join("\n");
}

/** Orders diagnostics by file then position so the report reads top to bottom. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.location.file.localeCompare(b.location.file) ||
      (a.location.line ?? 0) - (b.location.line ?? 0) ||
      (a.location.column ?? 0) - (b.location.column ?? 0) ||
      a.code.localeCompare(b.code),
  );
}
