import type SwaggerParser from "@apidevtools/swagger-parser";
import { createRequire } from "node:module";

export type RefParserClass = new () => SwaggerParser & { schema: unknown };

/**
 * json-schema-ref-parser's `$RefParser`, whole. swagger-parser's own checks refuse what
 * openapi-typescript reads (a number for `info.version`, a 3.1 document without `paths`) and misname
 * the problem; its base class, json-schema-ref-parser, resolves and bundles without judging the
 * document, which is judged after. It is taken from where swagger-parser finds it, without
 * swagger-parser, whose validators load ajv. Loaded on first use: outside --watch, a no-op
 * regenerate never parses the spec.
 */
export function refParser(): RefParserClass {
  return library().$RefParser;
}

/**
 * Whether json-schema-ref-parser's http resolver declines a URL by design, whatever the options that
 * allow remote documents: loopback, private and link-local addresses, internal host names, ports of
 * internal services.
 */
export function refusedAsInternal(url: string): boolean {
  return library().isUnsafeUrl(url);
}

function library() {
  const require = createRequire(import.meta.url);
  const fromSwaggerParser = createRequire(require.resolve("@apidevtools/swagger-parser"));
  return fromSwaggerParser("@apidevtools/json-schema-ref-parser") as { $RefParser: RefParserClass; isUnsafeUrl(url: string): boolean };
}
