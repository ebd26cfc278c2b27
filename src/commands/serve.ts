import { basename } from "node:path";
import { hasErrors } from "../diagnostics.js";
import { loadGenerated } from "../evidence/run-generated.js";
import { entryKind } from "../output/listing.js";
import { MARKER, withMarker } from "../output/ownership.js";
import { generateProject } from "../project/generate.js";
import { loadProject, type Project } from "../project/read.js";
import { ID_BOOK_URL_VARIABLE, idBookSettingsFrom, redisIdBook } from "../redis-id-book.js";
import { AccessProblems, apiAccess, type ApiAccess } from "../serve/api-access.js";
import { sameOriginFetch } from "../serve/api-fetch.js";
import { maskingFetch, maskingServer, secretMasker } from "../serve/secrets.js";
import { escapeUnseenCharacters } from "../control-characters.js";
import { compareOutput, type FolderCheck } from "../project/output-folder.js";
import { tellCheck } from "./tell-check.js";
import { printDiagnostics } from "./print.js";
import { EXIT, UsageError, type Io } from "./io.js";

export const SERVE_HELP = `Usage: projector serve [projector.yaml] [--http [HOST:]PORT]

Runs the annotation's tools as an MCP server: over stdio (the default, for a client that starts it,
such as Claude Desktop), or over Streamable HTTP at http://HOST:PORT/mcp with --http. It runs what
\`projector generate\` writes, generated afresh; when the output folder is there, it must be up to
date (run \`projector generate\` otherwise). Each call sends its request to the API and projects the
answer; a call the API refuses is an error result for the model, never a crash.

Where the API is and how to authenticate come from the annotation's \`serve:\` section, which names
environment variables (the secrets themselves are never in the file, and never printed):
  serve:
    base_url: { env: SUPPORT_API_URL, default: https://api.example.com/v1 }
    auth: { bearer: { env: SUPPORT_TOKEN } }   # or api_key: { env, header }, basic: { username, password }
Without base_url, the spec's single server URL. A variable that is not set stops serve at its start.
PROJECTOR_ID_BOOK_URL (redis:// or rediss://) shares short ids between processes (needs ioredis).

Options:
  -c, --config FILE        annotation file, also taken as the argument (default ./projector.yaml)
      --http [HOST:]PORT   serve Streamable HTTP instead of stdio; HOST is 127.0.0.1 unless given
                           (0.0.0.0 or another address, written in full, serves other machines);
                           PORT 0 takes a free one
  -h, --help               this text

Needs @modelcontextprotocol/sdk (1.x) and openapi-fetch installed beside projector.
SIGINT and SIGTERM stop it. Exit codes: 0 stopped, 1 problems in the inputs, the environment or a
stale output folder, 2 bad usage, 3 internal error.
`;

export interface ServeOptions {
  config: string;
  /** \`[host:]port\` as given to --http; stdio when absent. */
  http?: string;
}

/** What stops a running server: the signals a terminal or a process manager sends. */
export type StopSignals = (stop: () => void) => () => void;

const processSignals: StopSignals = (stop) => {
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  };
};

/** \`8080\`, \`127.0.0.1:8080\`, \`0.0.0.0:8080\`, \`[::1]:8080\`: loopback unless a host is given. */
export function httpPlace(text: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65535)
    throw new UsageError(`--http takes [HOST:]PORT (8080, 127.0.0.1:8080, [::1]:8080), not ${JSON.stringify(text.slice(0, 100))}`);
  return { host: match[1]?.replace(/^\[|\]$/g, "") ?? "127.0.0.1", port };
}

/** The packages serve runs on, which a projector that only generates does not need; undefined when one is missing. */
async function peers() {
  try {
    const [mcp, openapiFetch] = await Promise.all([import("../serve/mcp-server.js"), import("openapi-fetch")]);
    return { mcp, createClient: openapiFetch.default };
  } catch (error) {
    // Not installed, or an SDK too old to have the Streamable HTTP transport.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "ERR_PACKAGE_PATH_NOT_EXPORTED") return undefined;
    throw error;
  }
}

/** The generated folder's exports serve uses. */
interface GeneratedIndex {
  createTools(options: object): object;
  createResolvers?(client: unknown): object;
  registerTools(server: unknown, tools: object, schemas: unknown): void;
  toolDefinitions: readonly { name: string }[];
}

/** `text` as one line whatever it holds: a value from the environment or an API cannot start a line of its own. */
const oneLine = escapeUnseenCharacters;

