import * as prettier from "prettier";

/** Formats generated TypeScript with the consumer's prettier options (or prettier's defaults). */
export async function formatFiles(files: Map<string, string>, options: prettier.Options | null): Promise<Map<string, string>> {
  const formatted = new Map<string, string>();
  for (const [path, text] of files) {
    formatted.set(path, await prettier.format(text, { ...(options ?? {}), parser: "typescript", filepath: path }));
  }
  return formatted;
}

/** The prettier config that applies to files in `folder`, if the consumer has one. */
export async function consumerPrettierConfig(folder: string): Promise<prettier.Options | null> {
  return prettier.resolveConfig(`${folder}/index.ts`, { editorconfig: false });
}
