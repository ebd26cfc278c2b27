import type SwaggerParser from "@apidevtools/swagger-parser";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ExternalRefs, ParseFile } from "./resolve-external.js";

export type RefParserClass = new () => SwaggerParser & { schema: unknown };

/** What the loader takes from json-schema-ref-parser, release 14.0.1 (swagger-parser pins it exactly). */
export interface RefParserLibrary {
  $RefParser: RefParserClass;
  /** Options completed with the library's defaults, as each of its steps completes them. */
  normalizedOptions(path: string, options: object): object;
  /** Reads and parses one file into `$refs` with the configured resolvers and parsers (lib/parse.ts, internal). */
  parseFile: ParseFile;
}

const require = createRequire(import.meta.url);

/** The release whose resolve and bundle steps src/openapi ports, and whose internals it reads. */
export const PORTED_RELEASE = "14.0.1";

/**
 * package.json pins swagger-parser exactly, which pins this release; an npm override could still
 * bring another, whose internals may differ: then loading stops with a clear error rather than
 * bundle a spec the way no release does.
 */
export function checkPortedRelease(version: string): void {
  if (version !== PORTED_RELEASE)
    throw new Error(
      `projector's spec loader is built on @apidevtools/json-schema-ref-parser ${PORTED_RELEASE}, but ${version} is installed (an npm override?); install the release swagger-parser pins`,
    );
}

/**
 * swagger-parser's own checks refuse what openapi-typescript reads (a number for `info.version`,
 * a 3.1 document without `paths`) and misname the problem; its base class, json-schema-ref-parser,
 * resolves and bundles without judging the document, which is judged after. It is taken from where
 * swagger-parser finds it, without swagger-parser, whose validators load ajv (50 ms of every run's
 * start). Loaded on first use: outside --watch, a no-op regenerate never parses the spec. Its
 * internal `parse` is reached by path: the package declares no exports map to forbid it, and the
 * release is pinned.
 */
export function refParserLibrary(): RefParserLibrary {
  const fromSwaggerParser = createRequire(require.resolve("@apidevtools/swagger-parser"));
  const entry = fromSwaggerParser.resolve("@apidevtools/json-schema-ref-parser");
  const { version } = fromSwaggerParser("@apidevtools/json-schema-ref-parser/package.json") as { version: string };
  checkPortedRelease(version);
  const library = fromSwaggerParser(entry) as {
    $RefParser: RefParserClass;
    jsonSchemaParserNormalizeArgs(args: unknown[]): { options: object };
  };
  const parse = (require(join(dirname(entry), "parse.js")) as { default: ParseFile }).default;
  return {
    $RefParser: library.$RefParser,
    normalizedOptions: (path, options) => library.jsonSchemaParserNormalizeArgs([path, options]).options,
    parseFile: (path: string, $refs: ExternalRefs, options: object) => parse(path, $refs, options),
  };
}
