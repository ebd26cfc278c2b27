import { readFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { refusal, formatDiagnostic } from "../diagnostics.js";
import { textFigureCounter, type TextFigureCounter } from "../evidence/text-choice.js";
import { acceptedModel, initAnnotation, proposeTables, type InitOptions, type InitResult } from "../init/init.js";
import { entryKind } from "../output/listing.js";
import { loadSpec } from "../openapi/load.js";
import { findOperation, listOperations, operationLabel, responseExample, type Operation } from "../model/operations.js";
import type { LoadedSpec } from "../openapi/load.js";
import { SchemaReader } from "../openapi/schema.js";
import { didYouMean } from "../suggest.js";
import { isSystemError } from "../project/output-guard.js";
import { displayPath, posix } from "../project/display-path.js";
import { readRuntimeTemplate } from "../emit/runtime-template.js";
import { EXIT, UsageError, type Io } from "./io.js";
import { withinDepth } from "../openapi/too-deep.js";

export const INIT_HELP = `Usage: projector init SPEC [-o projector.yaml] [--operations a,b] [--tag T] [--accept-guesses]

Drafts an annotation for the JSON responses of the spec's GET operations: one tool per operation
(named from its operationId in snake_case), every resource and field listed with a guessed role and
the reason for it. Guesses it is unsure of are marked \`todo\`, which generate refuses until someone
decides. Re-running on an existing file keeps every decision in it and adds only what the spec gained.

Options:
  -o, --output FILE       annotation file to write or extend (default ./projector.yaml)
      --operations LIST   only these operations: operationIds or "GET /path", comma-separated
      --tag TAG           only operations with this tag
      --accept-guesses    write every guess as a decision, so generate runs at once
      --allow-remote-refs let the spec's $refs fetch http(s) documents
      --allow-outside-refs  let the spec's $refs read files outside the spec's folder
  -h, --help              this text
`;

export interface InitCommandOptions {
  spec: string;
  output: string;
  operations?: string[];
  tag?: string;
  acceptGuesses: boolean;
  allowRemoteRefs: boolean;
  allowOutsideRefs: boolean;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "api";

export async function runInit(options: InitCommandOptions, io: Io): Promise<number> {
  const specPath = resolve(io.cwd, options.spec);
  const annotationPath = resolve(io.cwd, options.output);
  const display = (path: string) => displayPath(io.cwd, path);
  const cannot = (message: string, help: string) => refusal("PRJ054", message, help, { file: display(annotationPath) });
  const kind = await entryKind(annotationPath);
  if (kind !== "absent" && kind !== "file")
    throw cannot(
      `${display(annotationPath)} is ${kind === "folder" ? "a folder" : "not a regular file"}; init writes the annotation to a file`,
      "pass -o path/to/projector.yaml",
    );
  const spec = await loadSpec(specPath, display(specPath), options);
  const reader = new SchemaReader(spec.document);
  const operations = listOperations(reader);
  // Valid OpenAPI 3.1 (a document of webhooks or components alone), but nothing init could draft.
  if (operations.length === 0)
    throw refusal(
      "PRJ058",
      "the spec declares no operations to project",
      "projector drafts tools from the JSON responses of a spec's `paths`; point init at a spec that has some",
      spec.document["paths"] === undefined ? { file: spec.file, line: 1, column: 1 } : spec.locate("/paths"),
    );
  if (options.operations) checkOperations(operations, options.operations);
  if (options.tag !== undefined) checkTag(operations, options.tag);
  const unreadable = (error: Error) => {
    throw cannot(`cannot read the annotation file: ${error.message}`, "check the file's permissions, or pass -o with another path");
  };
  const existing = kind === "file" ? await readFile(annotationPath, "utf8").catch(unreadable) : undefined;
  const info = spec.document["info"] as { title?: unknown } | undefined;
  const title =
    typeof info?.title === "string"
      ? info.title
      : specPath
          .split(/[\\/]/)
          .pop()!
          .replace(/\.[^.]+$/, "");
  const initOptions = {
    file: display(annotationPath),
    spec: posix(relative(dirname(annotationPath), specPath)),
    schema: schemaReference(annotationPath),
    output: `generated/${slug(title)}`,
    acceptGuesses: options.acceptGuesses,
    ...(existing !== undefined ? { existing } : {}),
    ...(options.operations ? { operations: options.operations } : {}),
    ...(options.tag !== undefined ? { tag: options.tag } : {}),
  };
  const counter = textFigureCounter(await readRuntimeTemplate(), { spec: initOptions.spec, annotation: initOptions.file });
  // Started before drafting, which its workers overlap, where a page's example is likely to be counted.
  if (someListExample(reader, operations)) counter.start();
  let result: InitResult;
  try {
    const drafted = withinDepth(spec.file, () => initAnnotation(spec, initOptions));
    result = await withTablesWhereSmaller(drafted, spec, initOptions, counter);
  } finally {
    await counter.dispose();
  }
  const temporary = `${annotationPath}.projector-tmp`;
  try {
    await writeFile(temporary, result.text);
    await rename(temporary, annotationPath);
  } catch (error) {
    if (!isSystemError(error)) throw error;
    throw cannot(
      `cannot write the annotation file: ${error.message}`,
      "check that its folder exists and can be written, or pass -o with another path",
    );
  }

  const fields = result.added.filter((p) => p[0] === "resources" && p[2] === "fields").length;
  const tools = result.added.filter((p) => p[0] === "tools").length;
  io.stdout.write(
    `${display(annotationPath)}: ${existing === undefined ? "drafted" : "extended"} with ${tools} tool(s) and ${fields} field(s)` +
      `${result.todos ? `; ${result.todos} guess(es) marked todo for you to decide` : ""}\n`,
  );
  for (const skipped of result.draft.skipped) io.stdout.write(`  skipped ${skipped.operation}: ${skipped.reason}\n`);
  for (const demoted of result.demoted) io.stdout.write(`  ${demoted.path}: dropped, since ${demoted.message}\n`);
  for (const d of result.remaining) io.stderr.write(`${formatDiagnostic({ ...d, severity: "warning" })}\n`);
  io.stdout.write(
    existing !== undefined && result.added.length === 0
      ? "Next: the annotation already names everything the spec declares for its tools; run `projector generate`.\n"
      : result.draft.tools.size === 0
        ? "Next: there is no tool to generate: name other operations with --operations or --tag, or write a tool by hand.\n"
        : result.todos
          ? "Next: decide each todo, then run `projector generate`.\n"
          : "Next: review the guesses, then run `projector generate`.\n",
  );
  return EXIT.ok;
}

/** This package's folder: two above `dist/commands` (or `src/commands`). */
const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Where the annotation finds this package's JSON Schema, relative to it, for editors: the installed
 * package's (`./node_modules/openapi-projector/schema/projector.schema.json`) when the annotation sits in the
 * project that installed it, or in this package's own folder; otherwise where installing it will put it.
 */
export function schemaReference(annotationPath: string, packageRoot = PACKAGE_ROOT): string {
  const { name } = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { name: string };
  const folder = dirname(annotationPath);
  const installed = join("node_modules", name);
  const root = packageRoot.replace(/[\\/]+$/, "");
  const project = root.endsWith(`${sep}${installed}`) ? root.slice(0, -installed.length - 1) : root;
  const inside = relative(project, folder);
  const schema = join(!inside.startsWith("..") && !isAbsolute(inside) ? root : join(folder, installed), "schema", "projector.schema.json");
  const path = posix(relative(folder, schema));
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * Whether some GET operation's example looks like a page: a list of objects, whole or under a key
 * of it (`{ "incidents": [...] }`). Only a list tool's example is counted; a guess either way
 * changes when the counting starts, not what it finds.
 */
function someListExample(reader: SchemaReader, operations: Operation[]): boolean {
  const objects = (value: unknown) => Array.isArray(value) && value.some((item) => typeof item === "object" && item !== null);
  return operations.some((op) => {
    if (op.method !== "get") return false;
    const example = responseExample(reader, op);
    return objects(example) || (typeof example === "object" && example !== null && Object.values(example).some(objects));
  });
}

/** The tag `--tag` gives must be one of the spec's GET operations': a typo must not draft nothing and exit 0. */
function checkTag(operations: Operation[], tag: string) {
  const tags = new Set(
    operations
      .filter((op) => op.method === "get")
      .flatMap((op) => {
        const written = op.at.schema["tags"];
        return Array.isArray(written) ? written.filter((t): t is string => typeof t === "string") : [];
      }),
  );
  if (!tags.has(tag))
    throw new UsageError(
      `--tag: no GET operation of the spec has the tag "${tag}"${didYouMean(tag, tags)}${tags.size === 0 ? "; the spec tags none" : ""}`,
    );
}

/** Every name `--operations` gives must be a GET operation of the spec: a typo must not draft nothing and exit 0. */
function checkOperations(operations: Operation[], names: readonly string[]) {
  const gets = operations.filter((op) => op.method === "get");
  for (const name of names) {
    const op = findOperation(operations, name);
    if (!op) {
      const candidates = gets.flatMap((o) => [o.operationId ?? operationLabel(o)]);
      throw new UsageError(
        `--operations: the spec has no operation "${name}"${didYouMean(name, candidates)}; name an operationId or "GET /path"`,
      );
    }
    if (op.method !== "get")
      throw new UsageError(`--operations: "${name}" is ${operationLabel(op)}; init drafts tools for GET operations only`);
  }
}

/** The drafted list tools' spec examples counted as JSON and as a table, and `text: table` proposed where it is smaller. */
async function withTablesWhereSmaller(
  result: InitResult,
  spec: LoadedSpec,
  options: InitOptions,
  counter: TextFigureCounter,
): Promise<InitResult> {
  const added = new Set(result.added.filter((path) => path[0] === "tools" && path.length === 2).map((path) => path[1]!));
  if (added.size === 0) return result;
  const model = result.model ?? acceptedModel(result, spec, options);
  if (!model) return result;
  const figures = await counter.count(model, added);
  return proposeTables(result, figures, options);
}
