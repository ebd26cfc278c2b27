import type { ValidateFunction } from "ajv";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { overflowedStack, type Diagnostic } from "../diagnostics.js";
import { compileOpenApi30 } from "./openapi-30-schema.js";
import type { LoadedSpec } from "./load.js";
import { TOO_DEEP_HELP } from "./too-deep.js";

const MAX_REPORTED = 10;

/** ajv's standalone code for the OpenAPI 3.0 schema, written at build time (build-validator.ts). */
export const STANDALONE_VALIDATOR = new URL("./openapi-30-validator.cjs", import.meta.url);

/**
 * Loaded on first use (a no-op regenerate never validates), then kept. The build compiled the schema
 * into code once; run from the sources (the tests), where there is no build, it is compiled here.
 */
async function openApi30Validator(): Promise<ValidateFunction> {
  if (existsSync(STANDALONE_VALIDATOR)) return createRequire(import.meta.url)(fileURLToPath(STANDALONE_VALIDATOR)) as ValidateFunction;
  return compileOpenApi30();
}
let openApi30: Promise<ValidateFunction> | undefined;

/**
 * Checks an OpenAPI 3.0 document against the official schema. Real specs often fail it somewhere;
 * the problems are warnings, since they stop generation only where they touch the chosen
 * operations, and there the model builder reports them itself. (The published 3.1 schema relies on
 * dynamic references that validators disagree on, so 3.1 documents are not checked here.)
 */
export async function validateSpec(spec: LoadedSpec): Promise<Diagnostic[]> {
  const version = String(spec.document["openapi"] ?? "");
  if (!version.startsWith("3.0")) return looseThirtyOne(spec, version);
  openApi30 ??= openApi30Validator();
  const validate = await openApi30;
  let valid: boolean;
  try {
    valid = validate(spec.document);
  } catch (error) {
    if (!overflowedStack(error)) throw error;
    return [
      {
        code: "PRJ009",
        severity: "warning",
        message: `the spec nests too deeply to be checked against OpenAPI ${version}`,
        help: `generation goes on; ${TOO_DEEP_HELP}`,
        location: { file: spec.file },
      },
    ];
  }
  if (valid) return [];
  // A failed `oneOf` lists every branch's complaint; the deepest complaint per place says the most.
  const byPlace = new Map<string, { message: string; keyword: string }>();
  for (const error of validate.errors ?? []) {
    if (error.keyword === "oneOf" || error.keyword === "anyOf") continue;
    if (!byPlace.has(error.instancePath))
      byPlace.set(error.instancePath, { message: error.message ?? "is invalid", keyword: error.keyword });
  }
  const places = [...byPlace].sort(([a], [b]) => a.localeCompare(b));
  const diagnostics: Diagnostic[] = places.slice(0, MAX_REPORTED).map(([pointer, error]) => ({
    code: "PRJ009",
    severity: "warning",
    message: `the spec does not follow OpenAPI ${version} here: ${pointer || "the document"} ${error.message}`,
    help: "generation goes on; fix the spec where it touches a tool's operation",
    location: spec.locate(pointer),
  }));
  if (places.length > MAX_REPORTED) {
    diagnostics.push({
      code: "PRJ009",
      severity: "warning",
      message: `and ${places.length - MAX_REPORTED} more places where the spec does not follow OpenAPI ${version}`,
      help: "validate the spec with your OpenAPI tooling to see them all",
      location: { file: spec.file },
    });
  }
  return diagnostics;
}

/**
 * The one looseness of hand-written 3.1 documents worth a word, since the 3.1 schema is not checked:
 * `version: 1` is read by YAML as a number. openapi-typescript reads it, and so does projector.
 */
function looseThirtyOne(spec: LoadedSpec, version: string): Diagnostic[] {
  const info = spec.document["info"];
  const infoVersion = typeof info === "object" && info !== null ? (info as Record<string, unknown>)["version"] : undefined;
  if (infoVersion === undefined || typeof infoVersion === "string") return [];
  return [
    {
      code: "PRJ009",
      severity: "warning",
      message: `the spec does not follow OpenAPI ${version} here: /info/version must be a string, not ${JSON.stringify(infoVersion)}`,
      help: `generation goes on; quote it: \`version: "${String(infoVersion)}"\``,
      location: spec.locate("/info/version"),
    },
  ];
}
