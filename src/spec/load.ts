import SwaggerParser from "@apidevtools/swagger-parser";
import { readFile } from "node:fs/promises";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { DiagnosticError } from "../diagnostics.js";
import { parseYamlSource, type YamlSource } from "../yaml-source.js";
import { isJsonObject, type JsonObject } from "./schema.js";

export interface LoadedSpec {
  /** The spec as the user names it, for messages. */
  file: string;
  /** Bundled: external files inlined, internal `$ref`s kept, so circular schemas stay finite. */
  document: JsonObject;
  /** Where a JSON pointer of the document is declared; parses the text only when first asked. */
  locate(pointer: string): SourceLocation;
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

  let document: unknown;
  try {
    document = await SwaggerParser.bundle(absolutePath, {
      resolve: { external: true, http: options.allowRemoteRefs ? {} : false },
    } as SwaggerParser.Options);
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    const syntax = positions().errors[0];
    if (syntax) {
      fail({ code: "PRJ003", message: `spec syntax: ${syntax.message}`, help: "fix the YAML/JSON at this position", location: { file, line: syntax.line, column: syntax.column } });
    }
    const remote = /\$ref pointer "(https?:\/\/[^"]+)"/.exec(message);
    if (remote) {
      const line = text.split("\n").findIndex((l) => l.includes(remote[1]!.split("#")[0]!));
      fail({
        code: "PRJ005",
        message: `remote $ref ${remote[1]} refused`,
        help: "download the referenced document next to the spec and point $ref at the file, or pass --allow-remote-refs",
        location: line >= 0 ? { file, line: line + 1, column: 1 } : { file },
      });
    }
    const missing = /\$ref pointer "([^"]+)"/.exec(message);
    const target = missing?.[1]?.replace(/^[^#]*(?=#)/, "");
    const line = target ? text.split("\n").findIndex((l) => l.includes("$ref") && l.includes(target)) : -1;
    fail({
      code: "PRJ003",
      message: `cannot load the spec: ${message.split("\n")[0]!.replace(/ \(.*\)$/, "")}`,
      help: missing ? `the $ref ${missing[1]} points at nothing; fix the path or add the schema` : "check that every $ref points at a file or a path that exists",
      location: line >= 0 ? { file, line: line + 1, column: text.split("\n")[line]!.indexOf("$ref") + 1 } : { file },
    });
  }
  if (!isJsonObject(document)) {
    return fail({ code: "PRJ004", message: "the spec is empty or not an object", help: "point `spec:` at an OpenAPI 3.0 or 3.1 document", location: { file, line: 1, column: 1 } });
  }
  const version = document["openapi"];
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) {
    const swagger = document["swagger"] !== undefined;
    fail({
      code: "PRJ004",
      message: swagger ? `Swagger ${String(document["swagger"])} is not supported` : `not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(version ?? null)})`,
      help: swagger ? "convert it first: `npx swagger2openapi spec.yaml -o spec.openapi.yaml`" : "the document needs `openapi: 3.0.x` or `openapi: 3.1.x` at the top",
      location: positions().locate([swagger ? "swagger" : "openapi"], "key"),
    });
  }
  if (!isJsonObject(document["paths"])) {
    fail({ code: "PRJ004", message: "the spec declares no `paths`", help: "projector reads the responses of the spec's operations", location: { file, line: 1, column: 1 } });
  }
  return {
    file,
    document,
    locate: (pointer) => ({ ...positions().locate(decodePointer(pointer), "key"), pointer }),
  };
}
