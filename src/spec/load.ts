import type SwaggerParser from "@apidevtools/swagger-parser";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { DiagnosticError } from "../diagnostics.js";
import { jsonSyntaxError, parseYamlSource, type YamlSource } from "../yaml-source.js";
import { isJsonObject, type JsonObject } from "./schema.js";

export interface LoadedSpec {
  /** The spec as the user names it, for messages. */
  file: string;
  /** Bundled: external files inlined, internal `$ref`s kept, so circular schemas stay finite. */
  document: JsonObject;
  /** Where a JSON pointer of the document is declared; parses the text only when first asked. */
  locate(pointer: string): SourceLocation;
  /** Absolute paths of the spec and every local file its `$ref`s pulled in; set by loadSpec. */
  files?: readonly string[];
}

export interface LoadSpecOptions {
  /** Fetch `$ref`s that point at http(s) URLs. Off by default: generate never touches the network. */
  allowRemoteRefs?: boolean;
}

const decodePointer = (pointer: string) =>
  pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));

/** Reads and bundles an OpenAPI 3.x document, turning every failure into a located diagnostic. */
export async function loadSpec(absolutePath: string, file: string, options: LoadSpecOptions = {}): Promise<LoadedSpec> {
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    throw new DiagnosticError([
      {
        code: "PRJ003",
        severity: "error",
        message: `cannot read the spec: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
        help: "`spec:` is resolved against the folder of the annotation file",
        location: { file },
      },
    ]);
  }
  if (text.trim() === "") {
    throw new DiagnosticError([
      { code: "PRJ004", severity: "error", message: "the spec is empty or not an object", help: "point `spec:` at an OpenAPI 3.0 or 3.1 document", location: { file, line: 1, column: 1 } },
    ]);
  }
  let source: YamlSource | undefined;
  const positions = () => (source ??= parseYamlSource(text, file));
  const fail = (diagnostic: Omit<Diagnostic, "severity">): never => {
    throw new DiagnosticError([{ ...diagnostic, severity: "error" }]);
  };
  const notOpenApi = (found: unknown, at: SourceLocation) =>
    fail({
      code: "PRJ004",
      message: `not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(found ?? null)})`,
      help: "the document needs `openapi: 3.0.x` or `openapi: 3.1.x` at the top",
      location: at,
    });
  if (absolutePath.toLowerCase().endsWith(".json")) {
    // swagger-parser falls back to a YAML reading of bad JSON, which accepts trailing commas.
    const problem = jsonSyntaxError(text.replace(/^\uFEFF/, ""));
    if (problem) fail({ code: "PRJ003", message: `spec JSON syntax: ${problem.message}`, help: "fix the JSON at this position", location: { file, line: problem.line, column: problem.column } });
  }

  let document: unknown;
  // Loaded on first use: outside --watch, a no-op regenerate never parses the spec.
  const { default: Parser } = await import("@apidevtools/swagger-parser");
  const parser = new Parser();
  const parserOptions = { resolve: { external: true, http: options.allowRemoteRefs ? {} : false } } as SwaggerParser.Options;
  try {
    await parser.resolve(absolutePath, parserOptions);
    document = parser.api;
    // Bundling costs a second on a spec of Datadog's size, and changes nothing in one whose every
    // $ref already names where it leads.
    if (!refsPointStraight(document)) document = await parser.bundle(absolutePath, parser.api, parserOptions);
  } catch (error) {
    const message = String((error as Error).message ?? error).replaceAll(absolutePath, file);
    const syntax = positions().errors[0];
    if (syntax) {
      fail({ code: "PRJ003", message: `spec syntax: ${syntax.message}`, help: "fix the YAML/JSON at this position", location: { file, line: syntax.line, column: syntax.column } });
    }
    const parsed = positions().document.toJS() as unknown;
    if (!isJsonObject(parsed)) fail({ code: "PRJ004", message: "the spec is empty or not an object", help: "point `spec:` at an OpenAPI 3.0 or 3.1 document", location: { file, line: 1, column: 1 } });
    const root = parsed as JsonObject;
    if (typeof root["swagger"] === "string" || typeof root["swagger"] === "number") swaggerTwo(root, positions(), fail);
    if (/Unsupported OpenAPI version|not a valid Openapi API definition|version number must be a string/i.test(message)) {
      notOpenApi(root["openapi"], root["openapi"] === undefined ? { file, line: 1, column: 1 } : positions().locate(["openapi"], "key"));
    }
    const pointer = /\$ref pointer "([^"]+)"/.exec(message)?.[1];
    const at = pointer ? refLocation(text, file, pointer) : { file };
    if (pointer && /^https?:/i.test(pointer)) {
      fail({
        code: "PRJ005",
        message: `remote $ref ${pointer} refused`,
        help: "download the referenced document next to the spec and point $ref at the file, or pass --allow-remote-refs",
        location: at,
      });
    }
    fail({
      code: "PRJ003",
      message: `cannot load the spec: ${message.split("\n")[0]!.replace(/ \(.*\)$/, "")}`,
      help: pointer ? `the $ref ${pointer} points at nothing; fix the path or add the target` : "check that every $ref points at a file or a path that exists",
      location: at,
    });
  }
  if (!isJsonObject(document)) {
    return fail({ code: "PRJ004", message: "the spec is empty or not an object", help: "point `spec:` at an OpenAPI 3.0 or 3.1 document", location: { file, line: 1, column: 1 } });
  }
  if (document["swagger"] !== undefined) swaggerTwo(document, positions(), fail);
  const version = document["openapi"];
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) notOpenApi(version, version === undefined ? { file, line: 1, column: 1 } : positions().locate(["openapi"], "key"));
  if (!isJsonObject(document["paths"])) {
    fail({
      code: "PRJ004",
      message: document["paths"] === undefined ? "the spec declares no `paths`" : "the spec's `paths` is not a mapping",
      help: "projector reads the responses of the spec's operations",
      location: document["paths"] === undefined ? { file, line: 1, column: 1 } : positions().locate(["paths"], "key"),
    });
  }
  const malformed = findMalformedRef(document);
  if (malformed !== undefined) {
    fail({
      code: "PRJ007",
      message: `malformed $ref ${JSON.stringify(malformed)}`,
      help: 'a $ref inside the document starts with "#/", e.g. "#/components/schemas/Task"',
      location: refLocation(text, file, malformed),
    });
  }
  return {
    file,
    document,
    locate: (pointer) => ({ ...positions().locate(decodePointer(pointer), "key"), pointer }),
    // The parser gives POSIX paths on every platform; the watcher compares them with native ones.
    files: parser.$refs.paths("file").map((file) => resolve(file)),
  };
}

function swaggerTwo(document: JsonObject, positions: YamlSource, fail: (d: Omit<Diagnostic, "severity">) => never): never {
  return fail({
    code: "PRJ004",
    message: `Swagger ${String(document["swagger"])} is not supported`,
    help: "convert it first: `npx swagger2openapi spec.yaml -o spec.openapi.yaml`",
    location: positions.locate(["swagger"], "key"),
  });
}

/** The first `$ref` key in the text whose value names this target, as file:line:col. */
function refLocation(text: string, file: string, target: string): SourceLocation {
  const lines = text.split("\n");
  const wanted = target.toLowerCase().replace(/^https?:/, "");
  const key = /["']?\$ref["']?\s*:/;
  for (const [index, line] of lines.entries()) {
    const match = key.exec(line);
    if (!match) continue;
    // The value may sit on the next line, after a folded or literal block indicator.
    const value = line.slice(match.index) + (/[>|][+-]?\s*$/.test(line) ? ` ${lines[index + 1] ?? ""}` : "");
    if (value.toLowerCase().includes(wanted)) return { file, line: index + 1, column: match.index + (line[match.index] === "$" ? 1 : 2) };
  }
  return { file };
}

const isRef = (value: unknown): value is { $ref: string } => isJsonObject(value) && typeof value["$ref"] === "string" && value["$ref"] !== "";

/**
 * True when every `$ref` is a plain JSON pointer into this document whose target exists and is no
 * `$ref` itself: bundling rewrites each `$ref` to the URL-normalized place it finally leads, so for
 * such a document it is a no-op. Anything less plain is left to the bundler.
 */
function refsPointStraight(document: unknown): boolean {
  const refs = new Set<string>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (isRef(node)) refs.add(node.$ref);
    for (const inner of Object.values(node)) if (typeof inner === "object" && inner !== null) stack.push(inner);
  }
  for (const ref of refs) {
    if (!ref.startsWith("#/") || /[%\\]/.test(ref) || new URL(ref, "file:///").hash !== ref) return false;
    let target: unknown = document;
    for (const token of decodePointer(ref.slice(1))) {
      if (typeof target !== "object" || target === null || isRef(target) || !Object.hasOwn(target, token)) return false;
      target = (target as Record<string, unknown>)[token];
    }
    if (target === null || isRef(target)) return false;
  }
  return true;
}

/** An internal `$ref` that does not start with `#/`, which resolves to nothing useful. */
function findMalformedRef(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isJsonObject(node)) {
      const ref = node["$ref"];
      if (typeof ref === "string" && ref.startsWith("#") && ref !== "#" && !ref.startsWith("#/")) return ref;
      for (const inner of Object.values(node)) if (typeof inner === "object" && inner !== null) stack.push(inner);
    }
  }
  return undefined;
}