export async function runServe(options: ServeOptions, io: Io, stopSignals: StopSignals = processSignals): Promise<number> {
  if (options.config.trim() === "") throw new UsageError("serve takes an annotation file, not an empty name");
  const place = options.http === undefined ? undefined : httpPlace(options.http);
  let mask = (text: string) => text;
  const say = (line: string) => io.stderr.write(`projector serve: ${oneLine(mask(line))}\n`);
  const loaded = await peers();
  if (!loaded) {
    say("it runs on the MCP SDK (1.32 or later 1.x) and openapi-fetch, which are not installed beside projector");
    say("install them: npm install --save-dev @modelcontextprotocol/sdk openapi-fetch");
    return EXIT.problems;
  }
  const project = await loadProject({ config: options.config }, io.cwd);
  const file = project.display(project.configPath);
  const withoutOperation = project.annotation.resolvers.filter((resolver) => resolver.operation === undefined);
  // A resolver with a label names the records the API embeds with their names; the ids that come
  // without one are marked unresolved, there being no operation to ask.
  const embeddedOnly = withoutOperation.filter((resolver) => resolver.label !== undefined);
  const handWritten = withoutOperation.filter((resolver) => resolver.label === undefined);
  for (const resolver of embeddedOnly)
    say(
      `resolver ${resolver.name} in ${file} names no operation: an id the API sends without its ${resolver.label} is shown unresolved; to have it looked up, name the operation that gives ${resolver.name} by id (\`operation: <operationId>\`)`,
    );
  for (const resolver of handWritten)
    say(
      `resolver ${resolver.name} in ${file} names no operation, and serve has no code of yours to ask; name the API's operation that gives ${resolver.name} by id (\`operation: <operationId>\`, with \`ids: <parameter>\` where one request takes many ids), or the \`label\` their name is under where the API embeds them`,
    );
  let access: ApiAccess;
  let idBookSettings: ReturnType<typeof idBookSettingsFrom>;
  try {
    access = apiAccess(project.annotation.serve, project.spec.document, process.env, file);
    idBookSettings = idBookSettingsFrom(process.env);
  } catch (error) {
    const problems = error instanceof AccessProblems ? error.problems : [(error as Error).message];
    for (const problem of problems) say(problem);
    return EXIT.problems;
  }
  const secretMask = secretMasker(access.secrets);
  mask = secretMask;
  if (handWritten.length > 0) return EXIT.problems;
  const files = await generatedFiles(project, options, io);
  if (!files) return EXIT.problems;

  const modules = await loadGenerated(files);
  const index = modules.index as unknown as GeneratedIndex;
  const responseBound = modules.runtime["MAX_RESPONSE_BYTES"] as number;
  await modules.dispose();
  const idBook = idBookSettings && (await sharedIdBook(idBookSettings, say));
  if (idBook === null) return EXIT.problems;
  // Masked as it arrives, before the runtime cuts, escapes or encodes what the API said; and once more as it leaves.
  const fetch = maskingFetch(sameOriginFetch(), secretMask, responseBound);
  const client = loaded.createClient({ baseUrl: access.baseUrl, headers: access.headers, fetch });
  const tools = index.createTools({
    client,
    resolvers: {
      ...Object.fromEntries(embeddedOnly.map((resolver) => [resolver.name, () => new Map()])),
      ...index.createResolvers?.(client),
    },
    onIssue: (issue: { message: string }) => io.stderr.write(`projection: ${oneLine(mask(issue.message))}\n`),
    ...(idBook ? { idBook: idBook.book } : {}),
  });
  const identity = { name: project.annotation.serve?.name ?? basename(project.outputDir), version: specVersion(project) };
  const register = (server: object, schemas: unknown) => index.registerTools(maskingServer(server, secretMask), tools, schemas);
  const names = index.toolDefinitions.map((tool) => tool.name).join(", ");
  let running: Awaited<ReturnType<typeof loaded.mcp.serveStdio>> & { url?: string };
  try {
    running = place ? await loaded.mcp.serveHttp(identity, register, place) : await loaded.mcp.serveStdio(identity, register);
  } catch (error) {
    if (!(error instanceof loaded.mcp.HttpPlaceProblem)) throw error;
    say(error.message);
    idBook?.disconnect();
    return EXIT.problems;
  }
  let stopped = false;
  const removeSignals = stopSignals(() => {
    stopped = true;
    void running.close();
  });
  say(`serving ${names} ${running.url ? `at ${running.url}` : "over stdio"}, calling ${access.baseUrl}`);
  try {
    await running.closed;
  } finally {
    removeSignals();
    idBook?.disconnect();
  }
  say(stopped ? "stopped" : "stdin closed; stopped");
  return EXIT.ok;
}

/** The files generate writes, when the output folder is absent or holds exactly them; undefined after saying why not. */
async function generatedFiles(project: Project, options: ServeOptions, io: Io): Promise<ReadonlyMap<string, string> | undefined> {
  const generated = await generateProject(project, { format: true });
  printDiagnostics(io, generated.diagnostics);
  if (hasErrors(generated.diagnostics)) return undefined;
  const files = withMarker(generated.files);
  if ((await entryKind(project.outputDir)) === "absent") return files;
  const check = apartFromRecord(await compareOutput(project.outputDir, files));
  const current = tellCheck(check, project.display, project.outputDir, { config: options.config, silent: true }, io);
  return current ? files : undefined;
}

/** The check with the folder's marker left out: its record of the run that wrote it is generate's, not what serve runs. */
function apartFromRecord(check: FolderCheck): FolderCheck {
  if (check.kind !== "stale") return check;
  const diff = { ...check.diff, changed: check.diff.changed.filter((path) => path !== MARKER) };
  return diff.changed.length + diff.added.length + diff.removed.length === 0 ? { kind: "up to date" } : { kind: "stale", diff };
}

/** The store of {@link ID_BOOK_URL_VARIABLE}, through ioredis; null after saying why it cannot be used. */
async function sharedIdBook(settings: { url: string; ttlSeconds: number }, say: (line: string) => void) {
  let Redis: typeof import("ioredis").Redis;
  try {
    ({ Redis } = await import("ioredis"));
  } catch {
    say(`${ID_BOOK_URL_VARIABLE} is set, and serve reaches the store through ioredis, which is not installed: npm install ioredis`);
    return null;
  }
  // One failed reconnection fails a command: a call answers the model at once while the store is down.
  const redis = new Redis(settings.url, { maxRetriesPerRequest: 1 });
  // The store's own words may name its host or credentials: a call tells the model it failed, this says no more.
  redis.on("error", () => {});
  return { book: redisIdBook(redis, { ttlSeconds: settings.ttlSeconds }), disconnect: () => redis.disconnect() };
}

/** The spec's \`info.version\`, which the server reports as its own. */
function specVersion(project: Project): string {
  const info = project.spec.document["info"];
  const version = typeof info === "object" && info !== null ? (info as { version?: unknown }).version : undefined;
  return typeof version === "string" ? version : "0.0.0";
}
